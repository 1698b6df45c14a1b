#include "engine/cql/parser.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cassette/cql.h"

namespace cassette::cql {
namespace {

// Parses `text`, which must succeed and produce a T.
template <class T>
T Parse(std::string_view text) {
  Result<ParsedStatement> parsed = ParseStatement(text);
  EXPECT_TRUE(parsed.ok()) << text << "\n" << parsed.status().ToString();
  if (!parsed.ok()) return T();
  EXPECT_TRUE(std::holds_alternative<T>(parsed->statement)) << text;
  if (!std::holds_alternative<T>(parsed->statement)) return T();
  return std::get<T>(parsed->statement);
}

Status ParseError(std::string_view text) {
  Result<ParsedStatement> parsed = ParseStatement(text);
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed.status();
}

void ExpectConstant(const Term& term, Term::Literal literal, std::string_view text) {
  EXPECT_EQ(term.kind, Term::Kind::kConstant);
  EXPECT_EQ(term.literal, literal);
  EXPECT_EQ(term.text, text);
}

// ---------------------------------------------------------------- SELECT

TEST(ParserSelectTest, StarWhereLimit) {
  auto s = Parse<SelectStatement>(
      "SELECT * FROM ks.t WHERE k = 5b6962dd-3f90-4c93-8f61-eabfa4a803e2 AND d = '2024-01-15' "
      "AND c >= 1.5 AND c < 3 LIMIT 1;");
  EXPECT_TRUE(s.star);
  EXPECT_TRUE(s.selectors.empty());
  EXPECT_EQ(s.table.keyspace, "ks");
  EXPECT_EQ(s.table.name, "t");
  ASSERT_EQ(s.where.size(), 4u);
  EXPECT_EQ(s.where[0].target, Relation::Target::kColumn);
  EXPECT_EQ(s.where[0].columns, std::vector<std::string>{"k"});
  EXPECT_EQ(s.where[0].op, Operator::kEq);
  ExpectConstant(*s.where[0].value, Term::Literal::kUuid, "5b6962dd-3f90-4c93-8f61-eabfa4a803e2");
  ExpectConstant(*s.where[1].value, Term::Literal::kString, "2024-01-15");
  EXPECT_EQ(s.where[2].op, Operator::kGe);
  ExpectConstant(*s.where[2].value, Term::Literal::kFloat, "1.5");
  EXPECT_EQ(s.where[3].op, Operator::kLt);
  ASSERT_TRUE(s.limit.has_value());
  ExpectConstant(*s.limit, Term::Literal::kInteger, "1");
  EXPECT_FALSE(s.allow_filtering);
}

TEST(ParserSelectTest, JsonDistinctAndKeywordsAsColumnNames) {
  auto s = Parse<SelectStatement>("select json distinct k from t");
  EXPECT_TRUE(s.json);
  EXPECT_TRUE(s.distinct);
  ASSERT_EQ(s.selectors.size(), 1u);
  EXPECT_EQ(s.selectors[0].column, "k");

  // json, distinct, count, timestamp, date, key, ttl are not reserved.
  auto columns = Parse<SelectStatement>(
      "SELECT json, distinct, count, timestamp, date, key, ttl, value FROM t");
  EXPECT_FALSE(columns.json);
  EXPECT_FALSE(columns.distinct);
  ASSERT_EQ(columns.selectors.size(), 8u);
  EXPECT_EQ(columns.selectors[0].column, "json");
  EXPECT_EQ(columns.selectors[6].kind, Selector::Kind::kColumn);
  EXPECT_EQ(columns.selectors[6].column, "ttl");

  auto json_column = Parse<SelectStatement>("SELECT JSON json FROM t");
  EXPECT_TRUE(json_column.json);
  EXPECT_EQ(json_column.selectors[0].column, "json");
}

TEST(ParserSelectTest, SelectorKindsAndTheirResultNames) {
  auto s = Parse<SelectStatement>(
      "SELECT Reading_Time, \"Quoted\", WRITETIME(v), TTL(v) AS t, token(a, b), COUNT(*), "
      "count(1), count(v), toDate(now()), floor(ts, 1h), CAST(v AS text), 42, 'str', "
      "tags['region'] AS region, system.max(v) FROM t");
  ASSERT_EQ(s.selectors.size(), 15u);
  const std::vector<Selector>& sel = s.selectors;
  EXPECT_EQ(sel[0].kind, Selector::Kind::kColumn);
  EXPECT_EQ(sel[0].column, "reading_time");
  EXPECT_EQ(sel[0].source_text, "reading_time");
  EXPECT_EQ(sel[1].column, "Quoted");
  EXPECT_EQ(sel[1].source_text, "Quoted");
  EXPECT_EQ(sel[2].kind, Selector::Kind::kWritetime);
  EXPECT_EQ(sel[2].column, "v");
  EXPECT_EQ(sel[2].source_text, "writetime(v)");
  EXPECT_EQ(sel[3].kind, Selector::Kind::kTtl);
  EXPECT_EQ(sel[3].alias, "t");
  EXPECT_EQ(sel[3].source_text, "ttl(v)");
  EXPECT_EQ(sel[4].kind, Selector::Kind::kFunction);
  EXPECT_EQ(sel[4].function, "token");
  ASSERT_EQ(sel[4].args.size(), 2u);
  EXPECT_EQ(sel[4].args[1].column, "b");
  EXPECT_EQ(sel[4].source_text, "system.token(a, b)");
  EXPECT_EQ(sel[5].kind, Selector::Kind::kCountStar);
  EXPECT_EQ(sel[5].source_text, "count");
  EXPECT_EQ(sel[6].kind, Selector::Kind::kCountStar);
  EXPECT_EQ(sel[7].kind, Selector::Kind::kFunction);
  EXPECT_EQ(sel[7].function, "count");
  EXPECT_EQ(sel[7].source_text, "system.count(v)");
  EXPECT_EQ(sel[8].function, "todate");
  ASSERT_EQ(sel[8].args.size(), 1u);
  EXPECT_EQ(sel[8].args[0].function, "now");
  EXPECT_EQ(sel[8].source_text, "system.todate(system.now())");
  EXPECT_EQ(sel[9].function, "floor");
  ASSERT_EQ(sel[9].args.size(), 2u);
  EXPECT_EQ(sel[9].args[1].kind, Selector::Kind::kTerm);
  ExpectConstant(*sel[9].args[1].term, Term::Literal::kDuration, "1h");
  EXPECT_EQ(sel[9].source_text, "system.floor(ts, 1h)");
  EXPECT_EQ(sel[10].kind, Selector::Kind::kCast);
  EXPECT_EQ(sel[10].cast_type, "text");
  ASSERT_EQ(sel[10].args.size(), 1u);
  EXPECT_EQ(sel[10].args[0].column, "v");
  EXPECT_EQ(sel[10].source_text, "cast(v as text)");
  EXPECT_EQ(sel[11].kind, Selector::Kind::kTerm);
  EXPECT_EQ(sel[11].source_text, "42");
  EXPECT_EQ(sel[12].source_text, "'str'");
  ExpectConstant(*sel[12].term, Term::Literal::kString, "str");
  EXPECT_EQ(sel[13].kind, Selector::Kind::kElement);
  ASSERT_EQ(sel[13].args.size(), 1u);
  EXPECT_EQ(sel[13].args[0].kind, Selector::Kind::kColumn);
  EXPECT_EQ(sel[13].args[0].column, "tags");
  ASSERT_TRUE(sel[13].term.has_value());
  ExpectConstant(*sel[13].term, Term::Literal::kString, "region");
  EXPECT_EQ(sel[13].alias, "region");
  EXPECT_EQ(sel[13].source_text, "tags['region']");
  EXPECT_EQ(sel[14].function, "max");
  EXPECT_EQ(sel[14].source_text, "system.max(v)");
}

// TRUE and FALSE are boolean constants wherever a selector stands, never
// a column unless quoted (Cassandra's Lexer.g reads BOOLEAN before IDENT;
// ReplaceMaskingFunctionTest.testMaskingOnNative selects
// mask_replace(pk, false)).
TEST(ParserSelectTest, BooleanWordsAreConstantsNotColumns) {
  auto s = Parse<SelectStatement>("SELECT mask_replace(v, FALSE), true, \"false\" FROM t");
  ASSERT_EQ(s.selectors.size(), 3u);
  const Selector& call = s.selectors[0];
  EXPECT_EQ(call.kind, Selector::Kind::kFunction);
  EXPECT_EQ(call.source_text, "system.mask_replace(v, FALSE)");
  ASSERT_EQ(call.args.size(), 2u);
  EXPECT_EQ(call.args[0].kind, Selector::Kind::kColumn);
  ASSERT_EQ(call.args[1].kind, Selector::Kind::kTerm);
  ASSERT_TRUE(call.args[1].term.has_value());
  ExpectConstant(*call.args[1].term, Term::Literal::kBoolean, "false");
  ASSERT_EQ(s.selectors[1].kind, Selector::Kind::kTerm);
  ExpectConstant(*s.selectors[1].term, Term::Literal::kBoolean, "true");
  EXPECT_EQ(s.selectors[2].kind, Selector::Kind::kColumn);
  EXPECT_EQ(s.selectors[2].column, "false");
}

TEST(ParserSelectTest, InListsAndMarkers) {
  auto s = Parse<SelectStatement>(
      "SELECT v FROM t WHERE k IN ('a', 'b', 'c') AND c IN ? AND d IN () AND e IN :names");
  ASSERT_EQ(s.where.size(), 4u);
  EXPECT_EQ(s.where[0].op, Operator::kIn);
  ASSERT_EQ(s.where[0].in_values.size(), 3u);
  ExpectConstant(s.where[0].in_values[2], Term::Literal::kString, "c");
  EXPECT_FALSE(s.where[0].value.has_value());
  EXPECT_EQ(s.where[1].op, Operator::kIn);
  ASSERT_TRUE(s.where[1].value.has_value());
  EXPECT_EQ(s.where[1].value->kind, Term::Kind::kBindMarker);
  EXPECT_EQ(s.where[1].value->bind_index, 0);
  EXPECT_TRUE(s.where[2].in_values.empty());
  EXPECT_FALSE(s.where[2].value.has_value());
  EXPECT_EQ(s.where[3].value->bind_name, "names");
  EXPECT_EQ(s.where[3].value->bind_index, 1);
}

TEST(ParserSelectTest, MultiColumnAndTokenRelations) {
  auto s = Parse<SelectStatement>(
      "SELECT * FROM t WHERE token(a, b) > token('ACME', '2024-06-02') AND (c, d) >= (1, 2) "
      "AND (c, d) < ? AND (c, d) IN ((1, 2), (3, 4)) AND (e) IN ? ALLOW FILTERING");
  ASSERT_EQ(s.where.size(), 5u);
  EXPECT_EQ(s.where[0].target, Relation::Target::kToken);
  EXPECT_EQ(s.where[0].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.where[0].op, Operator::kGt);
  EXPECT_EQ(s.where[0].value->kind, Term::Kind::kFunction);
  EXPECT_EQ(s.where[0].value->text, "token");
  EXPECT_EQ(s.where[0].value->elements.size(), 2u);
  EXPECT_EQ(s.where[1].target, Relation::Target::kTuple);
  EXPECT_EQ(s.where[1].op, Operator::kGe);
  EXPECT_EQ(s.where[1].value->kind, Term::Kind::kTuple);
  ASSERT_EQ(s.where[1].value->elements.size(), 2u);
  ExpectConstant(s.where[1].value->elements[1], Term::Literal::kInteger, "2");
  EXPECT_EQ(s.where[2].value->kind, Term::Kind::kBindMarker);
  EXPECT_EQ(s.where[3].op, Operator::kIn);
  ASSERT_EQ(s.where[3].in_values.size(), 2u);
  EXPECT_EQ(s.where[3].in_values[1].kind, Term::Kind::kTuple);
  EXPECT_EQ(s.where[4].columns, std::vector<std::string>{"e"});
  EXPECT_EQ(s.where[4].value->kind, Term::Kind::kBindMarker);
  EXPECT_TRUE(s.allow_filtering);
}

TEST(ParserSelectTest, FilteringOperators) {
  auto s = Parse<SelectStatement>(
      "SELECT * FROM t WHERE s CONTAINS 'x' AND m CONTAINS KEY 'k' AND m['k'] = 'v' "
      "AND n LIKE 'ab%' AND v IS NOT NULL AND w != 3");
  ASSERT_EQ(s.where.size(), 6u);
  EXPECT_EQ(s.where[0].op, Operator::kContains);
  EXPECT_EQ(s.where[1].op, Operator::kContainsKey);
  EXPECT_EQ(s.where[2].target, Relation::Target::kElement);
  ExpectConstant(*s.where[2].element_key, Term::Literal::kString, "k");
  ExpectConstant(*s.where[2].value, Term::Literal::kString, "v");
  EXPECT_EQ(s.where[3].op, Operator::kLike);
  EXPECT_EQ(s.where[4].op, Operator::kIsNotNull);
  EXPECT_FALSE(s.where[4].value.has_value());
  EXPECT_EQ(s.where[5].op, Operator::kNeq);
}

TEST(ParserSelectTest, GroupOrderPerPartitionLimit) {
  auto s = Parse<SelectStatement>(
      "SELECT k, floor(ts, 1h), max(v) FROM t WHERE k = 1 GROUP BY k, floor(ts, 1h) "
      "ORDER BY c DESC, d ASC, e PER PARTITION LIMIT 2 LIMIT ? ALLOW FILTERING");
  ASSERT_EQ(s.group_by.size(), 2u);
  EXPECT_EQ(s.group_by[0].column, "k");
  EXPECT_EQ(s.group_by[1].kind, Selector::Kind::kFunction);
  EXPECT_EQ(s.group_by[1].function, "floor");
  ASSERT_EQ(s.order_by.size(), 3u);
  EXPECT_EQ(s.order_by[0], (std::pair<std::string, bool>{"c", true}));
  EXPECT_EQ(s.order_by[1], (std::pair<std::string, bool>{"d", false}));
  EXPECT_EQ(s.order_by[2], (std::pair<std::string, bool>{"e", false}));
  ExpectConstant(*s.per_partition_limit, Term::Literal::kInteger, "2");
  EXPECT_EQ(s.limit->kind, Term::Kind::kBindMarker);
  EXPECT_TRUE(s.allow_filtering);
}

TEST(ParserSelectTest, NegativeLimitIsSyntacticallyValid) {
  auto s = Parse<SelectStatement>("SELECT * FROM t LIMIT -1");
  ExpectConstant(*s.limit, Term::Literal::kInteger, "-1");
}

// ---------------------------------------------------------------- terms

TEST(ParserTermTest, Constants) {
  auto s = Parse<InsertStatement>(
      "INSERT INTO t (a, b, c, d, e, f, g, h, i, j, k, l, m, n, o) VALUES (-7, 1.5, -2e10, NaN, "
      "-Infinity, TRUE, false, 0x0102, 1h30m, -P1D, 'it''s', $$dollar$$, NULL, "
      "5b6962dd-3f90-4c93-8f61-eabfa4a803e2, Infinity)");
  ASSERT_EQ(s.values.size(), 15u);
  ExpectConstant(s.values[0], Term::Literal::kInteger, "-7");
  ExpectConstant(s.values[1], Term::Literal::kFloat, "1.5");
  ExpectConstant(s.values[2], Term::Literal::kFloat, "-2e10");
  ExpectConstant(s.values[3], Term::Literal::kFloat, "NaN");
  ExpectConstant(s.values[4], Term::Literal::kFloat, "-Infinity");
  ExpectConstant(s.values[5], Term::Literal::kBoolean, "true");
  ExpectConstant(s.values[6], Term::Literal::kBoolean, "false");
  ExpectConstant(s.values[7], Term::Literal::kHex, "0x0102");
  ExpectConstant(s.values[8], Term::Literal::kDuration, "1h30m");
  ExpectConstant(s.values[9], Term::Literal::kDuration, "-P1D");
  ExpectConstant(s.values[10], Term::Literal::kString, "it's");
  ExpectConstant(s.values[11], Term::Literal::kString, "dollar");
  EXPECT_EQ(s.values[12].kind, Term::Kind::kNull);
  ExpectConstant(s.values[13], Term::Literal::kUuid, "5b6962dd-3f90-4c93-8f61-eabfa4a803e2");
  ExpectConstant(s.values[14], Term::Literal::kFloat, "Infinity");
}

TEST(ParserTermTest, CollectionsTuplesHintsFunctionsAndArithmetic) {
  auto s = Parse<InsertStatement>(
      "INSERT INTO t (a, b, c, d, e, f, g, h, i) VALUES ([1, 2], {'x', 'y'}, {'k': 1, 'l': 2}, "
      "{}, (1, 'a'), (int) ?, toTimestamp(now()), toTimestamp(now()) - 1h, -(bigint) ?)");
  ASSERT_EQ(s.values.size(), 9u);
  EXPECT_EQ(s.values[0].kind, Term::Kind::kList);
  EXPECT_EQ(s.values[0].elements.size(), 2u);
  EXPECT_EQ(s.values[1].kind, Term::Kind::kSet);
  EXPECT_EQ(s.values[2].kind, Term::Kind::kMap);
  ASSERT_EQ(s.values[2].elements.size(), 4u);  // alternating key, value
  ExpectConstant(s.values[2].elements[2], Term::Literal::kString, "l");
  ExpectConstant(s.values[2].elements[3], Term::Literal::kInteger, "2");
  EXPECT_EQ(s.values[3].kind, Term::Kind::kEmptyBraces);
  EXPECT_EQ(s.values[4].kind, Term::Kind::kTuple);
  EXPECT_EQ(s.values[5].kind, Term::Kind::kTypeHint);
  EXPECT_EQ(s.values[5].text, "int");
  EXPECT_EQ(s.values[5].elements[0].kind, Term::Kind::kBindMarker);
  EXPECT_EQ(s.values[6].kind, Term::Kind::kFunction);
  EXPECT_EQ(s.values[6].text, "totimestamp");
  ASSERT_EQ(s.values[6].elements.size(), 1u);
  EXPECT_EQ(s.values[6].elements[0].text, "now");
  EXPECT_EQ(s.values[7].kind, Term::Kind::kArithmetic);
  EXPECT_EQ(s.values[7].text, "-");
  ASSERT_EQ(s.values[7].elements.size(), 2u);
  ExpectConstant(s.values[7].elements[1], Term::Literal::kDuration, "1h");
  EXPECT_EQ(s.values[8].kind, Term::Kind::kNegate);
  EXPECT_EQ(s.values[8].elements[0].kind, Term::Kind::kTypeHint);
}

TEST(ParserTermTest, ArithmeticPrecedence) {
  auto s = Parse<SelectStatement>("SELECT * FROM t WHERE k = 1 + 2 * 3 - 4");
  const Term& term = *s.where[0].value;
  // ((1 + (2 * 3)) - 4)
  EXPECT_EQ(term.kind, Term::Kind::kArithmetic);
  EXPECT_EQ(term.text, "-");
  EXPECT_EQ(term.elements[0].text, "+");
  EXPECT_EQ(term.elements[0].elements[1].text, "*");
  EXPECT_EQ(Parse<SelectStatement>("SELECT * FROM t WHERE k = 7 % 2 / 1").where[0].value->text,
            "/");
}

TEST(ParserTermTest, BindMarkersAreNumberedInTextOrder) {
  Result<ParsedStatement> parsed = ParseStatement(
      "UPDATE t USING TTL ? SET v = :val, m[?] = ? WHERE k = :key AND c IN (?, ?) IF v = ?");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->bind_marker_count, 8);
  EXPECT_EQ(parsed->bind_names, (std::vector<std::string>{"", "val", "", "", "key", "", "", ""}));
  const auto& u = std::get<UpdateStatement>(parsed->statement);
  EXPECT_EQ(u.using_clause.ttl->bind_index, 0);
  EXPECT_EQ(u.assignments[0].value.bind_index, 1);
  EXPECT_EQ(u.assignments[1].key->bind_index, 2);
  EXPECT_EQ(u.assignments[1].value.bind_index, 3);
  EXPECT_EQ(u.where[0].value->bind_index, 4);
  EXPECT_EQ(u.where[1].in_values[1].bind_index, 6);
  EXPECT_EQ(u.conditions[0].value->bind_index, 7);
}

TEST(ParserTermTest, StatementTextLeavesOutSemicolonAndComments) {
  Result<ParsedStatement> parsed = ParseStatement("  -- lead\n SELECT * FROM t ; -- trail");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->text, "SELECT * FROM t");
  EXPECT_EQ(parsed->bind_marker_count, 0);
}

