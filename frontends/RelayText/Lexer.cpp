//===- Lexer.cpp - Tokens of Relay's text format ----------------*- C++ -*-===//

#include "frontends/RelayText/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay::text;

StringRef mlir::relay::text::describe(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "the end of the input";
  case TokenKind::Error:
    return "an invalid token";
  case TokenKind::Identifier:
    return "an identifier";
  case TokenKind::Local:
    return "a local variable (%name)";
  case TokenKind::Global:
    return "a global name (@name)";
  case TokenKind::Integer:
    return "an integer";
  case TokenKind::Float:
    return "a float";
  case TokenKind::String:
    return "a string";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Semicolon:
    return "';'";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Dot:
    return "'.'";
  case TokenKind::Equal:
    return "'='";
  case TokenKind::FatArrow:
    return "'=>'";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::LessEqual:
    return "'<='";
  case TokenKind::GreaterEqual:
    return "'>='";
  case TokenKind::EqualEqual:
    return "'=='";
  case TokenKind::NotEqual:
    return "'!='";
  case TokenKind::Question:
    return "'?'";
  case TokenKind::Hash:
    return "'#'";
  }
  llvm_unreachable("unknown token kind");
}

Token Lexer::make(TokenKind kind, const char *start) {
  Token tok;
  tok.kind = kind;
  tok.text = StringRef(start, pos - start);
  tok.loc = llvm::SMLoc::getFromPointer(start);
  return tok;
}

Token Lexer::error(const char *start, const Twine &message) {
  Token tok = make(TokenKind::Error, start);
  tok.value = message.str();
  return tok;
}

std::optional<std::string> Lexer::skipTrivia() {
  const char *end = buffer.end();
  while (pos != end) {
    if (llvm::isSpace(*pos)) {
      ++pos;
    } else if (*pos == '/' && pos + 1 != end && pos[1] == '/') {
      while (pos != end && *pos != '\n')
        ++pos;
    } else if (*pos == '/' && pos + 1 != end && pos[1] == '*') {
      // Block comments nest, as in TVM's lexer.
      const char *start = pos;
      pos += 2;
      int depth = 1;
      while (pos != end && depth > 0) {
        if (*pos == '/' && pos + 1 != end && pos[1] == '*') {
          ++depth;
          pos += 2;
        } else if (*pos == '*' && pos + 1 != end && pos[1] == '/') {
          --depth;
          pos += 2;
        } else {
          ++pos;
        }
      }
      if (depth > 0) {
        pos = start;
        return std::string("unterminated /* comment");
      }
    } else {
      break;
    }
  }
  return std::nullopt;
}

static bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

Token Lexer::lexName(const char *start, TokenKind kind) {
  // Identifiers may be dotted (`nn.conv2d`, `relay.Constant`); a dot must
  // be followed by a letter, so `%t.0` stays a projection.
  const char *end = buffer.end();
  while (pos != end) {
    if (isNameChar(*pos)) {
      ++pos;
    } else if (kind == TokenKind::Identifier && *pos == '.' && pos + 1 != end &&
               (llvm::isAlpha(pos[1]) || pos[1] == '_')) {
      ++pos;
    } else {
      break;
    }
  }
  Token tok = make(kind, start);
  if (kind != TokenKind::Identifier) {
    tok.text = tok.text.drop_front();
    if (tok.text.empty())
      return error(start, "expected a name after '" + Twine(*start) + "'");
  }
  return tok;
}

Token Lexer::lexNumber(const char *start) {
  const char *end = buffer.end();
  bool isFloat = false;
  while (pos != end && llvm::isDigit(*pos))
    ++pos;
  if (pos != end && *pos == '.' && pos + 1 != end && llvm::isDigit(pos[1])) {
    isFloat = true;
    ++pos;
    while (pos != end && llvm::isDigit(*pos))
      ++pos;
  }
  if (pos != end && (*pos == 'e' || *pos == 'E')) {
    const char *p = pos + 1;
    if (p != end && (*p == '+' || *p == '-'))
      ++p;
    if (p != end && llvm::isDigit(*p)) {
      isFloat = true;
      pos = p;
      while (pos != end && llvm::isDigit(*pos))
        ++pos;
    }
  }
  StringRef digits(start, pos - start);
  const char *suffixStart = pos;
  if (pos != end && (*pos == 'i' || *pos == 'u' || *pos == 'f')) {
    char kind = *pos++;
    while (pos != end && llvm::isDigit(*pos))
      ++pos;
    if (kind == 'f')
      isFloat = true;
    else if (isFloat)
      return error(start, "a float literal cannot have an integer suffix");
  }
  if (pos != end && isNameChar(*pos))
    return error(start, "invalid number literal");
  Token tok = make(isFloat ? TokenKind::Float : TokenKind::Integer, start);
  tok.digits = digits;
  tok.suffix = StringRef(suffixStart, pos - suffixStart);
  return tok;
}

