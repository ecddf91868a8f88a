//===- Passes.h - Relay passes ----------------------------------*- C++ -*-===//
//
// Declarations and registration of every relay-mlir pass (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_PASSES_H
#define RELAY_MLIR_TRANSFORMS_PASSES_H

#include "dialects/relay/RelayDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::relay {

/// Marks an scf.for whose iterations touch disjoint data (the row bands of
/// a large convolution): --relay-parallelize-loops may run them in
/// parallel.
constexpr llvm::StringLiteral kIndependentIterationsAttr =
    "relay.independent_iterations";

/// Marks an scf.for of independent iterations (one of kIndependentIterations
/// too) whose result is written only by vector.transfer_writes of 1-d
/// vectors along its innermost dimension, into the blocks each iteration
/// inserts (the row kernels of depthwise convolutions):
/// --relay-fuse-elementwise applies an elementwise op that reads the
/// result to each vector before it is written.
constexpr llvm::StringLiteral kRowKernelAttr = "relay.row_kernel";

/// Marks an scf.for of independent iterations whose body starts with the
/// extract_slice of the window of an image it reads (the row bands of a
/// depthwise convolution of a large image): --relay-fuse-elementwise moves
/// the ops that make the image into the loop, each iteration computing its
/// window (with the rows windows share computed twice).
constexpr llvm::StringLiteral kImageWindowsAttr = "relay.image_windows";

/// Marks the functions --relay-outline-loops makes: they call nothing of the
/// program's, so they can be compiled apart from it.
constexpr llvm::StringLiteral kLoopNestAttr = "relay.loop_nest";

#define GEN_PASS_DECL
#include "transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "transforms/Passes.h.inc"

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_PASSES_H