// ---------------------------------------------------------------- INSERT

TEST(ParserInsertTest, ValuesIfNotExistsUsing) {
  auto s = Parse<InsertStatement>(
      "INSERT INTO ks.t (k, \"C\", v) VALUES (1, 2, 'x') IF NOT EXISTS USING TTL 86400 AND "
      "TIMESTAMP 123");
  EXPECT_EQ(s.table.keyspace, "ks");
  EXPECT_EQ(s.columns, (std::vector<std::string>{"k", "C", "v"}));
  EXPECT_EQ(s.values.size(), 3u);
  EXPECT_TRUE(s.if_not_exists);
  ExpectConstant(*s.using_clause.ttl, Term::Literal::kInteger, "86400");
  ExpectConstant(*s.using_clause.timestamp, Term::Literal::kInteger, "123");
  EXPECT_FALSE(s.json);

  auto reversed =
      Parse<InsertStatement>("INSERT INTO t (k) VALUES (1) USING TIMESTAMP 5 AND TTL 7");
  ExpectConstant(*reversed.using_clause.ttl, Term::Literal::kInteger, "7");
  ExpectConstant(*reversed.using_clause.timestamp, Term::Literal::kInteger, "5");
}

TEST(ParserInsertTest, Json) {
  auto s = Parse<InsertStatement>("INSERT INTO t JSON '{\"k\": 1}'");
  EXPECT_TRUE(s.json);
  ExpectConstant(*s.json_value, Term::Literal::kString, "{\"k\": 1}");
  EXPECT_FALSE(s.json_default_unset);

  auto unset = Parse<InsertStatement>("INSERT INTO t JSON ? DEFAULT UNSET IF NOT EXISTS");
  EXPECT_EQ(unset.json_value->kind, Term::Kind::kBindMarker);
  EXPECT_TRUE(unset.json_default_unset);
  EXPECT_TRUE(unset.if_not_exists);

  auto null = Parse<InsertStatement>("INSERT INTO t JSON '{}' DEFAULT NULL USING TTL 5");
  EXPECT_FALSE(null.json_default_unset);
  EXPECT_TRUE(null.using_clause.ttl.has_value());
}

