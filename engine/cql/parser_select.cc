// SELECT (Parser.g selectStatement), its selectors and the WHERE relations
// every statement shares. Result column names (Selector::source_text)
// follow Cassandra 4+: a column is its name; WRITETIME(v) / TTL(v) are
// "writetime(v)" / "ttl(v)"; COUNT(*) and COUNT(1) are "count"; a native
// function (aggregates and token() included) is "system.<name>(<args' names
// joined by ', '>)", e.g. "system.avg(v)", "system.todate(system.now())";
// CAST(v AS text) is "cast(v as text)"; a map element is "m['key']"; a
// constant is its text as written.
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/parser_expressions.h"
#include "engine/cql/parser_impl.h"

namespace cassette::cql {

bool Parser::Select(SelectStatement* s) {
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

bool Parser::Relations(std::vector<Relation>* out) {
  do {
    Relation relation;
    if (!ParseRelation(&relation)) return false;
    out->push_back(std::move(relation));
  } while (AcceptKeyword("and"));
  return true;
}

bool Parser::ParseRelation(Relation* r) {
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
bool Parser::ColumnRelation(Relation* r) {
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

bool Parser::RelationValue(Relation* r) {
  Term value;
  if (!ParseTerm(&value)) return false;
  r->value = std::move(value);
  return true;
}

bool Parser::ComparisonOperator(Operator* op) {
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
bool Parser::InValues(Relation* r) {
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

bool Parser::AliasedSelector(Selector* out) {
  if (!UnaliasedSelector(out)) return false;
  if (AcceptKeyword("as")) return Name(&out->alias);
  return true;
}

// A selector with arithmetic (parser_expressions.cc) over operands.
bool Parser::UnaliasedSelector(Selector* out) {
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
bool Parser::IsSignedNumber() const {
  const Token& next = Peek(1);
  return next.kind == TokenKind::kInteger || next.kind == TokenKind::kFloat ||
         next.kind == TokenKind::kDuration ||
         (next.kind == TokenKind::kIdentifier && (next.value == "infinity" || next.value == "nan"));
}

// '(' type ')' operand, '(' selector ')', or a tuple literal.
bool Parser::ParenthesisedSelector(Selector* out) {
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
bool Parser::SelectorOperand(Selector* out) {
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
  // TRUE and FALSE are constants, never a column's name unless quoted:
  // Cassandra's lexer reads them as BOOLEAN before IDENT (Lexer.g), so
  // mask_replace(v, false) passes the constant (ReplaceMaskingFunctionTest).
  const bool boolean_constant =
      token.kind == TokenKind::kIdentifier && (token.value == "true" || token.value == "false");
  if (IsName() && !boolean_constant) return ColumnSelector(out);
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
bool Parser::ColumnSelector(Selector* out) {
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

bool Parser::IsRangeDots() const { return IsSymbol(".") && IsSymbol(".", 1); }

// The column an element or slice selector selects from.
std::string Parser::ColumnUnder(const Selector& selector) {
  const Selector* s = &selector;
  while (!s->args.empty()) s = &s->args[0];
  return s->column;
}

}  // namespace cassette::cql
