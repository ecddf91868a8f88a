//===- OnnxFuzzer.cpp - libFuzzer target for the ONNX importer ------------===//
//
// Feeds arbitrary bytes to the ONNX importer as a serialized ModelProto
// (relay-run model.onnx, --import-onnx, relay_mlir.load(bytes)) and, when a
// module comes out, verifies it and type-checks it. Any crash, sanitizer
// report, hang or allocation past the limit is a bug: a truncated or
// corrupt model, or one that is well-formed protobuf but a nonsensical
// graph, must only produce an error.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayDialect.h"
#include "frontends/ONNX/OnnxImporter.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static MLIRContext *context = [] {
    auto *ctx = new MLIRContext(MLIRContext::Threading::DISABLED);
    ctx->loadDialect<relay::RelayDialect, arith::ArithDialect,
                     func::FuncDialect>();
    return ctx;
  }();
  // Errors are expected; only crashes count.
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = relay::onnx_import::importOnnxModel(
      StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx",
      context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(context);
  pm.addPass(relay::createInferTypes());
  (void)pm.run(*module);
  return 0;
}
