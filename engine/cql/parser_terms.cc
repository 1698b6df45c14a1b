// Terms (Parser.g term, value, function): constants, collection, tuple and
// user type literals, bind markers, type hints, casts, function calls and
// arithmetic over terms.
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/parser_impl.h"

namespace cassette::cql {

// LIMIT, TTL, TIMESTAMP: an integer (possibly negative) or a bind marker.
bool Parser::IntValue(Term* out) {
  if (IsSymbol("?") || IsSymbol(":")) return BindMarker(out);
  std::string sign;
  if (IsSymbol("-") && Peek(1).kind == TokenKind::kInteger) {
    Take();
    sign = "-";
  }
  if (Peek().kind != TokenKind::kInteger) return NoViable();
  out->kind = Term::Kind::kConstant;
  out->literal = Term::Literal::kInteger;
  out->text = sign + std::string(Take().text);
  return true;
}

bool Parser::BindMarker(Term* out) {
  out->kind = Term::Kind::kBindMarker;
  if (AcceptSymbol("?")) {
    out->bind_index = static_cast<int>(bind_names_.size());
    bind_names_.emplace_back();
    return true;
  }
  if (!ExpectSymbol(":")) return false;
  const Token& token = Peek();
  if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kQuotedName) {
    return NoViable();
  }
  out->bind_name = Take().value;
  out->bind_index = static_cast<int>(bind_names_.size());
  bind_names_.push_back(out->bind_name);
  return true;
}

// Whether the current token can begin a term (so `+` / `-` after a term
// is arithmetic, not the `c = value + c` of an UPDATE).
bool Parser::StartsTerm(size_t ahead) const {
  const Token& token = Peek(ahead);
  switch (token.kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kUuid:
    case TokenKind::kHex:
    case TokenKind::kDuration:
      return true;
    case TokenKind::kIdentifier:
      return IsConstantWord(token.value) || IsSymbol("(", ahead + 1) ||
             (IsSymbol(".", ahead + 1) && IsSymbol("(", ahead + 3));
    case TokenKind::kQuotedName:
      return IsSymbol("(", ahead + 1);
    case TokenKind::kSymbol:
      return token.value == "?" || token.value == ":" || token.value == "[" || token.value == "{" ||
             token.value == "(" || token.value == "-";
    case TokenKind::kEnd:
      return false;
  }
  return false;
}

// term: additive arithmetic over unary terms, as Cassandra 4's grammar.
bool Parser::ParseTerm(Term* out) {
  DepthGuard guard(this);
  if (guard.TooDeep()) return NoViable();
  if (!MultiplicativeTerm(out)) return false;
  while ((IsSymbol("+") || IsSymbol("-")) && StartsTerm(1)) {
    std::string op = Take().value;
    Term right;
    if (!MultiplicativeTerm(&right)) return false;
    *out = Operation(std::move(op), std::move(*out), std::move(right));
  }
  return true;
}

bool Parser::MultiplicativeTerm(Term* out) {
  if (!UnaryTerm(out)) return false;
  while ((IsSymbol("*") || IsSymbol("/") || IsSymbol("%")) && StartsTerm(1)) {
    std::string op = Take().value;
    Term right;
    if (!UnaryTerm(&right)) return false;
    *out = Operation(std::move(op), std::move(*out), std::move(right));
  }
  return true;
}

Term Parser::Operation(std::string op, Term left, Term right) {
  Term term;
  term.kind = Term::Kind::kArithmetic;
  term.text = std::move(op);
  term.elements.push_back(std::move(left));
  term.elements.push_back(std::move(right));
  return term;
}