// ---------------------------------------------------------------- UPDATE

TEST(ParserUpdateTest, AssignmentKinds) {
  auto s = Parse<UpdateStatement>(
      "UPDATE t USING TTL 3600 AND TIMESTAMP 9 SET a = 1, m['k'] = 'v', s = s + {'x'}, "
      "s = s - {'y'}, l = [0] + l, c = c + 5, c = c -5, l[2] = 7 WHERE k = 1 AND c2 = 2");
  ASSERT_EQ(s.assignments.size(), 8u);
  EXPECT_EQ(s.assignments[0].kind, Assignment::Kind::kSet);
  EXPECT_EQ(s.assignments[0].column, "a");
  EXPECT_EQ(s.assignments[1].kind, Assignment::Kind::kSetElement);
  ExpectConstant(*s.assignments[1].key, Term::Literal::kString, "k");
  ExpectConstant(s.assignments[1].value, Term::Literal::kString, "v");
  EXPECT_EQ(s.assignments[2].kind, Assignment::Kind::kAdd);
  EXPECT_EQ(s.assignments[2].value.kind, Term::Kind::kSet);
  EXPECT_EQ(s.assignments[3].kind, Assignment::Kind::kSubtract);
  EXPECT_EQ(s.assignments[4].kind, Assignment::Kind::kPrepend);
  EXPECT_EQ(s.assignments[4].value.kind, Term::Kind::kList);
  EXPECT_EQ(s.assignments[5].kind, Assignment::Kind::kAdd);
  ExpectConstant(s.assignments[5].value, Term::Literal::kInteger, "5");
  EXPECT_EQ(s.assignments[6].kind, Assignment::Kind::kSubtract);
  ExpectConstant(s.assignments[6].value, Term::Literal::kInteger, "5");
  EXPECT_EQ(s.assignments[7].kind, Assignment::Kind::kSetElement);
  EXPECT_TRUE(s.using_clause.ttl.has_value());
  EXPECT_TRUE(s.using_clause.timestamp.has_value());
  EXPECT_EQ(s.where.size(), 2u);
  EXPECT_FALSE(s.if_exists);
}

