//===- Lexer.h - Tokens of Relay's text format ------------------*- C++ -*-===//
//
// Splits Relay text (TVM's format, version 0.0.5) into tokens: identifiers
// (dotted, as in `nn.conv2d`), `%local` and `@global` names, numbers with
// their dtype suffix (`5i8`, `1.5e-3f`, `2f16`), strings, and punctuation.
// `//` and `/* */` comments are skipped.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_RELAYTEXT_LEXER_H
#define RELAY_MLIR_FRONTENDS_RELAYTEXT_LEXER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace mlir::relay::text {

enum class TokenKind {
  Eof,
  Error,
  Identifier, // foo, nn.conv2d, Cons, int32, True, _
  Local,      // %x, %0
  Global,     // @f
  Integer,    // 1, 5i8, 3u8 (no sign: the parser folds a leading minus)
  Float,      // 1f, 1.5e-3f, 2f16, 1.0
  String,     // "NCHW"
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semicolon,
  Colon,
  Dot,
  Equal,    // =
  FatArrow, // =>
  Arrow,    // ->
  Plus,
  Minus,
  Star,
  Slash,
  Less,
  Greater,
  LessEqual,
  GreaterEqual,
  EqualEqual,
  NotEqual,
  Question, // ?
  Hash,     // #
};

/// A description of the kind for diagnostics: "'('", "an identifier".
StringRef describe(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::Eof;
  /// The token's text in the buffer (for Local/Global without the sigil).
  StringRef text;
  /// Where the token starts.
  llvm::SMLoc loc;
  /// Numbers: the digits (no suffix) and the suffix (`i8`, `f`, `f16`, or
  /// empty).
  StringRef digits, suffix;
  /// Strings: the value with escapes resolved.
  std::string value;

  bool is(TokenKind k) const { return kind == k; }
  bool isKeyword(StringRef word) const {
    return kind == TokenKind::Identifier && text == word;
  }
};

class Lexer {
public:
  explicit Lexer(StringRef buffer) : buffer(buffer), pos(buffer.begin()) {}

  /// The next token; an Error token carries its message in `value`.
  Token next();

private:
  Token make(TokenKind kind, const char *start);
  Token error(const char *start, const Twine &message);
  Token lexNumber(const char *start);
  Token lexString(const char *start);
  Token lexName(const char *start, TokenKind kind);
  /// Skips whitespace and comments; returns an error message for an
  /// unterminated block comment.
  std::optional<std::string> skipTrivia();

  StringRef buffer;
  const char *pos;
};

} // namespace mlir::relay::text

#endif // RELAY_MLIR_FRONTENDS_RELAYTEXT_LEXER_H