bool Parser::UnaryTerm(Term* out) {
  DepthGuard guard(this);
  if (guard.TooDeep()) return NoViable();
  if (!IsSymbol("-")) return PrimaryTerm(out);
  Take();
  const Token& next = Peek();
  const bool negative_number =
      next.kind == TokenKind::kInteger || next.kind == TokenKind::kFloat ||
      next.kind == TokenKind::kDuration ||
      (next.kind == TokenKind::kIdentifier && (next.value == "infinity" || next.value == "nan"));
  if (negative_number) {
    if (!PrimaryTerm(out)) return false;
    out->text.insert(0, "-");
    return true;
  }
  Term operand;
  if (!UnaryTerm(&operand)) return false;
  out->kind = Term::Kind::kNegate;
  out->elements.push_back(std::move(operand));
  return true;
}

void Parser::Constant(Term::Literal literal, std::string text, Term* out) {
  out->kind = Term::Kind::kConstant;
  out->literal = literal;
  out->text = std::move(text);
}

bool Parser::PrimaryTerm(Term* out) {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kString:
      Constant(Term::Literal::kString, Take().value, out);
      return true;
    case TokenKind::kInteger:
      Constant(Term::Literal::kInteger, Take().value, out);
      return true;
    case TokenKind::kFloat:
      Constant(Term::Literal::kFloat, Take().value, out);
      return true;
    case TokenKind::kUuid:
      Constant(Term::Literal::kUuid, Take().value, out);
      return true;
    case TokenKind::kHex:
      Constant(Term::Literal::kHex, Take().value, out);
      return true;
    case TokenKind::kDuration:
      Constant(Term::Literal::kDuration, Take().value, out);
      return true;
    case TokenKind::kIdentifier:
      if (token.value == "true" || token.value == "false") {
        Constant(Term::Literal::kBoolean, Take().value, out);
        return true;
      }
      if (token.value == "nan" || token.value == "infinity") {
        Constant(Term::Literal::kFloat, std::string(Take().text), out);
        return true;
      }
      if (token.value == "null") {
        Take();
        out->kind = Term::Kind::kNull;
        return true;
      }
      if (token.value == "cast" && IsSymbol("(", 1)) return CastTerm(out);
      return FunctionTerm(out);
    case TokenKind::kQuotedName:
      return FunctionTerm(out);
    case TokenKind::kSymbol:
      if (token.value == "?" || token.value == ":") return BindMarker(out);
      if (token.value == "[") return ListLiteral(out);
      if (token.value == "{") return BraceLiteral(out);
      if (token.value == "(") return ParenthesisedTerm(out);
      return NoViable();
    case TokenKind::kEnd:
      return NoViable();
  }
  return NoViable();
}

// name(args) or ks.name(args).
bool Parser::FunctionTerm(Term* out) {
  std::string name;
  if (!FunctionNameAt(&name)) return false;
  out->kind = Term::Kind::kFunction;
  out->text = std::move(name);
  if (!ExpectSymbol("(")) return false;
  if (AcceptSymbol(")")) return true;
  do {
    Term argument;
    if (!ParseTerm(&argument)) return false;
    out->elements.push_back(std::move(argument));
  } while (AcceptSymbol(","));
  return ExpectSymbol(")");
}

// A function's name, when the tokens are name '(' or ks '.' name '('.
bool Parser::FunctionNameAt(std::string* out) {
  auto is_function_word = [&](size_t ahead) {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kQuotedName || token.kind == TokenKind::kIdentifier;
  };
  if (is_function_word(0) && IsSymbol("(", 1)) {
    *out = FunctionName(Take().value);
    return true;
  }
  if (is_function_word(0) && IsSymbol(".", 1) && is_function_word(2) && IsSymbol("(", 3)) {
    std::string keyspace = Take().value;
    Take();
    *out = FunctionName(keyspace + "." + Take().value);
    return true;
  }
  return NoViable();
}

bool Parser::CastTerm(Term* out) {
  Take();  // CAST
  Take();  // (
  Term operand;
  if (!ParseTerm(&operand) || !ExpectKeyword("as") || !Type(&out->text)) return false;
  out->kind = Term::Kind::kCast;
  out->elements.push_back(std::move(operand));
  return ExpectSymbol(")");
}

