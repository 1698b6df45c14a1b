// The grammar of user-defined type statements (Cassandra 5.0's Parser.g:
// createTypeStatement, alterTypeStatement, dropTypeStatement, and
// DESCRIBE TYPE / TYPES), over the lexer's tokens. parser.cc hands these
// statements here; errors have the main parser's shape.
#include "engine/cql/parser_types.h"

#include <cctype>
#include <string>
#include <utility>

#include "engine/cql/reserved_keywords.h"

namespace cassette::cql {
namespace {

class TypeStatementParser {
 public:
  TypeStatementParser(std::string_view text, const std::vector<Token>& tokens)
      : text_(text), tokens_(tokens) {}

  Result<ParsedStatement> Run() {
    ParsedStatement parsed;
    if (!AnyStatement(&parsed.statement)) return error_;
    AcceptSymbol(";");
    if (Peek().kind != TokenKind::kEnd) {
      Mismatched("EOF");
      return error_;
    }
    size_t end = position_;
    if (end > 0 && tokens_[end - 1].kind == TokenKind::kSymbol && tokens_[end - 1].value == ";") {
      --end;
    }
    if (end > 0) {
      const Token& last = tokens_[end - 1];
      parsed.text = std::string(text_.substr(0, last.offset + last.text.size()));
      parsed.text.erase(0, tokens_[0].offset);
    }
    return parsed;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    const size_t i = position_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Take() {
    const Token& token = Peek();
    if (position_ + 1 < tokens_.size()) ++position_;
    return token;
  }
  bool IsKeyword(std::string_view word, size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kIdentifier && Peek(ahead).value == word;
  }
  bool IsSymbol(std::string_view symbol, size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kSymbol && Peek(ahead).value == symbol;
  }
  bool AcceptKeyword(std::string_view word) {
    if (!IsKeyword(word)) return false;
    Take();
    return true;
  }
  bool AcceptSymbol(std::string_view symbol) {
    if (!IsSymbol(symbol)) return false;
    Take();
    return true;
  }
  bool ExpectKeyword(std::string_view word) {
    if (AcceptKeyword(word)) return true;
    std::string name = "K_";
    for (char c : word) name.push_back(static_cast<char>(std::toupper(c)));
    return Mismatched(name);
  }
  bool ExpectSymbol(std::string_view symbol) {
    if (AcceptSymbol(symbol)) return true;
    return Mismatched("'" + std::string(symbol) + "'");
  }

  bool Fail(Status status) {
    if (error_.ok()) error_ = std::move(status);
    return false;
  }
  std::string Position(const Token& token) const {
    return "line " + std::to_string(token.line) + ":" + std::to_string(token.column);
  }
  bool Mismatched(const std::string& expected) {
    const Token& token = Peek();
    return Fail(Status::SyntaxError(Position(token) + " mismatched input '" +
                                    std::string(token.text) + "' expecting " + expected));
  }
  bool NoViable() {
    const Token& token = Peek();
    return Fail(Status::SyntaxError(Position(token) + " no viable alternative at input '" +
                                    std::string(token.text) + "'"));
  }

  bool IsName(size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kQuotedName ||
           (token.kind == TokenKind::kIdentifier && !IsReservedKeyword(token.value));
  }
  bool Name(std::string* out) {
    if (!IsName()) return NoViable();
    *out = Take().value;
    return true;
  }
  bool QualifiedTypeName(QualifiedName* out) {
    std::string first;
    if (!Name(&first)) return false;
    if (AcceptSymbol(".")) {
      out->keyspace = std::move(first);
      return Name(&out->name);
    }
    out->name = std::move(first);
    return true;
  }

  // A field's type as DataType::Parse reads it: names lower-cased (quoted
  // ones kept), ", " between parameters, ks.name for qualified user types.
  bool Type(std::string* out) {
    int depth = 0;
    const size_t start = position_;
    while (true) {
      const Token& token = Peek();
      if (token.kind == TokenKind::kEnd) break;
      if (token.kind == TokenKind::kSymbol) {
        const std::string& s = token.value;
        if (depth == 0 && (s == "," || s == ")" || s == ";")) break;
        if (s == "<") {
          ++depth;
        } else if (s == ">") {
          if (--depth < 0) return NoViable();
        } else if (s != "," && s != ".") {
          return NoViable();
        }
        *out += s == "," ? ", " : s;
        Take();
        continue;
      }
      if (token.kind == TokenKind::kInteger) {  // vector<float, 3>
        *out += Take().value;
        continue;
      }
      if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kQuotedName) {
        return NoViable();
      }
      if (depth == 0 && position_ > start && !PreviousIsDot()) break;
      *out += Take().value;
    }
    if (position_ == start || depth != 0) return NoViable();
    return true;
  }
  bool PreviousIsDot() const {
    if (position_ == 0) return false;
    const Token& token = tokens_[position_ - 1];
    return token.kind == TokenKind::kSymbol && token.value == ".";
  }