Token Lexer::lexString(const char *start) {
  const char *end = buffer.end();
  std::string value;
  while (pos != end && *pos != '"') {
    if (*pos == '\n')
      return error(start, "unterminated string");
    if (*pos == '\\' && pos + 1 != end) {
      ++pos;
      switch (*pos) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      default:
        value += *pos;
      }
      ++pos;
      continue;
    }
    value += *pos++;
  }
  if (pos == end)
    return error(start, "unterminated string");
  ++pos;
  Token tok = make(TokenKind::String, start);
  tok.value = std::move(value);
  return tok;
}

Token Lexer::next() {
  if (std::optional<std::string> err = skipTrivia())
    return error(pos, *err);
  const char *start = pos;
  if (pos == buffer.end())
    return make(TokenKind::Eof, start);
  char c = *pos++;
  auto two = [&](char second, TokenKind ifTwo, TokenKind ifOne) {
    if (pos != buffer.end() && *pos == second) {
      ++pos;
      return make(ifTwo, start);
    }
    return make(ifOne, start);
  };
  switch (c) {
  case '(':
    return make(TokenKind::LParen, start);
  case ')':
    return make(TokenKind::RParen, start);
  case '[':
    return make(TokenKind::LBracket, start);
  case ']':
    return make(TokenKind::RBracket, start);
  case '{':
    return make(TokenKind::LBrace, start);
  case '}':
    return make(TokenKind::RBrace, start);
  case ',':
    return make(TokenKind::Comma, start);
  case ';':
    return make(TokenKind::Semicolon, start);
  case ':':
    return make(TokenKind::Colon, start);
  case '.':
    return make(TokenKind::Dot, start);
  case '+':
    return make(TokenKind::Plus, start);
  case '*':
    return make(TokenKind::Star, start);
  case '/':
    return make(TokenKind::Slash, start);
  case '?':
    return make(TokenKind::Question, start);
  case '#':
    return make(TokenKind::Hash, start);
  case '-':
    return two('>', TokenKind::Arrow, TokenKind::Minus);
  case '<':
    return two('=', TokenKind::LessEqual, TokenKind::Less);
  case '>':
    return two('=', TokenKind::GreaterEqual, TokenKind::Greater);
  case '!':
    if (pos != buffer.end() && *pos == '=') {
      ++pos;
      return make(TokenKind::NotEqual, start);
    }
    return error(start, "unexpected character '!' (Relay text reads a "
                        "reference with ref_read(%r) and negates with "
                        "logical_not(%x))");
  case '^':
    // The paper's `%r^` is not Relay text.
    return error(start, "unexpected character '^' (Relay text reads a "
                        "reference with ref_read(%r))");
  case '=':
    if (pos != buffer.end() && *pos == '>') {
      ++pos;
      return make(TokenKind::FatArrow, start);
    }
    return two('=', TokenKind::EqualEqual, TokenKind::Equal);
  case '"':
    return lexString(start);
  case '%':
    return lexName(start, TokenKind::Local);
  case '@':
    return lexName(start, TokenKind::Global);
  default:
    break;
  }
  if (llvm::isDigit(c))
    return lexNumber(start);
  if (llvm::isAlpha(c) || c == '_')
    return lexName(start, TokenKind::Identifier);
  std::string shown = llvm::isPrint(c)
                          ? std::string(1, c)
                          : "\\x" + llvm::utohexstr(static_cast<uint8_t>(c));
  return error(start, "unexpected character '" + shown + "'");
}
