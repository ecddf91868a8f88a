//===- MatchExhaustion.h - Cases a relay.match leaves unhandled -*- C++ -*-===//
//
// TVM's `relay.analysis.unmatched_cases`: the patterns of the values that
// no case of a match handles, which type inference reports for a complete
// `match` (not `match?`, which may fail at run time by design).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_MATCHEXHAUSTION_H
#define RELAY_MLIR_DIALECTS_RELAY_MATCHEXHAUSTION_H

#include "dialects/relay/RelayOps.h"

#include <string>

namespace mlir::relay {

/// Patterns (PatternWildcardAttr, PatternCtorAttr, PatternTupleAttr) that
/// together cover every value `match`'s cases do not: empty when the match
/// is exhaustive. Found by refining a wildcard against each case in turn,
/// expanding a wildcard into every constructor of its ADT only where a case
/// is more specific there, so the search ends. At most `limit` are given.
SmallVector<Attribute> getUnmatchedCases(MatchOp match,
                                         SymbolTableCollection &symbols,
                                         size_t limit = 16);

/// A pattern in Relay's text syntax: `Cons(_, Nil)`, `(_, Some(_))`.
std::string formatPattern(Attribute pattern);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_MATCHEXHAUSTION_H
