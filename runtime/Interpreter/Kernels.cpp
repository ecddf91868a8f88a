//===- Kernels.cpp - Kernel registration and helpers ------------*- C++ -*-===//

#include "runtime/Interpreter/Kernels.h"

#include "support/DecomposedFrom.h"
#include "support/OnnxNodeName.h"

#include <mutex>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

InFlightDiagnostic KernelContext::emitError() const {
  StringRef name = op->getName().getStringRef();
  name.consume_front("relay.");
  InFlightDiagnostic diag = mlir::emitError(op->getLoc());
  std::string node = onnxNodeName(op->getLoc());
  if (!node.empty())
    diag.attachNote() << "in ONNX node '" << node << "'";
  diag << name;
  std::string composite = decomposedFrom(op->getLoc());
  if (!composite.empty())
    diag << " (in the decomposition of " << composite << ")";
  diag << ": ";
  return diag;
}

int64_t KernelContext::getInt(StringRef name, int64_t dflt) const {
  if (auto a =
          dyn_cast_or_null<IntegerAttr>(attrs ? attrs.get(name) : Attribute()))
    return a.getValue().getSExtValue();
  return dflt;
}

double KernelContext::getFloat(StringRef name, double dflt) const {
  Attribute a = attrs ? attrs.get(name) : Attribute();
  if (auto f = dyn_cast_or_null<FloatAttr>(a))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_or_null<IntegerAttr>(a))
    return static_cast<double>(i.getValue().getSExtValue());
  return dflt;
}

bool KernelContext::getBool(StringRef name, bool dflt) const {
  if (auto a =
          dyn_cast_or_null<BoolAttr>(attrs ? attrs.get(name) : Attribute()))
    return a.getValue();
  return dflt;
}

StringRef KernelContext::getString(StringRef name, StringRef dflt) const {
  if (auto a =
          dyn_cast_or_null<StringAttr>(attrs ? attrs.get(name) : Attribute()))
    return a.getValue();
  return dflt;
}

SmallVector<int64_t> KernelContext::getInts(StringRef name,
                                            ArrayRef<int64_t> dflt) const {
  Attribute a = attrs ? attrs.get(name) : Attribute();
  if (auto arr = dyn_cast_or_null<DenseI64ArrayAttr>(a))
    return SmallVector<int64_t>(arr.asArrayRef());
  if (auto i = dyn_cast_or_null<IntegerAttr>(a))
    return {i.getValue().getSExtValue()};
  return SmallVector<int64_t>(dflt);
}

SmallVector<double> KernelContext::getFloats(StringRef name,
                                             ArrayRef<double> dflt) const {
  Attribute a = attrs ? attrs.get(name) : Attribute();
  if (auto arr = dyn_cast_or_null<DenseF64ArrayAttr>(a))
    return SmallVector<double>(arr.asArrayRef());
  return SmallVector<double>(dflt);
}

FailureOr<ValuePtr> mlir::relay::interp::callKernel(StringRef name,
                                                    const KernelContext &ctx,
                                                    ArrayRef<ValuePtr> operands,
                                                    Type resultType,
                                                    DictionaryAttr attrs) {
  const OperatorInfo *info = lookupOperator(("relay." + name).str());
  if (!info || !info->columns.count(kInterpretColumn))
    return ctx.emitError() << "no kernel for " << name;
  auto it = info->columns.find(kInterpretColumn);
  KernelContext inner{ctx.op, operands, attrs ? attrs : ctx.attrs,
                      resultType ? resultType : ctx.resultType};
  return std::any_cast<KernelFn>(it->second)(inner);
}

SmallVector<int64_t> mlir::relay::interp::unravel(int64_t index,
                                                  ArrayRef<int64_t> shape) {
  SmallVector<int64_t> out(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    out[d] = shape[d] ? index % shape[d] : 0;
    index = shape[d] ? index / shape[d] : 0;
  }
  return out;
}

unsigned OffsetWalk::add(ArrayRef<int64_t> tensorStrides, int64_t base) {
  assert(tensorStrides.size() == shape.size() && "one stride per dimension");
  strides.append(tensorStrides.begin(), tensorStrides.end());
  offsets.push_back(base);
  return offsets.size() - 1;
}

unsigned OffsetWalk::addBroadcast(ArrayRef<int64_t> tensorShape) {
  size_t shift = shape.size() - tensorShape.size();
  SmallVector<int64_t> s(shape.size(), 0);
  int64_t stride = 1;
  for (size_t d = tensorShape.size(); d-- > 0;) {
    if (tensorShape[d] != 1)
      s[d + shift] = stride;
    stride *= tensorShape[d];
  }
  return add(s);
}

int64_t mlir::relay::interp::ravel(ArrayRef<int64_t> index,
                                   ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  for (auto [i, s] : llvm::zip(index, strides))
    offset += i * s;
  return offset;
}

void mlir::relay::interp::copyElement(const Tensor &in, int64_t from,
                                      Tensor &out, int64_t to) {
  if (in.isFloat())
    out.setF(to, in.getF(from));
  else
    out.setI(to, in.getI(from));
}

int64_t mlir::relay::interp::broadcastOffset(ArrayRef<int64_t> outIndex,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  size_t shift = outIndex.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1)
      offset += outIndex[d + shift] * strides[d];
  return offset;
}

void mlir::relay::interp::registerKernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::StringMap<KernelFn> kernels;
    registerElementwiseKernels(kernels);
    registerTransformKernels(kernels);
    registerNNKernels(kernels);
    registerQnnKernels(kernels);
    registerDynamicKernels(kernels);
    registerDetectionKernels(kernels);
    for (auto &entry : kernels) {
      std::string name = ("relay." + entry.getKey()).str();
      KernelFn fn = entry.getValue();
      (void)updateOperator(name, [&](OperatorInfo &info) {
        info.columns[kInterpretColumn] = fn;
      });
    }
  });
}
