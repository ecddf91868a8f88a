//===- Translation.cpp - C API: Relay text, ONNX, gradients -----*- C++ -*-===//

#include "capi/Translation.h"

#include "dialects/relay/RelayOps.h"
#include "frontends/ONNX/OnnxImporter.h"
#include "frontends/RelayText/Exporter.h"
#include "frontends/RelayText/Importer.h"
#include "support/AlignedInput.h"
#include "transforms/Passes.h"
#include "transforms/Pipelines/Pipelines.h"
#include "transforms/Specialize/BindInputShapes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

MlirModule mlirRelayImportText(MlirContext ctx, MlirStringRef text,
                               MlirStringRef fileName) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(text), unwrap(fileName)),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      relay::text::importRelayText(sourceMgr, unwrap(ctx));
  return wrap(module.release());
}

MlirModule mlirRelayParseMLIRFile(MlirContext ctx, MlirStringRef path) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      relay::openAlignedInputFile(unwrap(path), &error);
  if (!buffer) {
    emitError(UnknownLoc::get(unwrap(ctx))) << error;
    return MlirModule{nullptr};
  }
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, unwrap(ctx));
  return wrap(module.release());
}

MlirModule mlirRelayImportOnnx(MlirContext ctx, MlirStringRef bytes,
                               MlirStringRef fileName) {
  OwningOpRef<ModuleOp> module = relay::onnx_import::importOnnxModel(
      unwrap(bytes), unwrap(fileName), unwrap(ctx));
  return wrap(module.release());
}

MlirModule
mlirRelayImportOnnxWithInputShapes(MlirContext ctx, MlirStringRef bytes,
                                   MlirStringRef fileName, intptr_t numInputs,
                                   const MlirStringRef *names,
                                   const intptr_t *ranks, const int64_t *dims) {
  relay::onnx_import::OnnxImportOptions options;
  for (intptr_t i = 0; i < numInputs; ++i) {
    options.inputShapes[unwrap(names[i])] =
        SmallVector<int64_t>(dims, dims + ranks[i]);
    dims += ranks[i];
  }
  OwningOpRef<ModuleOp> module = relay::onnx_import::importOnnxModel(
      unwrap(bytes), unwrap(fileName), unwrap(ctx), options);
  return wrap(module.release());
}

MlirLogicalResult mlirRelayExportText(MlirModule module,
                                      MlirStringCallback callback,
                                      void *userData) {
  detail::CallbackOstream stream(callback, userData);
  LogicalResult result = relay::text::exportRelayText(unwrap(module), stream);
  stream.flush();
  return wrap(result);
}

MlirModule mlirRelayBindInputShapes(MlirModule module, MlirStringRef entry,
                                    intptr_t numInputs, const intptr_t *ranks,
                                    const int64_t *dims) {
  ModuleOp op = unwrap(module);
  auto func = op.lookupSymbol<relay::FuncOp>(unwrap(entry));
  if (!func || func.getNumArguments() != static_cast<unsigned>(numInputs))
    return MlirModule{nullptr};
  // Each parameter's dtype with the given sizes (others as they are).
  SmallVector<Type> types;
  for (auto [i, param] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(param);
    if (ranks[i] < 0 || !tensor) {
      types.push_back(param);
      dims += std::max<intptr_t>(ranks[i], 0);
      continue;
    }
    types.push_back(RankedTensorType::get(ArrayRef<int64_t>(dims, ranks[i]),
                                          tensor.getElementType()));
    dims += ranks[i];
  }
  OwningOpRef<ModuleOp> bound =
      relay::bindInputShapes(op, unwrap(entry), types);
  if (!bound)
    return MlirModule{nullptr};
  // As mlirRelayInferTypes leaves a module: composites decomposed.
  PassManager pm(op.getContext());
  pm.addPass(relay::createDecompose());
  if (failed(pm.run(*bound)))
    return MlirModule{nullptr};
  return wrap(bound.release());
}

bool mlirRelayEntryIsPolymorphic(MlirModule module, MlirStringRef entry) {
  auto func = unwrap(module).lookupSymbol<relay::FuncOp>(unwrap(entry));
  return func && func.isPolymorphic();
}

MlirModule mlirRelayInstantiateEntry(MlirModule module, MlirStringRef entry,
                                     intptr_t numInputs,
                                     const MlirType *inputTypes) {
  auto func = unwrap(module).lookupSymbol<relay::FuncOp>(unwrap(entry));
  if (func && func.isPolymorphic() &&
      func.getNumArguments() != static_cast<unsigned>(numInputs)) {
    func.emitError() << "@" << unwrap(entry) << " takes "
                     << func.getNumArguments() << " inputs, got " << numInputs;
    return MlirModule{nullptr};
  }
  SmallVector<Type> types;
  for (intptr_t i = 0; i < numInputs; ++i)
    types.push_back(unwrap(inputTypes[i]));
  OwningOpRef<ModuleOp> instance =
      relay::instantiateEntry(unwrap(module), unwrap(entry), types);
  if (!instance)
    return MlirModule{nullptr};
  // As mlirRelayInferTypes leaves a module: composites decomposed.
  PassManager pm(instance->getContext());
  pm.addPass(relay::createDecompose());
  if (failed(pm.run(*instance)))
    return MlirModule{nullptr};
  return wrap(instance.release());
}

MlirLogicalResult mlirRelayInferTypes(MlirModule module) {
  ModuleOp op = unwrap(module);
  PassManager pm(op.getContext());
  pm.addPass(relay::createInferTypes());
  pm.addPass(relay::createDecompose());
  return wrap(pm.run(op));
}

MlirLogicalResult mlirRelayDifferentiate(MlirModule module,
                                         MlirStringRef entry) {
  return wrap(relay::differentiateEntry(unwrap(module), unwrap(entry)));
}