TEST(ParserUpdateTest, AssignmentOfAFunctionCallIsASet) {
  auto s = Parse<UpdateStatement>("UPDATE t SET last = toTimestamp(now()) WHERE k = 1");
  EXPECT_EQ(s.assignments[0].kind, Assignment::Kind::kSet);
  EXPECT_EQ(s.assignments[0].value.kind, Term::Kind::kFunction);
  // Another column alone is not a value.
  EXPECT_EQ(ParseError("UPDATE t SET v = v2 WHERE k = 1").code(), Status::Code::kSyntaxError);
}

TEST(ParserUpdateTest, OtherColumnInAnOperationIsInvalid) {
  Status status = ParseError("UPDATE t SET a = b + 1 WHERE k = 1");
  EXPECT_EQ(status.code(), Status::Code::kInvalidRequest);
  EXPECT_EQ(status.message(), "Only expressions of the form X = X + <value> are supported.");
  Status prepend = ParseError("UPDATE t SET a = [1] + b WHERE k = 1");
  EXPECT_EQ(prepend.message(), "Only expressions of the form X = <value> + X are supported.");
}

TEST(ParserUpdateTest, Conditions) {
  auto exists = Parse<UpdateStatement>("UPDATE t SET v = 1 WHERE k = 1 IF EXISTS");
  EXPECT_TRUE(exists.if_exists);
  auto s = Parse<UpdateStatement>(
      "UPDATE t SET v = 1 WHERE k = 1 IF current_status = 'ok' AND m['k'] = 'v' AND "
      "a IN (1, 2) AND b != 3 AND c > 4");
  ASSERT_EQ(s.conditions.size(), 5u);
  EXPECT_EQ(s.conditions[0].columns[0], "current_status");
  EXPECT_EQ(s.conditions[1].target, Relation::Target::kElement);
  EXPECT_EQ(s.conditions[2].op, Operator::kIn);
  EXPECT_EQ(s.conditions[2].in_values.size(), 2u);
  EXPECT_EQ(s.conditions[3].op, Operator::kNeq);
  EXPECT_EQ(s.conditions[4].op, Operator::kGt);
}

