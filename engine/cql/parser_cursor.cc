#include "engine/cql/parser_cursor.h"

#include <array>
#include <cctype>

#include "engine/cql/reserved_keywords.h"

namespace cassette::cql {

bool IsReserved(std::string_view word) { return IsReservedKeyword(word); }

bool IsNativeType(std::string_view word) {
  static constexpr std::array<std::string_view, 21> kTypes = {
      "ascii",  "bigint",    "blob",     "boolean", "counter", "date",     "decimal",
      "double", "duration",  "float",    "inet",    "int",     "smallint", "text",
      "time",   "timestamp", "timeuuid", "tinyint", "uuid",    "varchar",  "varint"};
  for (std::string_view t : kTypes) {
    if (t == word) return true;
  }
  return false;
}

bool IsCollectionTypeWord(std::string_view word) {
  return word == "list" || word == "set" || word == "map" || word == "frozen" || word == "tuple" ||
         word == "vector";
}

bool IsConstantWord(std::string_view word) {
  return word == "true" || word == "false" || word == "null" || word == "nan" || word == "infinity";
}

std::string FunctionName(std::string name) {
  constexpr std::string_view kSystem = "system.";
  if (name.compare(0, kSystem.size(), kSystem) == 0) name.erase(0, kSystem.size());
  return name;
}

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

bool TokenCursor::ExpectKeyword(std::string_view keyword) {
  if (AcceptKeyword(keyword)) return true;
  std::string name = "K_";
  for (char c : keyword) name.push_back(static_cast<char>(std::toupper(c)));
  return Mismatched(name);
}

bool TokenCursor::ExpectSymbol(std::string_view symbol) {
  if (AcceptSymbol(symbol)) return true;
  return Mismatched("'" + std::string(symbol) + "'");
}

std::string TokenCursor::Position(const Token& token) const {
  return "line " + std::to_string(token.line) + ":" + std::to_string(token.column);
}

std::string TokenCursor::Display(const Token& token) const {
  return "'" + std::string(token.text) + "'";
}

bool TokenCursor::Mismatched(const std::string& expected) {
  const Token& token = Peek();
  return Fail(Status::SyntaxError(Position(token) + " mismatched input " + Display(token) +
                                  " expecting " + expected));
}

bool TokenCursor::NoViableAt(const Token& token) {
  return Fail(
      Status::SyntaxError(Position(token) + " no viable alternative at input " + Display(token)));
}

bool TokenCursor::Name(std::string* out) {
  if (!IsName()) return NoViable();
  *out = Take().value;
  return true;
}

bool TokenCursor::QualifiedTableName(QualifiedName* out) {
  std::string first;
  if (!Name(&first)) return false;
  if (AcceptSymbol(".")) {
    out->keyspace = std::move(first);
    return Name(&out->name);
  }
  out->name = std::move(first);
  return true;
}

bool TokenCursor::NameList(std::vector<std::string>* out) {
  do {
    std::string name;
    if (!Name(&name)) return false;
    out->push_back(std::move(name));
  } while (AcceptSymbol(","));
  return true;
}

bool TokenCursor::OptionalIfNotExists(bool* out) {
  if (!AcceptKeyword("if")) return true;
  if (!ExpectKeyword("not") || !ExpectKeyword("exists")) return false;
  *out = true;
  return true;
}

bool TokenCursor::OptionalIfExists(bool* out) {
  if (!AcceptKeyword("if")) return true;
  if (!ExpectKeyword("exists")) return false;
  *out = true;
  return true;
}

std::string TokenCursor::SourceBetween(size_t first, size_t end) const {
  if (end <= first) return "";
  const size_t begin = tokens_[first].offset;
  const Token& last = tokens_[end - 1];
  return std::string(text_.substr(begin, last.offset + last.text.size() - begin));
}

std::string TokenCursor::StatementText() const {
  size_t end = position_;  // the kEnd token
  if (end > 0 && tokens_[end - 1].kind == TokenKind::kSymbol && tokens_[end - 1].value == ";") {
    --end;
  }
  return SourceBetween(0, end);
}

}  // namespace cassette::cql
