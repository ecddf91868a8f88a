//===- IntrinsicEffects.cpp - Memory effects of target intrinsics ---------===//
//
// The CPU kernels call target instructions that MLIR's dialects have no op
// for (AVX-512 VNNI's vpdpbusd, AVX-512 BF16's vdpbf16ps) through
// llvm.call_intrinsic, among tensors before bufferization. That op declares no
// memory effects, so One-Shot Bufferize and buffer deallocation would reject it
// as possibly touching any buffer. This external model states its effects: none
// for the arithmetic-only intrinsics named here (LLVM marks them IntrNoMem), a
// read and a write of unknown memory for every other.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace {

/// Intrinsics that only compute on their operands.
bool isArithmeticOnly(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"llvm.x86.avx512.vpdpbusd.512", "llvm.x86.avx512.vpdpbusd.256",
              "llvm.x86.avx512.vpdpbusd.128", "llvm.x86.avx512.vpdpbusds.512",
              "llvm.x86.avx512.vpdpwssd.512",
              "llvm.x86.avx512bf16.dpbf16ps.512"},
             true)
      .Default(false);
}

struct CallIntrinsicEffects
    : MemoryEffectOpInterface::ExternalModel<CallIntrinsicEffects,
                                             LLVM::CallIntrinsicOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<MemoryEffects::EffectInstance> &effects) const {
    if (isArithmeticOnly(cast<LLVM::CallIntrinsicOp>(op).getIntrin()))
      return;
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

} // namespace

void mlir::relay::registerIntrinsicEffectsModel(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, LLVM::LLVMDialect *) {
    LLVM::CallIntrinsicOp::attachInterface<CallIntrinsicEffects>(*ctx);
  });
}
