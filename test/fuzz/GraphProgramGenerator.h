//===- GraphProgramGenerator.h - Relay programs from bytes ------*- C++ -*-===//
//
// Builds a well-typed Relay program (Relay text) from a fuzzer's bytes,
// each decision read from them, so that libFuzzer's mutations of the bytes
// are mutations of the program. The programs are the dataflow graphs the
// optimisation passes rewrite: convolutions (grouped, depthwise, strided,
// padded, NHWC between transposes), parallel convolutions of one input,
// per-channel scales before and after them, bias_add, batch_norm, pooling,
// dense layers, softmax, reductions, elementwise operators with
// broadcasting, constants computed from constants, repeated expressions,
// dead bindings, tuples, `if` on a boolean parameter and closures.
//
// Every value is a float32 tensor, and every operand small (at most
// 2x8x9x9 elements; a larger result is pooled or summed). No result
// depends discontinuously on rounding: max, relu and clip are continuous,
// and there are no comparisons deciding a branch or a selection, no casts
// to integers and no divisions, so a program optimised by any pass must
// compute the same values to rounding.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TEST_FUZZ_GRAPHPROGRAMGENERATOR_H
#define RELAY_MLIR_TEST_FUZZ_GRAPHPROGRAMGENERATOR_H

#include <cstdint>
#include <string>
#include <vector>

class FuzzedDataProvider;

namespace relay_fuzz {

/// A parameter of the generated @main: a float32 tensor of `shape`, or the
/// boolean scalar `isFlag`.
struct Parameter {
  std::vector<int64_t> shape;
  bool isFlag = false;
};

/// A generated program: Relay text defining @main over `parameters`.
struct GraphProgram {
  std::string text;
  std::vector<Parameter> parameters;
};

/// The program `data` describes (every input describes one).
GraphProgram generateGraphProgram(FuzzedDataProvider &data);

} // namespace relay_fuzz

#endif // RELAY_MLIR_TEST_FUZZ_GRAPHPROGRAMGENERATOR_H
