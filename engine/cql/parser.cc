// A recursive-descent parser for the CQL statements of ast.h, following
// Cassandra 4/5's grammar (Cql.g / Parser.g). Syntax errors carry ANTLR 3's
// message shapes as cqlsh prints them after "SyntaxException: ":
//   line 1:7 no viable alternative at input 'FORM'
//   line 1:9 mismatched input 'x' expecting K_FROM
// The position is the offending token's (line 1-based, column 0-based).
//
// Result column names (Selector::source_text) follow Cassandra 4+:
// a column is its name; WRITETIME(v) / TTL(v) are "writetime(v)" / "ttl(v)";
// COUNT(*) and COUNT(1) are "count"; a native function (aggregates and
// token() included) is "system.<name>(<args' names joined by ', '>)", e.g.
// "system.avg(v)", "system.todate(system.now())"; CAST(v AS text) is
// "cast(v as text)"; a map element is "m['key']"; a constant is its text
// as written.
#include "engine/cql/parser.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/lexer.h"
#include "engine/cql/parser_expressions.h"
#include "engine/cql/parser_types.h"
#include "engine/cql/reserved_keywords.h"

namespace cassette::cql {
namespace {

// Cassandra's reserved keywords (DEFAULT included, as Cassandra 4 reserves it for INSERT JSON
// ... DEFAULT UNSET) are never a name unless quoted.
bool IsReserved(std::string_view word) { return IsReservedKeyword(word); }

// Names of CQL's native types (a parenthesised one starts a type hint).
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

// Words a term may start with: constants named by keywords.
bool IsConstantWord(std::string_view word) {
  return word == "true" || word == "false" || word == "null" || word == "nan" || word == "infinity";
}

// Strips the "system." of a native function's qualified name.
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

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens)
      : text_(text), tokens_(std::move(tokens)) {}

