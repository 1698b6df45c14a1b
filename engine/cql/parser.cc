// A recursive-descent parser for the CQL statements of ast.h, following
// Cassandra 4/5's grammar (Cql.g / Parser.g): the entry point and the
// statement dispatch. parser_impl.h says where each statement family's
// grammar lives; parser_cursor.h has the token cursor and the shape of
// syntax errors.
#include "engine/cql/parser.h"

#include <string>
#include <utility>
#include <vector>

#include "engine/cql/lexer.h"
#include "engine/cql/parser_impl.h"
#include "engine/cql/parser_types.h"

namespace cassette::cql {

Result<ParsedStatement> Parser::Run() {
  ParsedStatement parsed;
  if (!ParseStatementInto(&parsed.statement)) return error_;
  AcceptSymbol(";");
  if (Peek().kind != TokenKind::kEnd) {
    Mismatched("EOF");
    return error_;
  }
  parsed.bind_marker_count = static_cast<int>(bind_names_.size());
  parsed.bind_names = std::move(bind_names_);
  parsed.text = StatementText();
  return parsed;
}

bool Parser::ParseStatementInto(Statement* out) {
  const Token& first = Peek();
  if (first.kind != TokenKind::kIdentifier) return NoViable();
  const std::string& word = first.value;
  if (word == "select") return Into<SelectStatement>(out, &Parser::Select);
  if (word == "insert") return Into<InsertStatement>(out, &Parser::Insert);
  if (word == "update") return Into<UpdateStatement>(out, &Parser::Update);
  if (word == "delete") return Into<DeleteStatement>(out, &Parser::Delete);
  if (word == "begin") return Into<BatchStatement>(out, &Parser::Batch);
  if (word == "create") return Create(out);
  if (word == "alter") return Alter(out);
  if (word == "drop") return Drop(out);
  if (word == "truncate") return Into<TruncateStatement>(out, &Parser::Truncate);
  if (word == "use") return Into<UseStatement>(out, &Parser::Use);
  if (word == "describe" || word == "desc") {
    return Into<DescribeStatement>(out, &Parser::Describe);
  }
  return NoViable();
}

template <class T>
bool Parser::Into(Statement* out, bool (Parser::*parse)(T*)) {
  T statement;
  if (!(this->*parse)(&statement)) return false;
  *out = std::move(statement);
  return true;
}

bool Parser::Truncate(TruncateStatement* s) {
  Take();  // TRUNCATE
  if (!AcceptKeyword("table")) AcceptKeyword("columnfamily");
  return QualifiedTableName(&s->table);
}

bool Parser::Use(UseStatement* s) {
  Take();  // USE
  return Name(&s->keyspace);
}

bool Parser::Describe(DescribeStatement* s) {
  Take();  // DESCRIBE / DESC
  const bool full = AcceptKeyword("full");
  using Kind = DescribeStatement::Kind;
  if (AcceptKeyword("keyspaces")) {
    s->kind = Kind::kKeyspaces;
  } else if (AcceptKeyword("schema")) {
    s->kind = Kind::kSchema;
  } else if (full) {
    return Mismatched("K_SCHEMA");
  } else if (AcceptKeyword("tables") || AcceptKeyword("columnfamilies")) {
    s->kind = Kind::kTables;
  } else if (AcceptKeyword("keyspace")) {
    s->kind = Kind::kKeyspace;
    if (IsName() && !Name(&s->keyspace)) return false;
  } else if (AcceptKeyword("table") || AcceptKeyword("columnfamily")) {
    s->kind = Kind::kTable;
    return QualifiedTableName(&s->table);
  } else if (IsName()) {
    s->kind = Kind::kTable;
    if (!QualifiedTableName(&s->table)) return false;
    s->keyspace_or_table = s->table.keyspace.empty();
  } else {
    return NoViable();
  }
  return true;
}

Result<ParsedStatement> ParseStatement(std::string_view text) {
  Result<std::vector<Token>> tokens = Tokenize(text);
  if (!tokens.ok()) return tokens.status();
  if (IsUserTypeStatement(*tokens)) return ParseUserTypeStatement(text, std::move(tokens).value());
  return Parser(text, std::move(tokens).value()).Run();
}

}  // namespace cassette::cql
