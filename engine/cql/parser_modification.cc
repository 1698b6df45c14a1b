// INSERT, UPDATE, DELETE and BATCH (Parser.g insertStatement,
// updateStatement, deleteStatement, batchStatement), with their USING and IF
// clauses.
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/parser_impl.h"

namespace cassette::cql {

bool Parser::Insert(InsertStatement* s) {
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
bool Parser::JsonValue(Term* out) {
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

bool Parser::Update(UpdateStatement* s) {
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

bool Parser::ParseAssignment(Assignment* a) {
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

bool Parser::Delete(DeleteStatement* s) {
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

bool Parser::Batch(BatchStatement* s) {
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

// USING TTL t AND TIMESTAMP t (either order, either alone).
bool Parser::OptionalUsing(bool allow_ttl, UsingClause* out) {
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

bool Parser::OptionalConditions(bool* if_exists, std::vector<Relation>* conditions) {
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

}  // namespace cassette::cql
