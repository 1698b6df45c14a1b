// CREATE, ALTER and DROP of keyspaces and tables (Parser.g
// createKeyspaceStatement, createTableStatement, alterTableStatement, ...),
// their properties, and CQL types as column declarations and casts name them.
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/parser_impl.h"

namespace cassette::cql {

bool Parser::Create(Statement* out) {
  Take();  // CREATE
  if (IsKeyword("keyspace") || IsKeyword("schema")) {
    Take();
    CreateKeyspaceStatement s;
    if (!OptionalIfNotExists(&s.if_not_exists) || !Name(&s.keyspace)) return false;
    if (!ExpectKeyword("with") || !Properties(&s.properties)) return false;
    *out = std::move(s);
    return true;
  }
  if (IsKeyword("table") || IsKeyword("columnfamily")) {
    Take();
    CreateTableStatement s;
    if (!CreateTable(&s)) return false;
    *out = std::move(s);
    return true;
  }
  return NoViable();
}

bool Parser::CreateTable(CreateTableStatement* s) {
  if (!OptionalIfNotExists(&s->if_not_exists) || !QualifiedTableName(&s->table)) return false;
  if (!ExpectSymbol("(")) return false;
  bool has_primary_key = false;
  do {
    if (IsKeyword("primary")) {
      if (!PrimaryKeyClause(has_primary_key, s)) return false;
      has_primary_key = true;
      continue;
    }
    ColumnDeclaration column;
    if (!Name(&column.name) || !Type(&column.type)) return false;
    if (AcceptKeyword("static")) column.is_static = true;
    if (AcceptKeyword("primary")) {
      if (!ExpectKeyword("key")) return false;
      if (has_primary_key) return MultiplePrimaryKeys();
      has_primary_key = true;
      s->partition_key.push_back(column.name);
    }
    s->columns.push_back(std::move(column));
  } while (AcceptSymbol(","));
  if (!ExpectSymbol(")")) return false;
  if (AcceptKeyword("with")) {
    do {
      if (!TableOption(s)) return false;
    } while (AcceptKeyword("and"));
  }
  return true;
}

bool Parser::MultiplePrimaryKeys() {
  return Fail(Status::InvalidRequest("Multiple PRIMARY KEYs specified (exactly one required)"));
}

// PRIMARY KEY (k) / (k, c, d) / ((a, b), c, d)
bool Parser::PrimaryKeyClause(bool already_has_one, CreateTableStatement* s) {
  Take();  // PRIMARY
  if (!ExpectKeyword("key") || !ExpectSymbol("(")) return false;
  if (already_has_one) return MultiplePrimaryKeys();
  if (AcceptSymbol("(")) {
    if (!NameList(&s->partition_key) || !ExpectSymbol(")")) return false;
  } else {
    std::string key;
    if (!Name(&key)) return false;
    s->partition_key.push_back(std::move(key));
  }
  while (AcceptSymbol(",")) {
    std::string column;
    if (!Name(&column)) return false;
    s->clustering.push_back(std::move(column));
  }
  return ExpectSymbol(")");
}

bool Parser::TableOption(CreateTableStatement* s) {
  if (AcceptKeyword("clustering")) {
    if (!ExpectKeyword("order") || !ExpectKeyword("by") || !ExpectSymbol("(")) return false;
    do {
      std::string column;
      if (!Name(&column)) return false;
      bool descending = false;
      if (AcceptKeyword("desc")) {
        descending = true;
      } else if (!AcceptKeyword("asc")) {
        return NoViable();
      }
      s->clustering_order.emplace_back(std::move(column), descending);
    } while (AcceptSymbol(","));
    return ExpectSymbol(")");
  }
  if (IsKeyword("compact") && IsKeyword("storage", 1)) {
    Take();
    Take();
    s->compact_storage = true;
    return true;
  }
  Property property;
  if (!ParseProperty(&property)) return false;
  s->properties.push_back(std::move(property));
  return true;
}

bool Parser::Properties(std::vector<Property>* out) {
  do {
    Property property;
    if (!ParseProperty(&property)) return false;
    out->push_back(std::move(property));
  } while (AcceptKeyword("and"));
  return true;
}

bool Parser::ParseProperty(Property* p) {
  if (!Name(&p->name) || !ExpectSymbol("=")) return false;
  if (AcceptSymbol("{")) {
    p->is_map = true;
    if (AcceptSymbol("}")) return true;
    do {
      std::string key, value;
      if (!PropertyConstant(&key) || !ExpectSymbol(":") || !PropertyConstant(&value)) {
        return false;
      }
      p->map.emplace_back(std::move(key), std::move(value));
    } while (AcceptSymbol(","));
    return ExpectSymbol("}");
  }
  return PropertyConstant(&p->value);
}

// A property's value: a constant (strings unquoted, booleans lower-cased,
// numbers as written) or a bare word.
bool Parser::PropertyConstant(std::string* out) {
  std::string sign;
  if (IsSymbol("-")) {
    Take();
    sign = "-";
  }
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kString:
      if (!sign.empty()) return NoViable();
      *out = Take().value;
      return true;
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kDuration:
      *out = sign + std::string(Take().text);
      return true;
    case TokenKind::kUuid:
    case TokenKind::kHex:
    case TokenKind::kIdentifier:
    case TokenKind::kQuotedName:
      if (!sign.empty()) return NoViable();
      *out = token.kind == TokenKind::kIdentifier ? Take().value : std::string(Take().text);
      return true;
    default:
      return NoViable();
  }
}

