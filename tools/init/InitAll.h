//===- InitAll.h - Register everything relay-mlir provides ------*- C++ -*-===//
//
// One place that registers the relay dialects, passes and pipelines, so a
// tool (relay-mlir-opt) or an embedding compiler gets all of them with two
// calls.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TOOLS_INIT_INITALL_H
#define RELAY_MLIR_TOOLS_INIT_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::relay {

/// Registers the relay dialect and the upstream dialects Relay programs are
/// mixed with and lowered to.
void registerAllDialects(DialectRegistry &registry);

/// Registers relay's passes and pipelines and the upstream passes the
/// pipelines use, for command-line tools.
void registerAllPasses();

} // namespace mlir::relay

#endif // RELAY_MLIR_TOOLS_INIT_INITALL_H
