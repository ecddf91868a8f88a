//===- relay-embed.cpp - A compiler embedding the relay dialect -----------===//
//
// Parses a module that mixes relay and func code, builds one more relay
// function with the C++ builder API, runs relay type inference, upstream
// inlining and CSE, and prints the result.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayBuilder.h"
#include "tools/init/InitAll.h"
#include "transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: relay-embed FILE.mlir\n";
    return 2;
  }
  DialectRegistry registry;
  relay::registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(argv[1], ParserConfig(&context));
  if (!module)
    return 1;

  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(module->getBody());
  relay::RelayBuilder rb(builder, builder.getUnknownLoc());
  Type f32 = rb.scalarType(rb.f32());
  rb.func("embedded", {f32}, f32, [&](relay::RelayBuilder &b, ValueRange args) {
    return b.multiply(args[0], args[0]);
  });
  if (failed(verify(*module)))
    return 1;

  PassManager pm(&context);
  pm.addPass(relay::createInferTypes());
  pm.addPass(createInlinerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