bool Parser::ListLiteral(Term* out) {
  Take();  // [
  out->kind = Term::Kind::kList;
  if (AcceptSymbol("]")) return true;
  do {
    Term element;
    if (!ParseTerm(&element)) return false;
    out->elements.push_back(std::move(element));
  } while (AcceptSymbol(","));
  return ExpectSymbol("]");
}

// {} / {a, b} / {k: v, ...}
bool Parser::BraceLiteral(Term* out) {
  Take();  // {
  if (AcceptSymbol("}")) {
    out->kind = Term::Kind::kEmptyBraces;
    return true;
  }
  if (IsName() && IsSymbol(":", 1) && !IsConstantWord(Peek().value)) {
    return UserTypeLiteral(out);
  }
  Term first;
  if (!ParseTerm(&first)) return false;
  const bool is_map = IsSymbol(":");
  out->kind = is_map ? Term::Kind::kMap : Term::Kind::kSet;
  out->elements.push_back(std::move(first));
  if (is_map) {
    Take();
    Term value;
    if (!ParseTerm(&value)) return false;
    out->elements.push_back(std::move(value));
  }
  while (AcceptSymbol(",")) {
    Term element;
    if (!ParseTerm(&element)) return false;
    out->elements.push_back(std::move(element));
    if (is_map) {
      Term value;
      if (!ExpectSymbol(":") || !ParseTerm(&value)) return false;
      out->elements.push_back(std::move(value));
    }
  }
  return ExpectSymbol("}");
}

// {field: value, ...} after the '{' (a user type's value).
bool Parser::UserTypeLiteral(Term* out) {
  out->kind = Term::Kind::kUserType;
  do {
    std::string field;
    Term value;
    if (!Name(&field) || !ExpectSymbol(":") || !ParseTerm(&value)) return false;
    out->field_names.push_back(std::move(field));
    out->elements.push_back(std::move(value));
  } while (AcceptSymbol(","));
  return ExpectSymbol("}");
}

// Whether '(' starts a type hint: `(int) ?`, `(list<text>) [...]`.
bool Parser::IsTypeHint() const {
  const Token& word = Peek(1);
  if (word.kind == TokenKind::kQuotedName) return IsSymbol(")", 2) && StartsTerm(3);
  if (word.kind != TokenKind::kIdentifier || IsConstantWord(word.value)) return false;
  if (IsCollectionTypeWord(word.value)) return IsSymbol("<", 2);
  return IsSymbol(")", 2) && (IsNativeType(word.value) || StartsTerm(3));
}

bool Parser::ParenthesisedTerm(Term* out) {
  if (IsTypeHint()) {
    Take();  // (
    if (!Type(&out->text) || !ExpectSymbol(")")) return false;
    Term operand;
    if (!UnaryTerm(&operand)) return false;
    out->kind = Term::Kind::kTypeHint;
    out->elements.push_back(std::move(operand));
    return true;
  }
  return TupleLiteral(out);
}

bool Parser::TupleLiteral(Term* out) {
  if (!ExpectSymbol("(")) return false;
  out->kind = Term::Kind::kTuple;
  do {
    Term element;
    if (!ParseTerm(&element)) return false;
    out->elements.push_back(std::move(element));
  } while (AcceptSymbol(","));
  if (!ExpectSymbol(")")) return false;
  // `(1 + 1)` is a parenthesised operation (Parser.g termGroup), not a
  // one-component tuple (OperationFctsTest.testOperationsOnLiterals).
  const Term::Kind only = out->elements.front().kind;
  if (out->elements.size() == 1 &&
      (only == Term::Kind::kArithmetic || only == Term::Kind::kNegate)) {
    Term operation = std::move(out->elements.front());
    *out = std::move(operation);
  }
  return true;
}

}  // namespace cassette::cql
