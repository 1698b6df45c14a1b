// The grammar of user-defined type statements (Cassandra 5.0's Parser.g:
// createTypeStatement, alterTypeStatement, dropTypeStatement, and
// DESCRIBE TYPE / TYPES), over the lexer's tokens. parser.cc hands these
// statements here; errors have the main parser's shape.
#include "engine/cql/parser_types.h"

#include <string>
#include <utility>

#include "engine/cql/parser_cursor.h"

namespace cassette::cql {
namespace {

class TypeStatementParser : public TokenCursor {
 public:
  using TokenCursor::TokenCursor;

  Result<ParsedStatement> Run() {
    ParsedStatement parsed;
    if (!AnyStatement(&parsed.statement)) return error_;
    AcceptSymbol(";");
    if (Peek().kind != TokenKind::kEnd) {
      Mismatched("EOF");
      return error_;
    }
    parsed.text = StatementText();
    return parsed;
  }

 private:
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
    if (!OptionalIfNotExists(&s->if_not_exists) || !QualifiedTableName(&s->type)) return false;
    if (!ExpectSymbol("(")) return false;
    do {
      ColumnDeclaration field;
      if (!Name(&field.name) || !Type(&field.type)) return false;
      s->fields.push_back(std::move(field));
    } while (AcceptSymbol(","));
    return ExpectSymbol(")");
  }

  bool Alter(UserTypeStatement* s) {
    if (!OptionalIfExists(&s->if_exists) || !QualifiedTableName(&s->type)) return false;
    if (AcceptKeyword("add")) {
      s->kind = UserTypeStatement::Kind::kAddField;
      ColumnDeclaration field;
      if (!OptionalIfNotExists(&s->if_field_not_exists)) return false;
      if (!Name(&field.name) || !Type(&field.type)) return false;
      s->fields.push_back(std::move(field));
      return true;
    }
    if (AcceptKeyword("rename")) {
      s->kind = UserTypeStatement::Kind::kRenameFields;
      if (!OptionalIfExists(&s->if_field_exists)) return false;
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
    return OptionalIfExists(&s->if_exists) && QualifiedTableName(&s->type);
  }

  bool Describe(cql::Statement* out) {
    DescribeStatement s;
    if (AcceptKeyword("types")) {
      s.kind = DescribeStatement::Kind::kTypes;
    } else {
      Take();  // TYPE
      s.kind = DescribeStatement::Kind::kType;
      if (!QualifiedTableName(&s.table)) return false;
    }
    *out = std::move(s);
    return true;
  }
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

Result<ParsedStatement> ParseUserTypeStatement(std::string_view text, std::vector<Token> tokens) {
  return TypeStatementParser(text, std::move(tokens)).Run();
}

}  // namespace cassette::cql