// ---------------------------------------------------------------- DELETE

TEST(ParserDeleteTest, Forms) {
  auto row = Parse<DeleteStatement>("DELETE FROM t USING TIMESTAMP 5 WHERE k = 1 AND c > 2");
  EXPECT_TRUE(row.targets.empty());
  ExpectConstant(*row.using_clause.timestamp, Term::Literal::kInteger, "5");
  EXPECT_EQ(row.where.size(), 2u);
  EXPECT_EQ(row.where[1].op, Operator::kGt);

  auto columns = Parse<DeleteStatement>("DELETE v, m['k'], l[0] FROM ks.t WHERE k = 1 IF EXISTS");
  ASSERT_EQ(columns.targets.size(), 3u);
  EXPECT_EQ(columns.targets[0].column, "v");
  EXPECT_FALSE(columns.targets[0].element.has_value());
  ExpectConstant(*columns.targets[1].element, Term::Literal::kString, "k");
  EXPECT_TRUE(columns.if_exists);

  auto conditional = Parse<DeleteStatement>("DELETE FROM t WHERE k = 1 IF v = 3 AND w IN (1)");
  EXPECT_EQ(conditional.conditions.size(), 2u);
}

TEST(ParserDeleteTest, TtlIsASyntaxError) {
  Status status = ParseError("DELETE FROM t USING TTL 5 WHERE k = 1");
  EXPECT_EQ(status.code(), Status::Code::kSyntaxError);
  EXPECT_EQ(status.message(), "line 1:20 mismatched input 'TTL' expecting K_TIMESTAMP");
}

// ---------------------------------------------------------------- BATCH

TEST(ParserBatchTest, Forms) {
  auto logged = Parse<BatchStatement>(
      "BEGIN BATCH USING TIMESTAMP 7 INSERT INTO t (k) VALUES (1); UPDATE t SET v = 2 WHERE k = 1;"
      " DELETE FROM t WHERE k = 3 APPLY BATCH;");
  EXPECT_EQ(logged.type, BatchStatement::Type::kLogged);
  ExpectConstant(*logged.using_clause.timestamp, Term::Literal::kInteger, "7");
  ASSERT_EQ(logged.statements.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<InsertStatement>(logged.statements[0]));
  EXPECT_TRUE(std::holds_alternative<UpdateStatement>(logged.statements[1]));
  EXPECT_TRUE(std::holds_alternative<DeleteStatement>(logged.statements[2]));

  EXPECT_EQ(Parse<BatchStatement>("BEGIN UNLOGGED BATCH APPLY BATCH").type,
            BatchStatement::Type::kUnlogged);
  EXPECT_EQ(Parse<BatchStatement>("begin counter batch update t set c = c + 1 where k = 1 "
                                  "apply batch")
                .type,
            BatchStatement::Type::kCounter);
  EXPECT_EQ(Parse<BatchStatement>("BEGIN LOGGED BATCH APPLY BATCH").type,
            BatchStatement::Type::kLogged);
}

