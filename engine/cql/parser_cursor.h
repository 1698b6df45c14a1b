// The token cursor every part of the CQL parser reads with (parser.cc and
// its statement-family files, parser_types.cc): peek/accept/expect over the
// lexer's tokens, the first error kept in ANTLR 3's message shapes as cqlsh
// prints them after "SyntaxException: ":
//   line 1:7 no viable alternative at input 'FORM'
//   line 1:9 mismatched input 'x' expecting K_FROM
// The position is the offending token's (line 1-based, column 0-based).
// Also the keyword and name helpers the grammar files share. Internal to
// engine/cql.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/lexer.h"

namespace cassette::cql {

// Cassandra's reserved keywords (DEFAULT included, as Cassandra 4 reserves it for INSERT JSON
// ... DEFAULT UNSET) are never a name unless quoted.
bool IsReserved(std::string_view word);

// Names of CQL's native types (a parenthesised one starts a type hint).
bool IsNativeType(std::string_view word);

bool IsCollectionTypeWord(std::string_view word);

// Words a term may start with: constants named by keywords.
bool IsConstantWord(std::string_view word);

// Strips the "system." of a native function's qualified name.
std::string FunctionName(std::string name);

std::string Join(const std::vector<std::string>& parts, std::string_view separator);

class TokenCursor {
 public:
  // `tokens` ends with the lexer's kEnd token.
  TokenCursor(std::string_view text, std::vector<Token> tokens)
      : text_(text), tokens_(std::move(tokens)) {}

 protected:
  // ---- tokens ----

  const Token& Peek(size_t ahead = 0) const {
    const size_t i = position_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Take() {
    const Token& token = Peek();
    if (position_ + 1 < tokens_.size()) ++position_;
    return token;
  }

  bool IsKeyword(std::string_view keyword, size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kIdentifier && SameText(token.value, keyword);
  }
  bool IsSymbol(std::string_view symbol, size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kSymbol && SameText(token.value, symbol);
  }
  // Keywords and symbols are a few characters: compared inline, these
  // checks (several per token) cost less than a call to memcmp.
  static bool SameText(const std::string& value, std::string_view expected) {
    if (value.size() != expected.size()) return false;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (value[i] != expected[i]) return false;
    }
    return true;
  }
  bool AcceptKeyword(std::string_view keyword) {
    if (!IsKeyword(keyword)) return false;
    Take();
    return true;
  }
  bool AcceptSymbol(std::string_view symbol) {
    if (!IsSymbol(symbol)) return false;
    Take();
    return true;
  }
  bool ExpectKeyword(std::string_view keyword);
  bool ExpectSymbol(std::string_view symbol);

  // ---- errors (the first one wins) ----

  std::string Position(const Token& token) const;
  std::string Display(const Token& token) const;

  bool Fail(Status status) {
    if (error_.ok()) error_ = std::move(status);
    return false;
  }
  bool Mismatched(const std::string& expected);
  bool NoViable() { return NoViableAt(Peek()); }
  bool NoViableAt(const Token& token);

  // ---- names ----

  bool IsName(size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kQuotedName ||
           (token.kind == TokenKind::kIdentifier && !IsReserved(token.value));
  }
  // A column, keyspace, table, type or property name.
  bool Name(std::string* out);
  // name or ks.name (a table or a user type).
  bool QualifiedTableName(QualifiedName* out);
  bool NameList(std::vector<std::string>* out);

  // IF NOT EXISTS / IF EXISTS, setting *out when present.
  bool OptionalIfNotExists(bool* out);
  bool OptionalIfExists(bool* out);

  // ---- source text ----

  // The source text of tokens [first, end).
  std::string SourceBetween(size_t first, size_t end) const;

  // The statement's text from its first token to its last one before the
  // optional ';' (comments around it left out).
  std::string StatementText() const;

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t position_ = 0;
  Status error_;
};

}  // namespace cassette::cql
