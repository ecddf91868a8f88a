//===- EinsumEquation.cpp - einsum's subscripts ---------------------------===//

#include "dialects/relay/EinsumEquation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cctype>
#include <map>

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Parses one term for an operand of rank `rank` (-1 for the result, whose
/// ellipsis takes `ellipsisRank` dimensions, the most any operand's took).
std::optional<SmallVector<EinsumLabel>> parseTerm(StringRef text, int64_t rank,
                                                  int64_t &ellipsisRank,
                                                  std::string &error) {
  size_t dots = text.find("...");
  StringRef before = text.substr(0, dots);
  StringRef after = dots == StringRef::npos ? "" : text.substr(dots + 3);
  for (StringRef part : {before, after})
    for (char c : part)
      if (!std::isalpha(static_cast<unsigned char>(c))) {
        error = ("malformed subscripts '" + text +
                 "' (expected letters and at most one '...')")
                    .str();
        return std::nullopt;
      }
  int64_t letters = before.size() + after.size();
  int64_t ellipsis = 0;
  if (dots != StringRef::npos) {
    ellipsis = rank < 0 ? ellipsisRank : rank - letters;
    if (ellipsis < 0) {
      error = ("subscripts '" + text + "' have " + Twine(letters) +
               " letters for an operand of rank " + Twine(rank))
                  .str();
      return std::nullopt;
    }
    if (rank >= 0)
      ellipsisRank = std::max(ellipsisRank, ellipsis);
  } else if (rank >= 0 && letters != rank) {
    error = ("subscripts '" + text + "' have " + Twine(letters) +
             " letters for an operand of rank " + Twine(rank))
                .str();
    return std::nullopt;
  }
  SmallVector<EinsumLabel> labels(before.begin(), before.end());
  for (int64_t i = ellipsis - 1; i >= 0; --i)
    labels.push_back(kEinsumEllipsis + i);
  labels.append(after.begin(), after.end());
  return labels;
}

} // namespace

std::string EinsumEquation::describe(EinsumLabel label) {
  return label >= kEinsumEllipsis ? "..." : std::string(1, char(label));
}

std::optional<EinsumEquation> EinsumEquation::parse(StringRef text,
                                                    ArrayRef<int64_t> ranks,
                                                    std::string &error) {
  std::string spaceless;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      spaceless.push_back(c);
  StringRef equation(spaceless);
  auto [lhs, rhs] = equation.split("->");
  bool explicitOutput = equation.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size()) {
    error = ("the equation '" + equation + "' has subscripts for " +
             Twine(terms.size()) + " operands, given " + Twine(ranks.size()))
                .str();
    return std::nullopt;
  }
  EinsumEquation eq;
  int64_t ellipsisRank = 0;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    std::optional<SmallVector<EinsumLabel>> labels =
        parseTerm(term, rank, ellipsisRank, error);
    if (!labels)
      return std::nullopt;
    eq.inputs.push_back(std::move(*labels));
  }
  if (explicitOutput) {
    if (ellipsisRank > 0 && !rhs.contains("...")) {
      error = ("the result's subscripts '" + rhs +
               "' have no '...' for the operands' ellipsis dimensions")
                  .str();
      return std::nullopt;
    }
    std::optional<SmallVector<EinsumLabel>> out =
        parseTerm(rhs, -1, ellipsisRank, error);
    if (!out)
      return std::nullopt;
    eq.output = std::move(*out);
  } else {
    // Implicit mode: the ellipsis, then the letters used once, sorted.
    std::map<EinsumLabel, int> uses;
    for (const auto &labels : eq.inputs)
      for (EinsumLabel l : labels)
        ++uses[l];
    for (int64_t i = ellipsisRank - 1; i >= 0; --i)
      eq.output.push_back(kEinsumEllipsis + i);
    for (auto [l, n] : uses)
      if (l < kEinsumEllipsis && n == 1)
        eq.output.push_back(l);
  }
  for (size_t i = 0; i < eq.output.size(); ++i) {
    EinsumLabel l = eq.output[i];
    if (l < kEinsumEllipsis &&
        llvm::is_contained(ArrayRef(eq.output).take_front(i), l)) {
      error = "the result's subscripts repeat '" + describe(l) + "'";
      return std::nullopt;
    }
    if (!llvm::any_of(eq.inputs, [&](const auto &labels) {
          return llvm::is_contained(labels, l);
        })) {
      error =
          "the result's subscript '" + describe(l) + "' is not an operand's";
      return std::nullopt;
    }
  }
  return eq;
}