bool Parser::Alter(Statement* out) {
  Take();  // ALTER
  if (AcceptKeyword("keyspace") || AcceptKeyword("schema")) {
    AlterKeyspaceStatement s;
    if (!Name(&s.keyspace) || !ExpectKeyword("with") || !Properties(&s.properties)) {
      return false;
    }
    *out = std::move(s);
    return true;
  }
  if (AcceptKeyword("table") || AcceptKeyword("columnfamily")) {
    AlterTableStatement s;
    if (!AlterTable(&s)) return false;
    *out = std::move(s);
    return true;
  }
  return NoViable();
}

bool Parser::AlterTable(AlterTableStatement* s) {
  if (!QualifiedTableName(&s->table)) return false;
  if (AcceptKeyword("add")) {
    s->kind = AlterTableStatement::Kind::kAdd;
    const bool parenthesised = AcceptSymbol("(");
    do {
      ColumnDeclaration column;
      if (!Name(&column.name) || !Type(&column.type)) return false;
      if (AcceptKeyword("static")) column.is_static = true;
      s->add.push_back(std::move(column));
    } while (parenthesised && AcceptSymbol(","));
    return !parenthesised || ExpectSymbol(")");
  }
  if (AcceptKeyword("drop")) {
    s->kind = AlterTableStatement::Kind::kDrop;
    if (AcceptSymbol("(")) {
      if (!NameList(&s->drop) || !ExpectSymbol(")")) return false;
    } else {
      std::string column;
      if (!Name(&column)) return false;
      s->drop.push_back(std::move(column));
    }
    if (IsKeyword("using")) {
      UsingClause using_clause;
      if (!OptionalUsing(/*allow_ttl=*/false, &using_clause)) return false;
      s->using_clause = std::move(using_clause);
    }
    return true;
  }
  if (AcceptKeyword("with")) {
    s->kind = AlterTableStatement::Kind::kWith;
    return Properties(&s->properties);
  }
  if (AcceptKeyword("rename")) {
    s->kind = AlterTableStatement::Kind::kRename;
    do {
      std::string from, to;
      if (!Name(&from) || !ExpectKeyword("to") || !Name(&to)) return false;
      s->rename.emplace_back(std::move(from), std::move(to));
    } while (AcceptKeyword("and"));
    return true;
  }
  if (AcceptKeyword("alter")) {
    s->kind = AlterTableStatement::Kind::kAlterType;
    ColumnDeclaration column;
    if (!Name(&column.name) || !ExpectKeyword("type") || !Type(&column.type)) return false;
    s->add.push_back(std::move(column));
    return true;
  }
  return NoViable();
}

bool Parser::Drop(Statement* out) {
  Take();  // DROP
  if (AcceptKeyword("keyspace") || AcceptKeyword("schema")) {
    DropKeyspaceStatement s;
    if (!OptionalIfExists(&s.if_exists) || !Name(&s.keyspace)) return false;
    *out = std::move(s);
    return true;
  }
  if (AcceptKeyword("table") || AcceptKeyword("columnfamily")) {
    DropTableStatement s;
    if (!OptionalIfExists(&s.if_exists) || !QualifiedTableName(&s.table)) return false;
    *out = std::move(s);
    return true;
  }
  return NoViable();
}

// A CQL type, normalised to lower case with ", " between parameters
// ("frozen<map<text, int>>"), the form DataType::Parse reads.
bool Parser::Type(std::string* out) {
  DepthGuard guard(this);
  if (guard.TooDeep()) return NoViable();
  const Token& token = Peek();
  if (token.kind == TokenKind::kQuotedName) {
    *out = Take().value;
    return true;
  }
  if (token.kind != TokenKind::kIdentifier) return NoViable();
  const std::string word = Take().value;
  if (!IsCollectionTypeWord(word)) {
    *out = word;
    if (IsSymbol(".") && IsName(1)) {  // ks.user_type
      Take();
      *out += "." + Take().value;
    }
    return true;
  }
  if (!ExpectSymbol("<")) return false;
  std::vector<std::string> parameters(1);
  if (!Type(&parameters[0])) return false;
  if (word == "map" || word == "vector") {
    parameters.emplace_back();
    if (!ExpectSymbol(",")) return false;
    if (word == "map") {
      if (!Type(&parameters[1])) return false;
    } else if (Peek().kind == TokenKind::kInteger) {
      parameters[1] = Take().value;
    } else {
      return NoViable();
    }
  } else if (word == "tuple") {
    while (AcceptSymbol(",")) {
      parameters.emplace_back();
      if (!Type(&parameters.back())) return false;
    }
  }
  if (!ExpectSymbol(">")) return false;
  *out = word + "<" + Join(parameters, ", ") + ">";
  return true;
}

}  // namespace cassette::cql
