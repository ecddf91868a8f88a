//===- RelayToLinalg.h - Relay operators to linalg on tensors ---*- C++ -*-===//
//
// The conversion of Relay's tensor operators to linalg (generic for
// elementwise, broadcasting, reductions and products; named ops for
// convolutions and pooling), tensor, arith and math on tensors of static
// shape, as conversion patterns grouped by family. Products and
// convolutions ask a LoweringTarget for their kernels (LoweringTarget.h).
// An operator the user registers with a rule in the registry's lowering
// column is lowered by that rule (populateRelayRegistryLoweringPatterns).
//
// --relay-to-linalg converts a whole program: these patterns together with
// those of RelayToSCF (functions, calls, `if`, tuples) and RelayToRuntime
// (closures, ADTs, references) in one partial conversion.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTOLINALG_RELAYTOLINALG_H
#define RELAY_MLIR_CONVERSION_RELAYTOLINALG_RELAYTOLINALG_H

#include "conversion/RelayCommon/RelayTypeConverter.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {

/// relay.constant: arith.constant; zeros, ones, full and their *_like:
/// filled tensors.
void populateRelayConstantToArithPatterns(RelayTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Arithmetic, comparisons, logic, math functions, activations, bias_add,
/// where, cast, copy and broadcast_to: elementwise generics with numpy
/// broadcasting.
void populateRelayElementwiseToLinalgPatterns(RelayTypeConverter &converter,
                                              RewritePatternSet &patterns);

/// sum, mean, max, min, prod, all, any, argmax, argmin and the global
/// poolings: reductions.
void populateRelayReductionToLinalgPatterns(RelayTypeConverter &converter,
                                            RewritePatternSet &patterns);

/// dense, matmul, batch_matmul: contractions `target` builds.
void populateRelayProductToLinalgPatterns(RelayTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const LoweringTarget &target);

/// conv2d and conv2d_transpose: `target`'s kernels, else padding and
/// linalg's named convolutions.
void populateRelayConvolutionToLinalgPatterns(RelayTypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              const LoweringTarget &target);

/// max_pool2d, avg_pool2d, adaptive pooling.
void populateRelayPoolingToLinalgPatterns(RelayTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// reshape and friends, transpose, pad, split, concatenate, stack, take,
/// gather, strided_slice, layout_transform.
void populateRelayTransformToLinalgPatterns(RelayTypeConverter &converter,
                                            RewritePatternSet &patterns);

/// scatter_elements and scatter_nd: loops over the updates.
void populateRelayScatterToSCFPatterns(RelayTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// vision.non_max_suppression and vision.proposal: loops over each batch's
/// boxes.
void populateRelayVisionToSCFPatterns(RelayTypeConverter &converter,
                                      RewritePatternSet &patterns);

/// softmax, log_softmax, batch_norm, layer_norm, dropout, upsampling and
/// the nearest and linear resizes.
void populateRelayNNToLinalgPatterns(RelayTypeConverter &converter,
                                     RewritePatternSet &patterns);

/// Operators whose registry entry has a lowering rule (OperatorInfo::
/// lowering): users' own operators, or built-in ones a user overrides. Its
/// benefit is above the built-in patterns'.
void populateRelayRegistryLoweringPatterns(RelayTypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Every family above.
void populateRelayToLinalgConversionPatterns(RelayTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const LoweringTarget &target);

/// Registers the dialects the lowering produces and the external models
/// (bufferization, tiling, value bounds, the memory effects of pure
/// intrinsics) the code after it needs.
void registerLoweringDialects(DialectRegistry &registry);

/// Registers llvm.call_intrinsic's memory effects (IntrinsicEffects.cpp):
/// none for the arithmetic-only target intrinsics the CPU kernels call
/// (so that bufferization and buffer deallocation accept them among
/// tensors), a read and a write of unknown memory for any other.
void registerIntrinsicEffectsModel(DialectRegistry &registry);

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTOLINALG_RELAYTOLINALG_H