TEST(ParserBatchTest, MarkersCountAcrossTheBatch) {
  Result<ParsedStatement> parsed = ParseStatement(
      "BEGIN BATCH INSERT INTO t (k, v) VALUES (?, ?); UPDATE t SET v = ? WHERE k = ? APPLY BATCH");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->bind_marker_count, 4);
}

TEST(ParserBatchTest, OnlyModificationsInside) {
  Status status = ParseError("BEGIN BATCH SELECT * FROM t APPLY BATCH");
  EXPECT_EQ(status.message(), "line 1:12 no viable alternative at input 'SELECT'");
  EXPECT_EQ(ParseError("BEGIN BATCH INSERT INTO t (k) VALUES (1)").message(),
            "line 1:40 mismatched input '<EOF>' expecting K_APPLY");
}

// ---------------------------------------------------------------- keyspaces

TEST(ParserKeyspaceTest, CreateAlterDrop) {
  auto create = Parse<CreateKeyspaceStatement>(
      "CREATE KEYSPACE IF NOT EXISTS iot WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1} AND durable_writes = true");
  EXPECT_EQ(create.keyspace, "iot");
  EXPECT_TRUE(create.if_not_exists);
  ASSERT_EQ(create.properties.size(), 2u);
  EXPECT_EQ(create.properties[0].name, "replication");
  EXPECT_TRUE(create.properties[0].is_map);
  EXPECT_EQ(create.properties[0].map,
            (std::vector<std::pair<std::string, std::string>>{{"class", "SimpleStrategy"},
                                                              {"replication_factor", "1"}}));
  EXPECT_EQ(create.properties[1].name, "durable_writes");
  EXPECT_FALSE(create.properties[1].is_map);
  EXPECT_EQ(create.properties[1].value, "true");

  auto alter = Parse<AlterKeyspaceStatement>("ALTER KEYSPACE \"Ks\" WITH durable_writes = false");
  EXPECT_EQ(alter.keyspace, "Ks");
  EXPECT_EQ(alter.properties[0].value, "false");

  auto drop = Parse<DropKeyspaceStatement>("DROP KEYSPACE IF EXISTS iot");
  EXPECT_TRUE(drop.if_exists);
  EXPECT_EQ(drop.keyspace, "iot");
  EXPECT_FALSE(Parse<DropKeyspaceStatement>("DROP KEYSPACE iot").if_exists);
}

// ---------------------------------------------------------------- tables

TEST(ParserCreateTableTest, InlinePrimaryKey) {
  auto s = Parse<CreateTableStatement>("CREATE TABLE t (k int PRIMARY KEY, v text)");
  EXPECT_EQ(s.partition_key, std::vector<std::string>{"k"});
  EXPECT_TRUE(s.clustering.empty());
  ASSERT_EQ(s.columns.size(), 2u);
  EXPECT_EQ(s.columns[0].type, "int");
  EXPECT_EQ(s.columns[1].name, "v");
}