  Result<ParsedStatement> Run() {
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

 private:
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
  bool ExpectKeyword(std::string_view keyword) {
    if (AcceptKeyword(keyword)) return true;
    std::string name = "K_";
    for (char c : keyword) name.push_back(static_cast<char>(std::toupper(c)));
    return Mismatched(name);
  }
  bool ExpectSymbol(std::string_view symbol) {
    if (AcceptSymbol(symbol)) return true;
    return Mismatched("'" + std::string(symbol) + "'");
  }

  // ---- errors (the first one wins) ----

  std::string Position(const Token& token) const {
    return "line " + std::to_string(token.line) + ":" + std::to_string(token.column);
  }
  std::string Display(const Token& token) const { return "'" + std::string(token.text) + "'"; }

  bool Fail(Status status) {
    if (error_.ok()) error_ = std::move(status);
    return false;
  }
  bool Mismatched(const std::string& expected) {
    const Token& token = Peek();
    return Fail(Status::SyntaxError(Position(token) + " mismatched input " + Display(token) +
                                    " expecting " + expected));
  }
  bool NoViable() { return NoViableAt(Peek()); }
  bool NoViableAt(const Token& token) {
    return Fail(
        Status::SyntaxError(Position(token) + " no viable alternative at input " + Display(token)));
  }

  // ---- names ----

  bool IsName(size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kQuotedName ||
           (token.kind == TokenKind::kIdentifier && !IsReserved(token.value));
  }
  // A column, keyspace, table or property name.
  bool Name(std::string* out) {
    if (!IsName()) return NoViable();
    *out = Take().value;
    return true;
  }
  bool QualifiedTableName(QualifiedName* out) {
    std::string first;
    if (!Name(&first)) return false;
    if (AcceptSymbol(".")) {
      out->keyspace = std::move(first);
      return Name(&out->name);
    }
    out->name = std::move(first);
    return true;
  }
  bool NameList(std::vector<std::string>* out) {
    do {
      std::string name;
      if (!Name(&name)) return false;
      out->push_back(std::move(name));
    } while (AcceptSymbol(","));
    return true;
  }

  // ---- statements ----

  bool ParseStatementInto(Statement* out) {
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
  bool Into(Statement* out, bool (Parser::*parse)(T*)) {
    T statement;
    if (!(this->*parse)(&statement)) return false;
    *out = std::move(statement);
    return true;
  }

  bool Select(SelectStatement* s) {
    Take();  // SELECT
    // JSON and DISTINCT are unreserved: `SELECT json FROM t` selects a column.
    auto is_modifier = [&](std::string_view word) {
      return IsKeyword(word) && !IsKeyword("from", 1) && !IsSymbol(",", 1) && !IsKeyword("as", 1);
    };
    if (is_modifier("json")) {
      Take();
      s->json = true;
    }
    if (is_modifier("distinct")) {
      Take();
      s->distinct = true;
    }
    if (AcceptSymbol("*")) {
      s->star = true;
    } else {
      do {
        Selector selector;
        if (!AliasedSelector(&selector)) return false;
        s->selectors.push_back(std::move(selector));
      } while (AcceptSymbol(","));
    }
    if (!ExpectKeyword("from") || !QualifiedTableName(&s->table)) return false;
    if (AcceptKeyword("where") && !Relations(&s->where)) return false;
    if (AcceptKeyword("group")) {
      if (!ExpectKeyword("by")) return false;
      do {
        Selector item;
        if (!UnaliasedSelector(&item)) return false;
        s->group_by.push_back(std::move(item));
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword("order")) {
      if (!ExpectKeyword("by")) return false;
      do {
        std::string column;
        if (!Name(&column)) return false;
        bool descending = false;
        if (AcceptKeyword("desc")) {
          descending = true;
        } else {
          AcceptKeyword("asc");
        }
        s->order_by.emplace_back(std::move(column), descending);
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword("per")) {
      Term limit;
      if (!ExpectKeyword("partition") || !ExpectKeyword("limit") || !IntValue(&limit)) {
        return false;
      }
      s->per_partition_limit = std::move(limit);
    }
    if (AcceptKeyword("limit")) {
      Term limit;
      if (!IntValue(&limit)) return false;
      s->limit = std::move(limit);
    }
    if (AcceptKeyword("allow")) {
      if (!ExpectKeyword("filtering")) return false;
      s->allow_filtering = true;
    }
    return true;
  }

  bool Insert(InsertStatement* s) {
    Take();  // INSERT
    if (!ExpectKeyword("into") || !QualifiedTableName(&s->table)) return false;
    if (AcceptKeyword("json")) {
      s->json = true;
      Term value;
      if (!JsonValue(&value)) return false;
      s->json_value = std::move(value);
      if (AcceptKeyword("default")) {
        if (AcceptKeyword("unset")) {
          s->json_default_unset = true;
        } else if (!AcceptKeyword("null")) {
          return NoViable();
        }
      }
    } else {
      if (!ExpectSymbol("(") || !NameList(&s->columns) || !ExpectSymbol(")")) return false;
      if (!ExpectKeyword("values") || !ExpectSymbol("(")) return false;
      do {
        Term value;
        if (!ParseTerm(&value)) return false;
        s->values.push_back(std::move(value));
      } while (AcceptSymbol(","));
      if (!ExpectSymbol(")")) return false;
    }
    if (AcceptKeyword("if")) {
      if (!ExpectKeyword("not") || !ExpectKeyword("exists")) return false;
      s->if_not_exists = true;
    }
    return OptionalUsing(/*allow_ttl=*/true, &s->using_clause);
  }

  // INSERT JSON takes a string or a bind marker.
  bool JsonValue(Term* out) {
    const Token& token = Peek();
    if (token.kind == TokenKind::kString) {
      out->kind = Term::Kind::kConstant;
      out->literal = Term::Literal::kString;
      out->text = Take().value;
      return true;
    }
    if (IsSymbol("?") || IsSymbol(":")) return BindMarker(out);
    return NoViable();
  }

  bool Update(UpdateStatement* s) {
    Take();  // UPDATE
    if (!QualifiedTableName(&s->table)) return false;
    if (!OptionalUsing(/*allow_ttl=*/true, &s->using_clause)) return false;
    if (!ExpectKeyword("set")) return false;
    do {
      Assignment assignment;
      if (!ParseAssignment(&assignment)) return false;
      s->assignments.push_back(std::move(assignment));
    } while (AcceptSymbol(","));
    if (!ExpectKeyword("where") || !Relations(&s->where)) return false;
    return OptionalConditions(&s->if_exists, &s->conditions);
  }

  bool ParseAssignment(Assignment* a) {
    if (!Name(&a->column)) return false;
    if (AcceptSymbol(".")) {  // c.field = value (user types)
      a->kind = Assignment::Kind::kSetField;
      return Name(&a->field) && ExpectSymbol("=") && ParseTerm(&a->value);
    }
    if (AcceptSymbol("[")) {
      Term key;
      if (!ParseTerm(&key) || !ExpectSymbol("]")) return false;
      a->kind = Assignment::Kind::kSetElement;
      a->key = std::move(key);
      return ExpectSymbol("=") && ParseTerm(&a->value);
    }
    // c += value / c -= value: Cassandra's short forms of c = c + value.
    if ((IsSymbol("+") || IsSymbol("-")) && IsSymbol("=", 1)) {
      a->kind = Take().value == "+" ? Assignment::Kind::kAdd : Assignment::Kind::kSubtract;
      Take();  // =
      return ParseTerm(&a->value);
    }
    if (!ExpectSymbol("=")) return false;
    // c = c + value / c = c - value: a name (not a function call) then + or -.
    if (IsName() && !IsSymbol("(", 1) && !IsSymbol(".", 1) &&
        (IsSymbol("+", 1) || IsSymbol("-", 1))) {
      const Token& other = Take();
      if (other.value != a->column) {
        return Fail(Status::InvalidRequest("Only expressions of the form X = X " +
                                           std::string(Peek().value) + " <value> are supported."));
      }
      a->kind = Take().value == "+" ? Assignment::Kind::kAdd : Assignment::Kind::kSubtract;
      return ParseTerm(&a->value);
    }
    if (!ParseTerm(&a->value)) return false;
    if (IsSymbol("+") && IsName(1)) {  // c = value + c (list prepend)
      Take();
      const Token& other = Take();
      if (other.value != a->column) {
        return Fail(
            Status::InvalidRequest("Only expressions of the form X = <value> + X are supported."));
      }
      a->kind = Assignment::Kind::kPrepend;
      return true;
    }
    a->kind = Assignment::Kind::kSet;
    return true;
  }

  bool Delete(DeleteStatement* s) {
    Take();  // DELETE
    if (!IsKeyword("from")) {
      do {
        DeleteTarget target;
        if (!Name(&target.column)) return false;
        if (AcceptSymbol(".") && !Name(&target.field)) return false;  // DELETE c.field
        if (target.field.empty() && AcceptSymbol("[")) {
          Term element;
          if (!ParseTerm(&element) || !ExpectSymbol("]")) return false;
          target.element = std::move(element);
        }
        s->targets.push_back(std::move(target));
      } while (AcceptSymbol(","));
    }
    if (!ExpectKeyword("from") || !QualifiedTableName(&s->table)) return false;
    if (!OptionalUsing(/*allow_ttl=*/false, &s->using_clause)) return false;
    if (!ExpectKeyword("where") || !Relations(&s->where)) return false;
    return OptionalConditions(&s->if_exists, &s->conditions);
  }

  bool Batch(BatchStatement* s) {
    Take();  // BEGIN
    if (AcceptKeyword("unlogged")) {
      s->type = BatchStatement::Type::kUnlogged;
    } else if (AcceptKeyword("counter")) {
      s->type = BatchStatement::Type::kCounter;
    } else {
      AcceptKeyword("logged");
    }
    if (!ExpectKeyword("batch")) return false;
    // Cassandra's grammar takes TTL here too and refuses it later ("Global
    // TTL on the BATCH statement is not supported."): the executor does.
    if (!OptionalUsing(/*allow_ttl=*/true, &s->using_clause)) return false;
    while (!IsKeyword("apply")) {
      if (IsKeyword("insert")) {
        InsertStatement insert;
        if (!Insert(&insert)) return false;
        s->statements.emplace_back(std::move(insert));
      } else if (IsKeyword("update")) {
        UpdateStatement update;
        if (!Update(&update)) return false;
        s->statements.emplace_back(std::move(update));
      } else if (IsKeyword("delete")) {
        DeleteStatement del;
        if (!Delete(&del)) return false;
        s->statements.emplace_back(std::move(del));
      } else {
        return Peek().kind == TokenKind::kEnd ? Mismatched("K_APPLY") : NoViable();
      }
      AcceptSymbol(";");
    }
    Take();  // APPLY
    return ExpectKeyword("batch");
  }

  bool Create(Statement* out) {
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

  bool OptionalIfNotExists(bool* out) {
    if (!AcceptKeyword("if")) return true;
    if (!ExpectKeyword("not") || !ExpectKeyword("exists")) return false;
    *out = true;
    return true;
  }
  bool OptionalIfExists(bool* out) {
    if (!AcceptKeyword("if")) return true;
    if (!ExpectKeyword("exists")) return false;
    *out = true;
    return true;
  }

  bool CreateTable(CreateTableStatement* s) {
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

  bool MultiplePrimaryKeys() {
    return Fail(Status::InvalidRequest("Multiple PRIMARY KEYs specified (exactly one required)"));
  }

  // PRIMARY KEY (k) / (k, c, d) / ((a, b), c, d)
  bool PrimaryKeyClause(bool already_has_one, CreateTableStatement* s) {
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

  bool TableOption(CreateTableStatement* s) {
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

  bool Properties(std::vector<Property>* out) {
    do {
      Property property;
      if (!ParseProperty(&property)) return false;
      out->push_back(std::move(property));
    } while (AcceptKeyword("and"));
    return true;
  }

  bool ParseProperty(Property* p) {
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
  bool PropertyConstant(std::string* out) {
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

  bool Alter(Statement* out) {
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

  bool AlterTable(AlterTableStatement* s) {
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

  bool Drop(Statement* out) {
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

  bool Truncate(TruncateStatement* s) {
    Take();  // TRUNCATE
    if (!AcceptKeyword("table")) AcceptKeyword("columnfamily");
    return QualifiedTableName(&s->table);
  }

  bool Use(UseStatement* s) {
    Take();  // USE
    return Name(&s->keyspace);
  }

  bool Describe(DescribeStatement* s) {
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

  // ---- USING, IF ----

  // USING TTL t AND TIMESTAMP t (either order, either alone).
  bool OptionalUsing(bool allow_ttl, UsingClause* out) {
    if (!AcceptKeyword("using")) return true;
    do {
      if (allow_ttl && AcceptKeyword("ttl")) {
        Term ttl;
        if (!IntValue(&ttl)) return false;
        out->ttl = std::move(ttl);
      } else if (AcceptKeyword("timestamp")) {
        Term timestamp;
        if (!IntValue(&timestamp)) return false;
        out->timestamp = std::move(timestamp);
      } else {
        return allow_ttl ? NoViable() : Mismatched("K_TIMESTAMP");
      }
    } while (AcceptKeyword("and"));
    return true;
  }

  bool OptionalConditions(bool* if_exists, std::vector<Relation>* conditions) {
    if (!AcceptKeyword("if")) return true;
    if (AcceptKeyword("exists")) {
      *if_exists = true;
      return true;
    }
    do {
      Relation condition;
      if (!ColumnRelation(&condition)) return false;
      conditions->push_back(std::move(condition));
    } while (AcceptKeyword("and"));
    return true;
  }

  // ---- WHERE ----

  bool Relations(std::vector<Relation>* out) {
    do {
      Relation relation;
      if (!ParseRelation(&relation)) return false;
      out->push_back(std::move(relation));
    } while (AcceptKeyword("and"));
    return true;
  }

  bool ParseRelation(Relation* r) {
    if (IsKeyword("token") && IsSymbol("(", 1)) {
      Take();
      Take();
      r->target = Relation::Target::kToken;
      if (!NameList(&r->columns) || !ExpectSymbol(")")) return false;
      if (!ComparisonOperator(&r->op)) return false;
      Term value;
      if (!ParseTerm(&value)) return false;
      r->value = std::move(value);
      return true;
    }
    if (IsSymbol("(")) {
      Take();
      r->target = Relation::Target::kTuple;
      if (!NameList(&r->columns) || !ExpectSymbol(")")) return false;
      if (AcceptKeyword("in")) return InValues(r);
      if (!ComparisonOperator(&r->op)) return false;
      Term value;
      if (IsSymbol("?") || IsSymbol(":")) {
        if (!BindMarker(&value)) return false;
      } else if (IsSymbol("(")) {
        if (!TupleLiteral(&value)) return false;
      } else {
        return NoViable();
      }
      r->value = std::move(value);
      return true;
    }
    return ColumnRelation(r);
  }

  // c op t, c IN ..., c[k] op t, c CONTAINS [KEY] t, c LIKE t, c IS NOT NULL.
  bool ColumnRelation(Relation* r) {
    std::string column;
    if (!Name(&column)) return false;
    r->columns.push_back(std::move(column));
    if (AcceptSymbol("[")) {
      Term key;
      if (!ParseTerm(&key) || !ExpectSymbol("]")) return false;
      r->target = Relation::Target::kElement;
      r->element_key = std::move(key);
    }
    if (AcceptKeyword("in")) return InValues(r);
    if (r->target == Relation::Target::kColumn) {
      if (AcceptKeyword("contains")) {
        r->op = AcceptKeyword("key") ? Operator::kContainsKey : Operator::kContains;
        return RelationValue(r);
      }
      if (AcceptKeyword("like")) {
        r->op = Operator::kLike;
        return RelationValue(r);
      }
      if (AcceptKeyword("is")) {
        if (!ExpectKeyword("not") || !ExpectKeyword("null")) return false;
        r->op = Operator::kIsNotNull;
        return true;
      }
    }
    return ComparisonOperator(&r->op) && RelationValue(r);
  }

  bool RelationValue(Relation* r) {
    Term value;
    if (!ParseTerm(&value)) return false;
    r->value = std::move(value);
    return true;
  }

  bool ComparisonOperator(Operator* op) {
    static constexpr std::pair<std::string_view, Operator> kOperators[] = {
        {"=", Operator::kEq},  {"!=", Operator::kNeq}, {"<", Operator::kLt},
        {"<=", Operator::kLe}, {">", Operator::kGt},   {">=", Operator::kGe}};
    for (const auto& [symbol, value] : kOperators) {
      if (AcceptSymbol(symbol)) {
        *op = value;
        return true;
      }
    }
    return NoViable();
  }

  // After IN: `?`, `:name`, or a parenthesised (possibly empty) list.
  bool InValues(Relation* r) {
    r->op = Operator::kIn;
    if (IsSymbol("?") || IsSymbol(":")) {
      Term marker;
      if (!BindMarker(&marker)) return false;
      r->value = std::move(marker);
      return true;
    }
    if (!ExpectSymbol("(")) return false;
    if (AcceptSymbol(")")) return true;
    do {
      Term value;
      if (!ParseTerm(&value)) return false;
      r->in_values.push_back(std::move(value));
    } while (AcceptSymbol(","));
    return ExpectSymbol(")");
  }

  // LIMIT, TTL, TIMESTAMP: an integer (possibly negative) or a bind marker.
  bool IntValue(Term* out) {
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

  // ---- terms ----

  bool BindMarker(Term* out) {
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
  bool StartsTerm(size_t ahead = 0) const {
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
        return token.value == "?" || token.value == ":" || token.value == "[" ||
               token.value == "{" || token.value == "(" || token.value == "-";
      case TokenKind::kEnd:
        return false;
    }
    return false;
  }

  // Nesting ([[[...]]], f(f(...)), list<list<...>>) is bounded so that no
  // input can exhaust the stack.
  static constexpr int kMaxDepth = 200;
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* parser) : parser_(parser) { ++parser_->depth_; }
    ~DepthGuard() { --parser_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    bool TooDeep() const { return parser_->depth_ > kMaxDepth; }

   private:
    Parser* parser_;
  };

  // term: additive arithmetic over unary terms, as Cassandra 4's grammar.
  bool ParseTerm(Term* out) {
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

  bool MultiplicativeTerm(Term* out) {
    if (!UnaryTerm(out)) return false;
    while ((IsSymbol("*") || IsSymbol("/") || IsSymbol("%")) && StartsTerm(1)) {
      std::string op = Take().value;
      Term right;
      if (!UnaryTerm(&right)) return false;
      *out = Operation(std::move(op), std::move(*out), std::move(right));
    }
    return true;
  }

  static Term Operation(std::string op, Term left, Term right) {
    Term term;
    term.kind = Term::Kind::kArithmetic;
    term.text = std::move(op);
    term.elements.push_back(std::move(left));
    term.elements.push_back(std::move(right));
    return term;
  }

  bool UnaryTerm(Term* out) {
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

  static void Constant(Term::Literal literal, std::string text, Term* out) {
    out->kind = Term::Kind::kConstant;
    out->literal = literal;
    out->text = std::move(text);
  }

  bool PrimaryTerm(Term* out) {
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
  bool FunctionTerm(Term* out) {
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
  bool FunctionNameAt(std::string* out) {
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

  bool CastTerm(Term* out) {
    Take();  // CAST
    Take();  // (
    Term operand;
    if (!ParseTerm(&operand) || !ExpectKeyword("as") || !Type(&out->text)) return false;
    out->kind = Term::Kind::kCast;
    out->elements.push_back(std::move(operand));
    return ExpectSymbol(")");
  }

  bool ListLiteral(Term* out) {
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
  bool BraceLiteral(Term* out) {
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
  bool UserTypeLiteral(Term* out) {
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
  bool IsTypeHint() const {
    const Token& word = Peek(1);
    if (word.kind == TokenKind::kQuotedName) return IsSymbol(")", 2) && StartsTerm(3);
    if (word.kind != TokenKind::kIdentifier || IsConstantWord(word.value)) return false;
    if (IsCollectionTypeWord(word.value)) return IsSymbol("<", 2);
    return IsSymbol(")", 2) && (IsNativeType(word.value) || StartsTerm(3));
  }

  bool ParenthesisedTerm(Term* out) {
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

  bool TupleLiteral(Term* out) {
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

  // ---- types ----

  // A CQL type, normalised to lower case with ", " between parameters
  // ("frozen<map<text, int>>"), the form DataType::Parse reads.
  bool Type(std::string* out) {
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

  // ---- selectors ----

  bool AliasedSelector(Selector* out) {
    if (!UnaliasedSelector(out)) return false;
    if (AcceptKeyword("as")) return Name(&out->alias);
    return true;
  }

  // The source text of tokens [first, end).
  std::string SourceBetween(size_t first, size_t end) const {
    if (end <= first) return "";
    const size_t begin = tokens_[first].offset;
    const Token& last = tokens_[end - 1];
    return std::string(text_.substr(begin, last.offset + last.text.size() - begin));
  }

  // A selector with arithmetic (parser_expressions.cc) over operands.
  bool UnaliasedSelector(Selector* out) {
    DepthGuard guard(this);
    if (guard.TooDeep()) return NoViable();
    SelectorExpressionHooks hooks;
    hooks.operand = [this](Selector* operand) { return SelectorOperand(operand); };
    hooks.next_is_operator = [this](const char* op) { return IsSymbol(op); };
    hooks.next_is_negation = [this] { return IsSymbol("-") && !IsSignedNumber(); };
    hooks.take = [this] { Take(); };
    hooks.position = [this] { return position_; };
    hooks.source_between = [this](size_t first, size_t end) { return SourceBetween(first, end); };
    return ParseSelectorExpression(hooks, out);
  }

  // '-' then a number, duration, NaN or Infinity: a constant's sign.
  bool IsSignedNumber() const {
    const Token& next = Peek(1);
    return next.kind == TokenKind::kInteger || next.kind == TokenKind::kFloat ||
           next.kind == TokenKind::kDuration ||
           (next.kind == TokenKind::kIdentifier &&
            (next.value == "infinity" || next.value == "nan"));
  }

  // '(' type ')' operand, '(' selector ')', or a tuple literal.
  bool ParenthesisedSelector(Selector* out) {
    const size_t first = position_;
    if (IsTypeHint()) {
      Take();  // (
      std::string type;
      if (!Type(&type) || !ExpectSymbol(")")) return false;
      Selector operand;
      if (!SelectorOperand(&operand)) return false;
      if (operand.kind == Selector::Kind::kTerm && operand.term) {
        // A hinted constant stays a term, typed by its hint.
        Term hinted;
        hinted.kind = Term::Kind::kTypeHint;
        hinted.text = std::move(type);
        hinted.elements.push_back(std::move(*operand.term));
        out->kind = Selector::Kind::kTerm;
        out->term = std::move(hinted);
      } else {
        out->kind = Selector::Kind::kTypeHint;
        out->cast_type = std::move(type);
        out->args.push_back(std::move(operand));
      }
      out->source_text = SourceBetween(first, position_);
      return true;
    }
    Take();  // (
    Selector inner;
    if (!UnaliasedSelector(&inner)) return false;
    if (inner.kind == Selector::Kind::kTerm && inner.term && AcceptSymbol(",")) {
      Term tuple;
      tuple.kind = Term::Kind::kTuple;
      tuple.elements.push_back(std::move(*inner.term));
      do {
        Term element;
        if (!ParseTerm(&element)) return false;
        tuple.elements.push_back(std::move(element));
      } while (AcceptSymbol(","));
      inner.term = std::move(tuple);
    }
    if (!ExpectSymbol(")")) return false;
    *out = std::move(inner);
    out->source_text = SourceBetween(first, position_);
    return true;
  }

  // One operand of a selector expression.
  bool SelectorOperand(Selector* out) {
    DepthGuard guard(this);
    if (guard.TooDeep()) return NoViable();
    if (IsSymbol("(")) return ParenthesisedSelector(out);
    const size_t first = position_;
    const Token& token = Peek();
    const bool call = IsSymbol("(", 1);
    if (token.kind == TokenKind::kIdentifier && call) {
      const bool count_integer = Peek(2).kind == TokenKind::kInteger;
      if (token.value == "count" && (IsSymbol("*", 2) || count_integer) && IsSymbol(")", 3)) {
        if (count_integer && Peek(2).value != "1") {
          // Cassandra's grammar checks this itself (a SyntaxException).
          return Fail(
              Status::SyntaxError("Only COUNT(1) is supported, got COUNT(" + Peek(2).value + ")"));
        }
        for (int i = 0; i < 4; ++i) Take();
        out->kind = Selector::Kind::kCountStar;
        out->source_text = "count";
        return true;
      }
      if (token.value == "writetime" || token.value == "ttl") {
        out->kind = token.value == "ttl" ? Selector::Kind::kTtl : Selector::Kind::kWritetime;
        const std::string function = Take().value;
        Take();  // (
        Selector target;
        if (!ColumnSelector(&target) || !ExpectSymbol(")")) return false;
        out->source_text = function + "(" + target.source_text + ")";
        if (target.kind == Selector::Kind::kColumn) {
          out->column = std::move(target.column);
        } else {
          out->column = ColumnUnder(target);
          out->args.push_back(std::move(target));
        }
        return true;
      }
      if (token.value == "cast") {
        Take();
        Take();
        Selector operand;
        if (!UnaliasedSelector(&operand) || !ExpectKeyword("as") || !Type(&out->cast_type)) {
          return false;
        }
        if (!ExpectSymbol(")")) return false;
        out->kind = Selector::Kind::kCast;
        out->source_text = "cast(" + operand.source_text + " as " + out->cast_type + ")";
        out->args.push_back(std::move(operand));
        return true;
      }
    }
    const bool is_function =
        (token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kQuotedName) &&
        (call || (IsSymbol(".", 1) && IsSymbol("(", 3)));
    if (is_function) {
      if (!FunctionNameAt(&out->function)) return false;
      out->kind = Selector::Kind::kFunction;
      Take();  // (
      std::vector<std::string> argument_names;
      if (!IsSymbol(")")) {
        do {
          Selector argument;
          if (!UnaliasedSelector(&argument)) return false;
          argument_names.push_back(argument.source_text);
          out->args.push_back(std::move(argument));
        } while (AcceptSymbol(","));
      }
      if (!ExpectSymbol(")")) return false;
      // MAXWRITETIME is a selection of the grammar, as WRITETIME is, and
      // named as written.
      const bool native =
          out->function.find('.') == std::string::npos && out->function != "maxwritetime";
      out->source_text =
          (native ? "system." : "") + out->function + "(" + Join(argument_names, ", ") + ")";
      return true;
    }
    if (IsName()) return ColumnSelector(out);
    if (StartsTerm() || (IsSymbol("-") && IsSignedNumber())) {
      // One term: operators between operands are the selector
      // expression's, so `1 + 2 * a` keeps its precedence.
      Term term;
      if (!UnaryTerm(&term)) return false;
      out->kind = Selector::Kind::kTerm;
      out->term = std::move(term);
      out->source_text = SourceBetween(first, position_);
      return true;
    }
    return NoViable();
  }

  // A column, then any field (u.f), element (c[key]) or slice (c[a..b],
  // c[..b], c[a..]) selections over it, each over the one before.
  bool ColumnSelector(Selector* out) {
    out->kind = Selector::Kind::kColumn;
    if (!Name(&out->column)) return false;
    out->source_text = out->column;
    while (true) {
      if (IsSymbol(".") && IsName(1)) {  // c.field (user types), maybe nested
        Take();
        Selector operand = std::move(*out);
        *out = Selector();
        out->kind = Selector::Kind::kField;
        out->field = Take().value;
        out->source_text = operand.source_text + "." + out->field;
        out->args.push_back(std::move(operand));
        continue;
      }
      if (!AcceptSymbol("[")) break;
      const size_t first = position_;
      Selector collection = std::move(*out);
      *out = Selector();
      out->kind = Selector::Kind::kElement;
      std::string from_text, to_text;
      if (!IsRangeDots()) {
        Term key;
        if (!ParseTerm(&key)) return false;
        out->term = std::move(key);
        from_text = SourceBetween(first, position_);
      }
      if (IsRangeDots()) {
        Take();
        Take();
        out->kind = Selector::Kind::kSlice;
        if (!IsSymbol("]")) {
          const size_t to_first = position_;
          Term end;
          if (!ParseTerm(&end)) return false;
          out->slice_end = std::move(end);
          to_text = SourceBetween(to_first, position_);
        }
      } else if (!out->term) {
        return NoViable();
      }
      // A slice is named from its bounds' text, as Cassandra names it
      // (`m[20 .. 25]` is the column `m[20..25]`).
      out->source_text = collection.source_text + "[" +
                         (out->kind == Selector::Kind::kSlice ? from_text + ".." + to_text
                                                              : SourceBetween(first, position_)) +
                         "]";
      out->args.push_back(std::move(collection));
      if (!ExpectSymbol("]")) return false;
    }
    return true;
  }

  bool IsRangeDots() const { return IsSymbol(".") && IsSymbol(".", 1); }

  // The column an element or slice selector selects from.
  static std::string ColumnUnder(const Selector& selector) {
    const Selector* s = &selector;
    while (!s->args.empty()) s = &s->args[0];
    return s->column;
  }

  // The statement's text from its first token to its last one before the
  // optional ';' (comments around it left out).
  std::string StatementText() const {
    size_t end = position_;  // the kEnd token
    if (end > 0 && tokens_[end - 1].kind == TokenKind::kSymbol && tokens_[end - 1].value == ";") {
      --end;
    }
    return SourceBetween(0, end);
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t position_ = 0;
  int depth_ = 0;
  std::vector<std::string> bind_names_;
  Status error_;
};

}  // namespace

Result<ParsedStatement> ParseStatement(std::string_view text) {
  Result<std::vector<Token>> tokens = Tokenize(text);
  if (!tokens.ok()) return tokens.status();
  if (IsUserTypeStatement(*tokens)) return ParseUserTypeStatement(text, *tokens);
  return Parser(text, std::move(tokens).value()).Run();
}

}  // namespace cassette::cql
