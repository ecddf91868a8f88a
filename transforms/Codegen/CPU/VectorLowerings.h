//===- VectorLowerings.h - x86-shaped vector op lowerings -------*- C++ -*-===//
//
// Lowerings of vector ops that --relay-tile-and-vectorize's kernels make,
// where upstream's generic lowering leaves code that x86 runs slowly (or
// that LLVM's backend cannot take): strided reads, row reductions of a
// square block, 8x8 transpositions.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_VECTORLOWERINGS_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_VECTORLOWERINGS_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay::cpu {

/// Vector reads along a strided innermost dimension as one read of the
/// span and a shuffle (small strides) or one load per element.
void populateStridedReadPatterns(RewritePatternSet &patterns);

/// The row sums (or other reductions) of a square vector<16x16> or
/// vector<8x8> block as a tree of two-source shuffles.
void populateRowReductionTreePatterns(RewritePatternSet &patterns,
                                      PatternBenefit benefit);

/// 8x8 transpositions of 32-bit elements as AVX2's 24-shuffle idiom.
void populateTranspose8x8Patterns(RewritePatternSet &patterns,
                                  PatternBenefit benefit);

/// A 0-d read (one element of a buffer, read to be broadcast) as a load;
/// other reads stay.
void readElementAsLoad(RewriterBase &rewriter, vector::TransferReadOp read);

/// The lhs of an outer-product contraction (the operand whose elements are
/// broadcast) read as a vector whose length is not a power of two (7 rows
/// of a register tile) as one scalar load per element: LLVM splits a
/// <7 x float> load into 16-, 8- and 4-byte pieces and broadcasts the
/// middle ones by shuffles, which take the FMAs' port 5; from scalar loads
/// each broadcast reads memory (vbroadcastss). Other contractions stay.
void readBroadcastOperandAsLoads(RewriterBase &rewriter,
                                 vector::ContractionOp contract);

} // namespace mlir::relay::cpu

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_VECTORLOWERINGS_H