TEST(ParserCreateTableTest, PrimaryKeyForms) {
  auto single = Parse<CreateTableStatement>("CREATE TABLE t (k int, v int, PRIMARY KEY (k))");
  EXPECT_EQ(single.partition_key, std::vector<std::string>{"k"});
  auto clustered =
      Parse<CreateTableStatement>("CREATE TABLE t (k int, c int, d int, PRIMARY KEY (k, c, d))");
  EXPECT_EQ(clustered.partition_key, std::vector<std::string>{"k"});
  EXPECT_EQ(clustered.clustering, (std::vector<std::string>{"c", "d"}));
  auto composite = Parse<CreateTableStatement>(
      "CREATE TABLE IF NOT EXISTS ks.t (a int, b int, c int, d int, s text STATIC, "
      "PRIMARY KEY ((a, b), c, d))");
  EXPECT_TRUE(composite.if_not_exists);
  EXPECT_EQ(composite.table.keyspace, "ks");
  EXPECT_EQ(composite.partition_key, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(composite.clustering, (std::vector<std::string>{"c", "d"}));
  EXPECT_TRUE(composite.columns[4].is_static);
  auto parenthesised_single =
      Parse<CreateTableStatement>("CREATE TABLE t (k int, c int, PRIMARY KEY ((k), c))");
  EXPECT_EQ(parenthesised_single.partition_key, std::vector<std::string>{"k"});
  EXPECT_EQ(parenthesised_single.clustering, std::vector<std::string>{"c"});
}

TEST(ParserCreateTableTest, TwoPrimaryKeysAreInvalid) {
  Status status = ParseError("CREATE TABLE t (k int PRIMARY KEY, v int, PRIMARY KEY (v))");
  EXPECT_EQ(status.code(), Status::Code::kInvalidRequest);
  EXPECT_EQ(status.message(), "Multiple PRIMARY KEYs specified (exactly one required)");
}

TEST(ParserCreateTableTest, TypesAreNormalised) {
  auto s = Parse<CreateTableStatement>(
      "CREATE TABLE t (k INT PRIMARY KEY, a frozen<map<TEXT,int>>, b list<frozen<set<uuid>>>, "
      "c tuple<int, text, frozen<list<int>>>, d map<text, frozen<tuple<int,int>>>, e \"MyType\", "
      "f vector<float, 3>, g varchar, h counter, i duration)");
  ASSERT_EQ(s.columns.size(), 10u);
  EXPECT_EQ(s.columns[0].type, "int");
  EXPECT_EQ(s.columns[1].type, "frozen<map<text, int>>");
  EXPECT_EQ(s.columns[2].type, "list<frozen<set<uuid>>>");
  EXPECT_EQ(s.columns[3].type, "tuple<int, text, frozen<list<int>>>");
  EXPECT_EQ(s.columns[4].type, "map<text, frozen<tuple<int, int>>>");
  EXPECT_EQ(s.columns[5].type, "MyType");
  EXPECT_EQ(s.columns[6].type, "vector<float, 3>");
  EXPECT_EQ(s.columns[7].type, "varchar");
}

TEST(ParserCreateTableTest, Options) {
  auto s = Parse<CreateTableStatement>(
      "CREATE TABLE t (k int, c int, d int, v int, PRIMARY KEY (k, c, d)) "
      "WITH CLUSTERING ORDER BY (c DESC, d ASC) AND COMPACT STORAGE "
      "AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_size': 1} "
      "AND default_time_to_live = 604800 AND comment = 'hi' AND bloom_filter_fp_chance = 0.01 "
      "AND cdc = false AND speculative_retry = '99p' AND caching = {}");
  EXPECT_EQ(s.clustering_order,
            (std::vector<std::pair<std::string, bool>>{{"c", true}, {"d", false}}));
  EXPECT_TRUE(s.compact_storage);
  ASSERT_EQ(s.properties.size(), 7u);
  EXPECT_EQ(s.properties[0].name, "compaction");
  EXPECT_EQ(s.properties[0].map[1],
            (std::pair<std::string, std::string>{"compaction_window_size", "1"}));
  EXPECT_EQ(s.properties[1].value, "604800");
  EXPECT_EQ(s.properties[2].value, "hi");
  EXPECT_EQ(s.properties[3].value, "0.01");
  EXPECT_EQ(s.properties[4].value, "false");
  EXPECT_EQ(s.properties[5].value, "99p");
  EXPECT_TRUE(s.properties[6].is_map);
  EXPECT_TRUE(s.properties[6].map.empty());
}

TEST(ParserAlterTableTest, Forms) {
  auto add = Parse<AlterTableStatement>("ALTER TABLE ks.t ADD v text");
  EXPECT_EQ(add.kind, AlterTableStatement::Kind::kAdd);
  ASSERT_EQ(add.add.size(), 1u);
  EXPECT_EQ(add.add[0].name, "v");
  EXPECT_EQ(add.add[0].type, "text");
  auto add_many = Parse<AlterTableStatement>("ALTER TABLE t ADD (a int, s set<int> STATIC)");
  ASSERT_EQ(add_many.add.size(), 2u);
  EXPECT_TRUE(add_many.add[1].is_static);
  EXPECT_EQ(add_many.add[1].type, "set<int>");

  auto drop = Parse<AlterTableStatement>("ALTER TABLE t DROP v");
  EXPECT_EQ(drop.kind, AlterTableStatement::Kind::kDrop);
  EXPECT_EQ(drop.drop, std::vector<std::string>{"v"});
  EXPECT_FALSE(drop.using_clause.has_value());
  auto drop_many = Parse<AlterTableStatement>("ALTER TABLE t DROP (a, b) USING TIMESTAMP 5");
  EXPECT_EQ(drop_many.drop, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(drop_many.using_clause.has_value());
  EXPECT_TRUE(drop_many.using_clause->timestamp.has_value());

  auto with = Parse<AlterTableStatement>(
      "ALTER TABLE t WITH gc_grace_seconds = 3600 AND compaction = {'class': "
      "'LeveledCompactionStrategy'}");
  EXPECT_EQ(with.kind, AlterTableStatement::Kind::kWith);
  EXPECT_EQ(with.properties.size(), 2u);

  auto rename = Parse<AlterTableStatement>("ALTER TABLE t RENAME a TO b AND c TO d");
  EXPECT_EQ(rename.kind, AlterTableStatement::Kind::kRename);
  EXPECT_EQ(rename.rename,
            (std::vector<std::pair<std::string, std::string>>{{"a", "b"}, {"c", "d"}}));

  auto alter_type = Parse<AlterTableStatement>("ALTER TABLE t ALTER v TYPE blob");
  EXPECT_EQ(alter_type.kind, AlterTableStatement::Kind::kAlterType);
  EXPECT_EQ(alter_type.add[0].type, "blob");
}

TEST(ParserTableTest, DropTruncateUse) {
  auto drop = Parse<DropTableStatement>("DROP TABLE IF EXISTS ks.t");
  EXPECT_TRUE(drop.if_exists);
  EXPECT_EQ(drop.table.name, "t");
  EXPECT_EQ(Parse<DropTableStatement>("drop columnfamily t").table.name, "t");
  EXPECT_EQ(Parse<TruncateStatement>("TRUNCATE TABLE ks.t").table.keyspace, "ks");
  EXPECT_EQ(Parse<TruncateStatement>("TRUNCATE t").table.name, "t");
  EXPECT_EQ(Parse<UseStatement>("USE Iot").keyspace, "iot");
  EXPECT_EQ(Parse<UseStatement>("USE \"Iot\";").keyspace, "Iot");
}

TEST(ParserDescribeTest, Forms) {
  using Kind = DescribeStatement::Kind;
  EXPECT_EQ(Parse<DescribeStatement>("DESCRIBE KEYSPACES").kind, Kind::kKeyspaces);
  EXPECT_EQ(Parse<DescribeStatement>("DESC TABLES").kind, Kind::kTables);
  EXPECT_EQ(Parse<DescribeStatement>("DESC SCHEMA").kind, Kind::kSchema);
  EXPECT_EQ(Parse<DescribeStatement>("DESC FULL SCHEMA").kind, Kind::kSchema);
  auto current = Parse<DescribeStatement>("DESCRIBE KEYSPACE");
  EXPECT_EQ(current.kind, Kind::kKeyspace);
  EXPECT_TRUE(current.keyspace.empty());
  EXPECT_EQ(Parse<DescribeStatement>("DESC KEYSPACE iot").keyspace, "iot");
  auto table = Parse<DescribeStatement>("DESC TABLE ks.t");
  EXPECT_EQ(table.kind, Kind::kTable);
  EXPECT_EQ(table.table.keyspace, "ks");
  EXPECT_FALSE(table.keyspace_or_table);
  auto bare = Parse<DescribeStatement>("DESCRIBE t");
  EXPECT_EQ(bare.kind, Kind::kTable);
  EXPECT_TRUE(bare.keyspace_or_table);
  EXPECT_EQ(bare.table.name, "t");
  EXPECT_FALSE(Parse<DescribeStatement>("DESCRIBE ks.t").keyspace_or_table);
}

// ---------------------------------------------------------------- errors

TEST(ParserErrorTest, MessagesHaveAntlrShape) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"SELECT * FORM t", "line 1:9 mismatched input 'FORM' expecting K_FROM"},
      {"SELEC * FROM t", "line 1:0 no viable alternative at input 'SELEC'"},
      {"SELECT FROM t", "line 1:7 no viable alternative at input 'FROM'"},
      {"SELECT * FROM", "line 1:13 no viable alternative at input '<EOF>'"},
      {"SELECT * FROM t WHERE", "line 1:21 no viable alternative at input '<EOF>'"},
      {"SELECT * FROM t WHERE k == 1", "line 1:25 no viable alternative at input '='"},
      {"SELECT * FROM t LIMIT 1.5", "line 1:22 no viable alternative at input '1.5'"},
      {"SELECT * FROM t extra", "line 1:16 mismatched input 'extra' expecting EOF"},
      {"SELECT * FROM t; SELECT", "line 1:17 mismatched input 'SELECT' expecting EOF"},
      {"INSERT INTO t (k) VALUE (1)", "line 1:18 mismatched input 'VALUE' expecting K_VALUES"},
      {"INSERT INTO t (k, v) VALUES (1, 2", "line 1:33 mismatched input '<EOF>' expecting ')'"},
      {"CREATE TABLE t (k int PRIMARY KEY,\n  v int\n  w int)",
       "line 3:2 mismatched input 'w' expecting ')'"},
      {"CREATE TABLE t (k map<int> PRIMARY KEY)", "line 1:25 mismatched input '>' expecting ','"},
      {"CREATE INDEX i ON t (v)", "line 1:7 no viable alternative at input 'INDEX'"},
      {"UPDATE t SET WHERE k = 1", "line 1:13 no viable alternative at input 'WHERE'"},
      {"", "line 1:0 no viable alternative at input '<EOF>'"},
      {"SELECT * FROM t WHERE k = @", "line 1:26 no viable alternative at character '@'"},
  };
  for (const Case& c : cases) {
    Status status = ParseError(c.text);
    EXPECT_EQ(status.code(), Status::Code::kSyntaxError) << c.text;
    EXPECT_EQ(status.message(), c.message) << c.text;
  }
}

