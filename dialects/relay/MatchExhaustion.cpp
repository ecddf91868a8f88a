//===- MatchExhaustion.cpp - Cases a relay.match leaves unhandled ---------===//
//
// Candidates start as one wildcard. Each is checked against the cases in
// order: a case that clashes with it (another constructor somewhere) is
// skipped; a case that matches all of it covers it; a case more specific
// than it (a constructor or tuple where it has a wildcard) splits it, each
// such wildcard expanded into every constructor of its ADT (or a tuple of
// wildcards), and the pieces are checked again from the first case. A
// candidate no case matches or splits is unhandled. Expansion happens only
// where a case's pattern is deeper than the candidate, so it ends.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/MatchExhaustion.h"

#include "llvm/Support/raw_ostream.h"

#include <deque>

using namespace mlir;
using namespace mlir::relay;

namespace {

enum class Check { Match, Clash, Unspecified };

bool isWildcard(Attribute pattern) {
  return isa<PatternWildcardAttr, PatternVarAttr>(pattern);
}

ArrayRef<Attribute> fieldsOf(Attribute pattern) {
  if (auto ctor = dyn_cast<PatternCtorAttr>(pattern))
    return ctor.getFields();
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern))
    return tuple.getFields();
  return {};
}

/// Whether the case pattern `pattern` matches every value of `candidate`,
/// none of them, or only some (the candidate is less specific).
Check check(Attribute pattern, Attribute candidate) {
  if (isWildcard(pattern))
    return Check::Match;
  if (isWildcard(candidate))
    return Check::Unspecified;
  auto ctor = dyn_cast<PatternCtorAttr>(pattern);
  auto candidateCtor = dyn_cast<PatternCtorAttr>(candidate);
  if (ctor && (!candidateCtor ||
               ctor.getConstructor() != candidateCtor.getConstructor()))
    return Check::Clash;
  if (!ctor && !isa<PatternTupleAttr>(candidate))
    return Check::Clash;
  ArrayRef<Attribute> fields = fieldsOf(pattern), sub = fieldsOf(candidate);
  if (fields.size() != sub.size())
    return Check::Clash;
  bool unspecified = false;
  for (auto [p, c] : llvm::zip(fields, sub)) {
    Check result = check(p, c);
    if (result == Check::Clash)
      return Check::Clash;
    unspecified |= result == Check::Unspecified;
  }
  return unspecified ? Check::Unspecified : Check::Match;
}

struct Expander {
  MatchOp match;
  SymbolTableCollection &symbols;
  MLIRContext *ctx;

  /// `candidate` with the wildcards where `pattern` is more specific
  /// replaced by every constructor (or a tuple) they may hold.
  SmallVector<Attribute> expand(Attribute pattern, Attribute candidate) {
    if (isWildcard(candidate)) {
      if (auto ctor = dyn_cast<PatternCtorAttr>(pattern))
        return allConstructors(ctor.getConstructor());
      if (auto tuple = dyn_cast<PatternTupleAttr>(pattern))
        return {PatternTupleAttr::get(
            ctx, SmallVector<Attribute>(tuple.getFields().size(),
                                        PatternWildcardAttr::get(ctx)))};
      return {candidate};
    }
    auto ctor = dyn_cast<PatternCtorAttr>(pattern);
    auto candidateCtor = dyn_cast<PatternCtorAttr>(candidate);
    bool sameCtor = ctor && candidateCtor &&
                    ctor.getConstructor() == candidateCtor.getConstructor();
    bool bothTuples =
        isa<PatternTupleAttr>(pattern) && isa<PatternTupleAttr>(candidate);
    ArrayRef<Attribute> fields = fieldsOf(pattern), sub = fieldsOf(candidate);
    if ((!sameCtor && !bothTuples) || fields.size() != sub.size())
      return {candidate};
    // The cartesian product of the fields' expansions.
    SmallVector<SmallVector<Attribute>> products(1);
    for (auto [p, c] : llvm::zip(fields, sub)) {
      SmallVector<Attribute> options = expand(p, c);
      SmallVector<SmallVector<Attribute>> next;
      for (const SmallVector<Attribute> &prefix : products)
        for (Attribute option : options) {
          next.push_back(prefix);
          next.back().push_back(option);
        }
      products = std::move(next);
    }
    SmallVector<Attribute> result;
    for (const SmallVector<Attribute> &combo : products)
      result.push_back(sameCtor
                           ? Attribute(PatternCtorAttr::get(
                                 ctx, candidateCtor.getConstructor(), combo))
                           : Attribute(PatternTupleAttr::get(ctx, combo)));
    return result;
  }

  /// `C(_, ..., _)` for every constructor C of the ADT declaring `name`.
  SmallVector<Attribute> allConstructors(SymbolRefAttr name) {
    auto ctor =
        dyn_cast_or_null<CtorOp>(symbols.lookupNearestSymbolFrom(match, name));
    if (!ctor)
      return {PatternWildcardAttr::get(ctx)};
    SmallVector<Attribute> result;
    for (CtorOp each : ctor.getDataOp().getConstructors())
      result.push_back(PatternCtorAttr::get(
          ctx, each.getQualifiedName(),
          SmallVector<Attribute>(each.getFieldTypes().size(),
                                 PatternWildcardAttr::get(ctx))));
    return result;
  }
};

} // namespace

SmallVector<Attribute>
mlir::relay::getUnmatchedCases(MatchOp match, SymbolTableCollection &symbols,
                               size_t limit) {
  MLIRContext *ctx = match.getContext();
  Expander expander{match, symbols, ctx};
  SmallVector<Attribute> unmatched;
  std::deque<Attribute> candidates{PatternWildcardAttr::get(ctx)};
  // Nested constructors multiply the candidates: past this many the
  // answer is not worth its time, and nothing is reported.
  constexpr size_t kMaxCandidates = 100000;
  size_t seen = 0;
  while (!candidates.empty() && unmatched.size() < limit) {
    if (++seen > kMaxCandidates)
      return {};
    Attribute candidate = candidates.front();
    candidates.pop_front();
    bool handled = false;
    for (Attribute pattern : match.getPatterns()) {
      Check result = check(pattern, candidate);
      if (result == Check::Clash)
        continue;
      handled = true;
      if (result == Check::Unspecified)
        for (Attribute piece : expander.expand(pattern, candidate))
          candidates.push_back(piece);
      break;
    }
    if (!handled)
      unmatched.push_back(candidate);
  }
  return unmatched;
}

std::string mlir::relay::formatPattern(Attribute pattern) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto fields = [&](ArrayRef<Attribute> sub, bool tuple) {
    os << '(';
    llvm::interleaveComma(sub, os,
                          [&](Attribute f) { os << formatPattern(f); });
    if (tuple && sub.size() == 1)
      os << ',';
    os << ')';
  };
  if (auto ctor = dyn_cast<PatternCtorAttr>(pattern)) {
    os << ctor.getConstructor().getLeafReference().getValue();
    if (!ctor.getFields().empty())
      fields(ctor.getFields(), /*tuple=*/false);
  } else if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    fields(tuple.getFields(), /*tuple=*/true);
  } else {
    os << '_';
  }
  return text;
}