  bool IfNotExists(bool* out) {
    if (!AcceptKeyword("if")) return true;
    if (!ExpectKeyword("not") || !ExpectKeyword("exists")) return false;
    *out = true;
    return true;
  }
  bool IfExists(bool* out) {
    if (!AcceptKeyword("if")) return true;
    if (!ExpectKeyword("exists")) return false;
    *out = true;
    return true;
  }

  bool AnyStatement(cql::Statement* out) {
    const std::string verb = Take().value;
    if (verb == "describe" || verb == "desc") return Describe(out);
    Take();  // TYPE
    UserTypeStatement s;
    bool ok = verb == "create" ? Create(&s) : verb == "alter" ? Alter(&s) : Drop(&s);
    if (!ok) return false;
    *out = std::move(s);
    return true;
  }

  bool Create(UserTypeStatement* s) {
    s->kind = UserTypeStatement::Kind::kCreate;
    if (!IfNotExists(&s->if_not_exists) || !QualifiedTypeName(&s->type)) return false;
    if (!ExpectSymbol("(")) return false;
    do {
      ColumnDeclaration field;
      if (!Name(&field.name) || !Type(&field.type)) return false;
      s->fields.push_back(std::move(field));
    } while (AcceptSymbol(","));
    return ExpectSymbol(")");
  }

  bool Alter(UserTypeStatement* s) {
    if (!IfExists(&s->if_exists) || !QualifiedTypeName(&s->type)) return false;
    if (AcceptKeyword("add")) {
      s->kind = UserTypeStatement::Kind::kAddField;
      ColumnDeclaration field;
      if (!IfNotExists(&s->if_field_not_exists)) return false;
      if (!Name(&field.name) || !Type(&field.type)) return false;
      s->fields.push_back(std::move(field));
      return true;
    }
    if (AcceptKeyword("rename")) {
      s->kind = UserTypeStatement::Kind::kRenameFields;
      if (!IfExists(&s->if_field_exists)) return false;
      do {
        std::string from, to;
        if (!Name(&from) || !ExpectKeyword("to") || !Name(&to)) return false;
        s->renames.emplace_back(std::move(from), std::move(to));
      } while (AcceptKeyword("and"));
      return true;
    }
    if (AcceptKeyword("alter")) {
      s->kind = UserTypeStatement::Kind::kAlterField;
      ColumnDeclaration field;
      if (!Name(&field.name) || !ExpectKeyword("type") || !Type(&field.type)) return false;
      s->fields.push_back(std::move(field));
      return true;
    }
    return NoViable();
  }

  bool Drop(UserTypeStatement* s) {
    s->kind = UserTypeStatement::Kind::kDrop;
    return IfExists(&s->if_exists) && QualifiedTypeName(&s->type);
  }

  bool Describe(cql::Statement* out) {
    DescribeStatement s;
    if (AcceptKeyword("types")) {
      s.kind = DescribeStatement::Kind::kTypes;
    } else {
      Take();  // TYPE
      s.kind = DescribeStatement::Kind::kType;
      if (!QualifiedTypeName(&s.table)) return false;
    }
    *out = std::move(s);
    return true;
  }

  std::string_view text_;
  const std::vector<Token>& tokens_;
  size_t position_ = 0;
  Status error_;
};

}  // namespace

bool IsUserTypeStatement(const std::vector<Token>& tokens) {
  if (tokens.size() < 2 || tokens[0].kind != TokenKind::kIdentifier ||
      tokens[1].kind != TokenKind::kIdentifier) {
    return false;
  }
  const std::string& verb = tokens[0].value;
  const std::string& object = tokens[1].value;
  if (verb == "describe" || verb == "desc") {
    // DESCRIBE TYPE x / DESCRIBE TYPES (a table named "type" is DESCRIBE TABLE type).
    return object == "types"
               ? tokens.size() > 2 && (tokens[2].kind == TokenKind::kEnd || tokens[2].value == ";")
           : object == "type" ? tokens.size() > 2 && (tokens[2].kind == TokenKind::kIdentifier ||
                                                      tokens[2].kind == TokenKind::kQuotedName)
                              : false;
  }
  return (verb == "create" || verb == "alter" || verb == "drop") && object == "type";
}

Result<ParsedStatement> ParseUserTypeStatement(std::string_view text,
                                               const std::vector<Token>& tokens) {
  return TypeStatementParser(text, tokens).Run();
}

}  // namespace cassette::cql