TEST(ParserErrorTest, OnlyCountOfOne) {
  Status status = ParseError("SELECT COUNT(2) FROM t");
  EXPECT_EQ(status.code(), Status::Code::kSyntaxError);
  EXPECT_EQ(status.message(), "Only COUNT(1) is supported, got COUNT(2)");
}

TEST(ParserErrorTest, ReservedWordsNeedQuotes) {
  EXPECT_FALSE(ParseStatement("CREATE TABLE t (select int PRIMARY KEY)").ok());
  EXPECT_TRUE(ParseStatement("CREATE TABLE t (\"select\" int PRIMARY KEY)").ok());
  EXPECT_FALSE(ParseStatement("SELECT * FROM t WHERE limit = 1").ok());
  // DEFAULT is reserved too (INSERT JSON ... DEFAULT UNSET), as DESCRIBE
  // already treated it.
  EXPECT_FALSE(ParseStatement("CREATE TABLE t (default int PRIMARY KEY)").ok());
  EXPECT_TRUE(ParseStatement("CREATE TABLE t (\"default\" int PRIMARY KEY)").ok());
}

TEST(ParserErrorTest, DeepNestingAndGarbageDoNotCrash) {
  std::string nested = "SELECT * FROM t WHERE k = ";
  for (int i = 0; i < 5000; ++i) nested += "[";
  EXPECT_FALSE(ParseStatement(nested).ok());
  std::string nested_selector = "SELECT ";
  for (int i = 0; i < 5000; ++i) nested_selector += "f(";
  EXPECT_FALSE(ParseStatement(nested_selector).ok());
  std::string nested_type = "CREATE TABLE t (k ";
  for (int i = 0; i < 5000; ++i) nested_type += "list<";
  EXPECT_FALSE(ParseStatement(nested_type).ok());
  for (const char* text : {"(", ")", "{", "SELECT (", "INSERT INTO t JSON", "BEGIN", "DESC",
                           "UPDATE t SET a[", "SELECT count(", "SELECT cast(v AS", ";", "?"}) {
    EXPECT_FALSE(ParseStatement(text).ok()) << text;
  }
}

// ---------------------------------------------------------------- examples

bool IsShellDirective(std::string_view statement) {
  std::string first;
  for (char c : statement) {
    if (std::isspace(static_cast<unsigned char>(c))) break;
    first.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  for (const char* directive : {"FLUSH", "COMPACT", "CLOCK", "SOURCE", "TRACING", "PAGING",
                                "EXPAND", "CONSISTENCY", "SERIAL", "CAPTURE", "EXIT", "QUIT"}) {
    if (first == directive) return true;
  }
  return false;
}

// The playbook example scripts kept in tests/tools/testdata/examples.
TEST(ParserExamplesTest, EveryStatementOfThePlaybookExamplesParses) {
  const char* source_dir = std::getenv("CASSETTE_SOURCE_DIR");
  const std::filesystem::path examples =
      std::filesystem::path(source_dir != nullptr ? source_dir : CASSETTE_SOURCE_DIR) / "tests" /
      "tools" / "testdata" / "examples";
  int scripts = 0, parsed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(examples)) {
    if (entry.path().extension() != ".cql") continue;
    ++scripts;
    std::ifstream in(entry.path());
    std::stringstream content;
    content << in.rdbuf();
    std::string rest;
    for (const std::string& statement : SplitCqlStatements(content.str(), &rest)) {
      if (IsShellDirective(statement)) continue;
      Result<ParsedStatement> result = ParseStatement(statement);
      EXPECT_TRUE(result.ok()) << entry.path() << ": " << statement << "\n"
                               << result.status().ToString();
      ++parsed;
    }
    EXPECT_EQ(rest, "") << entry.path();
  }
  EXPECT_GT(scripts, 0);
  EXPECT_GT(parsed, scripts);
}

}  // namespace
}  // namespace cassette::cql
