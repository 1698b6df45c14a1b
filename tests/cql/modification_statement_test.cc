// INSERT, UPDATE, DELETE and BATCH through CqlSession, read back with
// Database::Read: every statement form, Cassandra's error messages, TTL and
// timestamps, INSERT JSON, counters, lightweight transactions and their
// [applied] rows, and batch atomicity.
#include "engine/cql/modification_statement.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"

namespace cassette::cql {
namespace {

constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01T00:00:00Z
constexpr auto kInvalid = Status::Code::kInvalidRequest;

class ModificationStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.file_system = NewMemFileSystem();
    clock_ = std::make_shared<ManualClock>(kStartMicros);
    options.clock = clock_;
    options.scheduler = std::make_shared<ManualScheduler>();
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    ASSERT_TRUE(db_->CreateKeyspace({.name = "ks"}).ok());
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Int())
        .AddClustering("c", DataType::Int())
        .AddRegular("v", DataType::Int())
        .AddStatic("s", DataType::Int())
        .AddRegular("m", DataType::Map(DataType::Text(), DataType::Int()))
        .AddRegular("l", DataType::List(DataType::Int()))
        .AddRegular("st", DataType::Set(DataType::Text()));
    ASSERT_TRUE(db_->CreateTable(t).ok());
    TableSchema t2("ks", "t2");
    t2.AddPartitionKey("a", DataType::Int())
        .AddPartitionKey("b", DataType::Int())
        .AddClustering("c1", DataType::Int())
        .AddClustering("c2", DataType::Int())
        .AddRegular("v", DataType::Text());
    ASSERT_TRUE(db_->CreateTable(t2).ok());
    TableSchema counters("ks", "counters");
    counters.AddPartitionKey("k", DataType::Int())
        .AddRegular("hits", DataType::Counter())
        .AddRegular("misses", DataType::Counter());
    ASSERT_TRUE(db_->CreateTable(counters).ok());
    TableSchema kv("ks", "kv");
    kv.AddPartitionKey("k", DataType::Int())
        .AddRegular("v", DataType::Int())
        .AddRegular("ts", DataType::Timestamp())
        .AddRegular("b", DataType::Blob())
        .AddRegular("f", DataType::List(DataType::Int(), /*frozen=*/true))
        .AddRegular("Name", DataType::Text());
    ASSERT_TRUE(db_->CreateTable(kv).ok());
    session_ = std::make_unique<CqlSession>(db_.get());
    Run("USE ks");
  }

  CqlResult Run(const std::string& cql, const std::vector<Value>& values = {}) {
    auto result = session_->Execute(cql, values);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    return result.ok() ? std::move(result).value() : CqlResult{};
  }

  void ExpectError(const std::string& cql, const std::string& message,
                   Status::Code code = kInvalid) {
    auto result = session_->Execute(cql);
    ASSERT_FALSE(result.ok()) << cql;
    EXPECT_EQ(result.status().code(), code) << cql << "\n" << result.status().ToString();
    EXPECT_EQ(result.status().message(), message) << cql;
  }

  // Rows of a partition of `table` as "v1,v2;v1,v2" (SELECT * order, or `columns`).
  std::string Rows(const std::string& table, std::vector<Value> key,
                   std::vector<std::string> columns = {}) {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = table;
    query.partition_keys = {std::move(key)};
    query.columns = std::move(columns);
    auto result = db_->Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok()) return "<error>";
    return Render(result->rows);
  }
  std::string Rows(int k, std::vector<std::string> columns = {}) {
    return Rows("t", {Value::Int(k)}, std::move(columns));
  }

  static std::string Render(const std::vector<ResultRow>& rows) {
    std::string out;
    for (const ResultRow& row : rows) {
      if (!out.empty()) out += ";";
      for (size_t i = 0; i < row.values.size(); ++i) {
        out += (i ? "," : "") + row.values[i].ToString();
      }
    }
    return out;
  }
  static std::string Render(const CqlResult& result) {
    std::string out;
    for (const ColumnSpec& c : result.columns) out += (out.empty() ? "" : ",") + c.name;
    for (const std::vector<Value>& row : result.rows) {
      out += "|";
      for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + row[i].ToString();
    }
    return out;
  }

  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
};

// SELECT * order of ks.t: k, c, s, l, m, st, v.

TEST_F(ModificationStatementTest, InsertValuesWritesTheRow) {
  Run("INSERT INTO t (k, c, v) VALUES (1, 2, 3)");
  EXPECT_EQ(Rows(1, {"k", "c", "v"}), "1,2,3");
  // A row inserted with its key only stays visible (row marker).
  Run("INSERT INTO ks.t (k, c) VALUES (1, 5)");
  EXPECT_EQ(Rows(1, {"c", "v"}), "2,3;5,null");
  // Collections and a static column.
  Run("INSERT INTO t (k, c, s, m, l, st) VALUES (2, 1, 9, {'a': 1}, [3, 1], {'x', 'y'})");
  EXPECT_EQ(Rows(2), "2,1,9,[3, 1],{'a': 1},{'x', 'y'},null");
  // Inserting a collection replaces it; null writes a tombstone.
  Run("INSERT INTO t (k, c, l, st) VALUES (2, 1, [7], null)");
  EXPECT_EQ(Rows(2, {"l", "st"}), "[7],null");
  // Bind markers.
  Run("INSERT INTO t (k, c, v) VALUES (?, ?, ?)", {Value::Int(3), Value::Int(4), Value::Int(5)});
  EXPECT_EQ(Rows(3, {"c", "v"}), "4,5");
  // Composite partition key.
  Run("INSERT INTO t2 (a, b, c1, c2, v) VALUES (1, 2, 3, 4, 'x')");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(2)}), "1,2,3,4,x");
}

TEST_F(ModificationStatementTest, InsertStaticOnlyOmitsClustering) {
  Run("INSERT INTO t (k, s) VALUES (1, 7)");
  EXPECT_EQ(Rows(1, {"k", "c", "s"}), "1,null,7");
  ExpectError("INSERT INTO t (k, s, v) VALUES (1, 7, 1)", "Some clustering keys are missing: c");
}

TEST_F(ModificationStatementTest, InsertErrors) {
  ExpectError("INSERT INTO t (c, v) VALUES (1, 2)", "Some partition key parts are missing: k");
  ExpectError("INSERT INTO t (k, v) VALUES (1, 2)", "Some clustering keys are missing: c");
  ExpectError("INSERT INTO t (k, c, d) VALUES (1, 2, 3)", "Undefined column name d in table ks.t");
  ExpectError("INSERT INTO t (k, c, v, v) VALUES (1, 2, 3, 4)",
              "The column names contains duplicates");
  ExpectError("INSERT INTO t2 (a, c1, c2) VALUES (1, 2, 3)",
              "Some partition key parts are missing: b");
  ExpectError("INSERT INTO t2 (a, b, v) VALUES (1, 2, 'x')",
              "Some clustering keys are missing: c1, c2");
  ExpectError("INSERT INTO t (k, c, v) VALUES (null, 1, 1)",
              "Invalid null value for partition key part k");
  ExpectError("INSERT INTO counters (k, hits) VALUES (1, 1)",
              "INSERT statements are not allowed on counter tables, use UPDATE instead");
  EXPECT_EQ(Rows(1), "");
}

TEST_F(ModificationStatementTest, InsertUsingTtlAndTimestamp) {
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 1) USING TTL 100 AND TIMESTAMP 1000");
  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.partition_keys = {{Value::Int(1)}};
  query.columns = {"v"};
  query.with_cell_metadata = true;
  auto result = db_->Read(query);
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->rows.size(), 1u);
  EXPECT_EQ(result->rows[0].writetimes[0], 1000);
  EXPECT_EQ(result->rows[0].ttls[0], 100);
  // An older timestamp loses to the newer write.
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 2) USING TIMESTAMP 999");
  EXPECT_EQ(Rows(1, {"v"}), "1");
  // The row (marker and cells) expires with the TTL.
  ASSERT_TRUE(clock_->Advance(101'000'000).ok());
  EXPECT_EQ(Rows(1, {"v"}), "");

  ExpectError("INSERT INTO t (k, c, v) VALUES (1, 1, 1) USING TTL -1",
              "A TTL must be greater or equal to 0, but was -1");
  ExpectError("INSERT INTO t (k, c, v) VALUES (1, 1, 1) USING TTL 630720001",
              "ttl is too large. requested (630720001) maximum (630720000)");
  Run("INSERT INTO t (k, c, v) VALUES (2, 1, 1) USING TTL 630720000");
  EXPECT_EQ(Rows(2, {"v"}), "1");
}

TEST_F(ModificationStatementTest, InsertJson) {
  Run("INSERT INTO kv JSON '{\"k\": 1, \"v\": 2, \"ts\": \"2024-01-15 10:15:00.000Z\", "
      "\"b\": \"0x0102\", \"f\": [1, 2], \"\\\"Name\\\"\": \"n\"}'");
  EXPECT_EQ(Rows("kv", {Value::Int(1)}, {"v", "ts", "b", "f", "Name"}),
            "2,2024-01-15 10:15:00.000000+0000,0x0102,[1, 2],n");
  // Keys are case-insensitive unless quoted; numbers may come as strings.
  Run("INSERT INTO kv JSON '{\"K\": 2, \"V\": \"5\", \"ts\": 0}'");
  EXPECT_EQ(Rows("kv", {Value::Int(2)}, {"v", "ts"}), "5,1970-01-01 00:00:00.000000+0000");
  // DEFAULT NULL (the default) nulls the columns left out; DEFAULT UNSET keeps them.
  Run("INSERT INTO kv JSON '{\"k\": 1, \"b\": \"0x03\"}' DEFAULT UNSET");
  EXPECT_EQ(Rows("kv", {Value::Int(1)}, {"v", "b"}), "2,0x03");
  Run("INSERT INTO kv JSON '{\"k\": 1, \"b\": \"0x04\"}'");
  EXPECT_EQ(Rows("kv", {Value::Int(1)}, {"v", "b"}), "null,0x04");
  // A bound JSON string.
  Run("INSERT INTO kv JSON ?", {Value::Text("{\"k\": 3, \"v\": 7}")});
  EXPECT_EQ(Rows("kv", {Value::Int(3)}, {"v"}), "7");

  ExpectError("INSERT INTO kv JSON '{\"k\": 1, \"zzz\": 0}'",
              "JSON values map contains unrecognized column: zzz");
  ExpectError("INSERT INTO kv JSON 'null'", "Got null for INSERT JSON values");
  ExpectError("INSERT INTO kv JSON '{\"k\": 1, \"v\": \"notanint\"}'",
              "Error decoding JSON value for v: Unable to make int from 'notanint'");
  auto not_a_map = session_->Execute("INSERT INTO kv JSON '12.34'");
  ASSERT_FALSE(not_a_map.ok());
  EXPECT_EQ(not_a_map.status().message().rfind("Could not decode JSON string as a map", 0), 0u)
      << not_a_map.status().message();
  ExpectError("INSERT INTO kv JSON '{\"v\": 1}'", "Invalid null value for partition key part k");
}

TEST_F(ModificationStatementTest, UpdateSetForms) {
  Run("UPDATE t SET v = 1, s = 2 WHERE k = 1 AND c = 1");
  EXPECT_EQ(Rows(1, {"c", "s", "v"}), "1,2,1");
  // Static-only update without clustering.
  Run("UPDATE t SET s = 3 WHERE k = 1");
  EXPECT_EQ(Rows(1, {"s"}), "3");
  // Maps, sets, lists.
  Run("UPDATE t SET m = {'a': 1}, st = {'x'}, l = [1, 2] WHERE k = 1 AND c = 1");
  Run("UPDATE t SET m['b'] = 2, m = m + {'c': 3}, st = st + {'y', 'z'}, l = l + [3], "
      "l = [0] + l WHERE k = 1 AND c = 1");
  EXPECT_EQ(Rows(1, {"m", "st", "l"}), "{'a': 1, 'b': 2, 'c': 3},{'x', 'y', 'z'},[0, 1, 2, 3]");
  Run("UPDATE t SET m = m - {'a'}, st = st - {'x'}, l = l - [2] WHERE k = 1 AND c = 1");
  EXPECT_EQ(Rows(1, {"m", "st", "l"}), "{'b': 2, 'c': 3},{'y', 'z'},[0, 1, 3]");
  Run("UPDATE t SET l[1] = 10 WHERE k = 1 AND c = 1");
  EXPECT_EQ(Rows(1, {"l"}), "[0, 10, 3]");
  Run("UPDATE t SET m['b'] = null WHERE k = 1 AND c = 1");
  EXPECT_EQ(Rows(1, {"m"}), "{'c': 3}");
  // An UPDATE-only row disappears when its cells are deleted.
  Run("UPDATE t SET v = 5 WHERE k = 2 AND c = 1");
  Run("UPDATE t SET v = null WHERE k = 2 AND c = 1");
  EXPECT_EQ(Rows(2), "");
  // IN writes every key combination.
  Run("UPDATE t SET v = 7 WHERE k IN (3, 4) AND c IN (1, 2)");
  EXPECT_EQ(Rows(3, {"c", "v"}), "1,7;2,7");
  EXPECT_EQ(Rows(4, {"c", "v"}), "1,7;2,7");
  Run("UPDATE t2 SET v = 'y' WHERE a = 1 AND b = 2 AND (c1, c2) = (3, 4)");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(2)}, {"v"}), "y");
  // USING TTL makes only the assigned cells expire.
  Run("INSERT INTO t (k, c, v) VALUES (5, 1, 1)");
  Run("UPDATE t USING TTL 10 SET v = 2 WHERE k = 5 AND c = 1");
  ASSERT_TRUE(clock_->Advance(11'000'000).ok());
  EXPECT_EQ(Rows(5, {"c", "v"}), "1,null");
}

TEST_F(ModificationStatementTest, UpdateErrors) {
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c > 1",
              "Slice restrictions are not supported on the clustering columns in UPDATE "
              "statements");
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 AND v = 2",
              "Non PRIMARY KEY columns found in where clause: v ");
  ExpectError("UPDATE t SET v = 1 WHERE k = 1", "Some clustering keys are missing: c");
  ExpectError("UPDATE t SET v = 1 WHERE c = 1", "Some partition key parts are missing: k");
  ExpectError("UPDATE t SET v = 1 WHERE k > 1 AND c = 1",
              "Only EQ and IN relation are supported on the partition key (unless you use the "
              "token() function) for UPDATE statements");
  ExpectError("UPDATE t SET s = 1 WHERE k = 1 AND c = 1",
              "Invalid restrictions on clustering columns since the UPDATE statement modifies "
              "only static columns");
  ExpectError("UPDATE t SET k = 1 WHERE k = 1 AND c = 1", "PRIMARY KEY part k found in SET part");
  ExpectError("UPDATE t SET d = 1 WHERE k = 1 AND c = 1", "Undefined column name d in table ks.t");
  ExpectError("UPDATE t SET v = v + 1 WHERE k = 1 AND c = 1",
              "Invalid operation (v = v + 1) for non counter column v");
  ExpectError("UPDATE t SET st['a'] = 1 WHERE k = 1 AND c = 1",
              "Invalid operation (st['a'] = 1) for set column st");
  // Cql.g's addRawUpdate reports it as a syntax error (UpdateTest.testUpdate).
  ExpectError("UPDATE t SET v = 1, v = 2 WHERE k = 1 AND c = 1",
              "Multiple incompatible setting of column v", Status::Code::kSyntaxError);
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 AND c = 2",
              "c cannot be restricted by more than one relation if it includes an Equal");
  ExpectError("UPDATE t SET l[5] = 1 WHERE k = 1 AND c = 1",
              "Attempted to set an element on a list which is null");
  Run("UPDATE t SET l = [1] WHERE k = 1 AND c = 1");
  ExpectError("UPDATE t SET l[5] = 1 WHERE k = 1 AND c = 1",
              "List index 5 out of bound, list has size 1");
  ExpectError("UPDATE kv SET f = f + [1] WHERE k = 1",
              "Invalid operation (f = f + [1]) for frozen collection column f");
}

TEST_F(ModificationStatementTest, Counters) {
  Run("UPDATE counters SET hits = hits + 1 WHERE k = 1");
  Run("UPDATE counters SET hits = hits + 5, misses = misses - 2 WHERE k = 1");
  EXPECT_EQ(Rows("counters", {Value::Int(1)}), "1,6,-2");
  // Two increments of one counter in a batch add up.
  Run("BEGIN COUNTER BATCH UPDATE counters SET hits = hits + 1 WHERE k = 1; "
      "UPDATE counters SET hits = hits + 1 WHERE k = 1; APPLY BATCH");
  EXPECT_EQ(Rows("counters", {Value::Int(1)}, {"hits"}), "8");
  Run("UPDATE counters SET hits = hits + ? WHERE k IN (2, 3)", {Value::Counter(4)});
  EXPECT_EQ(Rows("counters", {Value::Int(3)}, {"hits"}), "4");
  Run("DELETE hits FROM counters WHERE k = 1");
  EXPECT_EQ(Rows("counters", {Value::Int(1)}), "1,null,-2");

  ExpectError("UPDATE counters SET hits = 1 WHERE k = 1",
              "Cannot set the value of counter column hits (counters can only be "
              "incremented/decremented, not set)");
  ExpectError("UPDATE counters USING TTL 10 SET hits = hits + 1 WHERE k = 1",
              "Cannot provide custom TTL for counter updates");
  ExpectError("UPDATE counters USING TIMESTAMP 10 SET hits = hits + 1 WHERE k = 1",
              "Cannot provide custom timestamp for counter updates");
  ExpectError("UPDATE counters SET hits = hits + 1 WHERE k = 1 IF hits = 1",
              "Conditional updates are not supported on counter tables");
  ExpectError("BEGIN BATCH UPDATE counters SET hits = hits + 1 WHERE k = 1; APPLY BATCH",
              "Cannot include a counter statement in a logged batch");
  ExpectError("BEGIN COUNTER BATCH UPDATE t SET v = 1 WHERE k = 1 AND c = 1; APPLY BATCH",
              "Cannot include non-counter statement in a counter batch");
  ExpectError(
      "BEGIN UNLOGGED BATCH UPDATE counters SET hits = hits + 1 WHERE k = 1; "
      "UPDATE t SET v = 1 WHERE k = 1 AND c = 1; APPLY BATCH",
      "Counter and non-counter mutations cannot exist in the same batch");
}

TEST_F(ModificationStatementTest, DeleteForms) {
  for (int c = 1; c <= 5; ++c) {
    Run("INSERT INTO t (k, c, v, s, m) VALUES (1, " + std::to_string(c) + ", " + std::to_string(c) +
        ", 9, {'a': 1, 'b': 2})");
  }
  Run("DELETE v, m['a'] FROM t WHERE k = 1 AND c = 1");
  EXPECT_EQ(Rows(1, {"c", "v", "m"}),
            "1,null,{'b': 2};2,2,{'a': 1, 'b': 2};3,3,{'a': 1, 'b': 2};"
            "4,4,{'a': 1, 'b': 2};5,5,{'a': 1, 'b': 2}");
  Run("DELETE FROM t WHERE k = 1 AND c = 2");
  EXPECT_EQ(Rows(1, {"c"}), "1;3;4;5");
  Run("DELETE FROM t WHERE k = 1 AND c > 3");
  EXPECT_EQ(Rows(1, {"c"}), "1;3");
  // Row and range deletions leave the static column alone.
  EXPECT_EQ(Rows(1, {"s"}), "9;9");
  Run("DELETE s FROM t WHERE k = 1");
  EXPECT_EQ(Rows(1, {"s"}), "null;null");
  // Clustering prefixes are range tombstones.
  for (int c1 = 1; c1 <= 2; ++c1) {
    for (int c2 = 1; c2 <= 2; ++c2) {
      Run("INSERT INTO t2 (a, b, c1, c2, v) VALUES (1, 1, " + std::to_string(c1) + ", " +
          std::to_string(c2) + ", 'x')");
    }
  }
  Run("DELETE FROM t2 WHERE a = 1 AND b = 1 AND c1 = 1");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(1)}, {"c1", "c2"}), "2,1;2,2");
  Run("DELETE FROM t2 WHERE a = 1 AND b = 1 AND c1 = 2 AND c2 >= 2");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(1)}, {"c1", "c2"}), "2,1");
  // A whole partition; an older timestamp does not delete newer data.
  Run("INSERT INTO t (k, c, v) VALUES (2, 1, 1) USING TIMESTAMP 100");
  Run("DELETE FROM t USING TIMESTAMP 99 WHERE k = 2");
  EXPECT_EQ(Rows(2, {"v"}), "1");
  Run("DELETE FROM t USING TIMESTAMP 100 WHERE k = 2");
  EXPECT_EQ(Rows(2), "");
  // List element by index.
  Run("INSERT INTO t (k, c, l) VALUES (3, 1, [1, 2, 3])");
  Run("DELETE l[1] FROM t WHERE k = 3 AND c = 1");
  EXPECT_EQ(Rows(3, {"l"}), "[1, 3]");
}

TEST_F(ModificationStatementTest, DeleteErrors) {
  ExpectError("DELETE v FROM t WHERE k = 1",
              "Range deletions are not supported for specific columns");
  ExpectError("DELETE v FROM t WHERE k = 1 IF EXISTS",
              "DELETE statements must restrict all PRIMARY KEY columns with equality relations "
              "in order to delete non static columns");
  ExpectError("DELETE c FROM t WHERE k = 1 AND c = 1",
              "Invalid identifier c for deletion (should not be a PRIMARY KEY part)");
  ExpectError("DELETE FROM t WHERE k = 1 AND v = 1",
              "Non PRIMARY KEY columns found in where clause: v ");
  ExpectError("DELETE FROM t2 WHERE a = 1 AND b = 1 AND c2 = 1",
              "PRIMARY KEY column \"c2\" cannot be restricted as preceding column \"c1\" is not "
              "restricted");
  ExpectError("DELETE FROM t2 WHERE a = 1 AND b = 1 AND c1 > 1 AND c2 = 1",
              "Clustering column \"c2\" cannot be restricted (preceding column \"c1\" is "
              "restricted by a non-EQ relation)");
  ExpectError("DELETE v[1] FROM t WHERE k = 1 AND c = 1",
              "Invalid deletion operation for non collection column v");
  ExpectError("DELETE FROM t WHERE k > 1",
              "Only EQ and IN relation are supported on the partition key (unless you use the "
              "token() function) for DELETE statements");
  ExpectError("DELETE s FROM t WHERE k = 1 AND c = 1",
              "Invalid restrictions on clustering columns since the DELETE statement modifies "
              "only static columns");
  // The partition key is checked before the non-key columns
  // (DeleteTest.testDeleteWithSecondaryIndices).
  ExpectError("DELETE FROM t WHERE v = 1", "Some partition key parts are missing: k");
  // A conditional DELETE of a whole partition or a slice deletes regular
  // columns too (InsertUpdateIfConditionTest.testConditionalDelete).
  ExpectError("DELETE FROM t WHERE k = 1 IF EXISTS",
              "DELETE statements must restrict all PRIMARY KEY columns with equality relations "
              "in order to delete non static columns");
  ExpectError("DELETE FROM t WHERE k = 1 AND c > 1 IF s = 1",
              "DELETE statements must restrict all PRIMARY KEY columns with equality relations "
              "in order to delete non static columns");
}

// UpdateTest.testUpdateWithContainsAndContainsKey, DeleteTest.testDeleteWithOneClusteringColumns.
TEST_F(ModificationStatementTest, ContainsIsRefusedInWriteWhereClauses) {
  ExpectError("UPDATE t SET v = 1 WHERE k CONTAINS 1 AND c = 1", "Cannot use UPDATE with CONTAINS");
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 AND m CONTAINS KEY 'a'",
              "Cannot use UPDATE with CONTAINS KEY");
  ExpectError("DELETE FROM t WHERE k = 1 AND c CONTAINS 1", "Cannot use DELETE with CONTAINS");
}

TEST_F(ModificationStatementTest, InsertIfNotExists) {
  CqlResult first = Run("INSERT INTO t (k, c, v) VALUES (1, 1, 1) IF NOT EXISTS");
  EXPECT_EQ(first.kind, CqlResult::Kind::kRows);
  EXPECT_EQ(Render(first), "[applied]|True");
  CqlResult second = Run("INSERT INTO t (k, c, v) VALUES (1, 1, 2) IF NOT EXISTS");
  EXPECT_EQ(Render(second), "[applied],k,c,s,l,m,st,v|False,1,1,null,null,null,null,1");
  EXPECT_EQ(Rows(1, {"v"}), "1");
  ExpectError("INSERT INTO t (k, c, v) VALUES (1, 1, 1) IF NOT EXISTS USING TIMESTAMP 5",
              "Cannot provide custom timestamp for conditional updates");
}

TEST_F(ModificationStatementTest, UpdateIfConditions) {
  Run("INSERT INTO t (k, c, v, m) VALUES (1, 1, 1, {'a': 1})");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF v = 1")), "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 3 WHERE k = 1 AND c = 1 IF v = 1 AND m = null")),
            "[applied],v,m|False,2,{'a': 1}");
  EXPECT_EQ(Rows(1, {"v"}), "2");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 4 WHERE k = 1 AND c = 1 IF v > 1 AND m['a'] = 1")),
            "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 5 WHERE k = 1 AND c = 1 IF v IN (1, 2)")),
            "[applied],v|False,4");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 5 WHERE k = 1 AND c = 1 IF v != 4")),
            "[applied],v|False,4");
  // A missing row: only [applied].
  EXPECT_EQ(Render(Run("UPDATE t SET v = 1 WHERE k = 9 AND c = 1 IF v = 1")), "[applied]|False");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 1 WHERE k = 9 AND c = 1 IF v = null")), "[applied]|True");
  EXPECT_EQ(Rows(9, {"v"}), "1");
  // IF EXISTS.
  EXPECT_EQ(Render(Run("UPDATE t SET v = 6 WHERE k = 1 AND c = 1 IF EXISTS")), "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 6 WHERE k = 7 AND c = 1 IF EXISTS")), "[applied]|False");
  EXPECT_EQ(Rows(7), "");

  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v < null",
              "Invalid comparison with null for operator \"<\"");
  ExpectError("UPDATE t SET v = 1 WHERE k IN (1, 2) AND c = 1 IF v = 1",
              "IN on the partition key is not supported with conditional updates");
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c IN (1, 2) IF v = 1",
              "IN on the clustering key columns is not supported with conditional updates");
  ExpectError("UPDATE t USING TIMESTAMP 5 SET v = 1 WHERE k = 1 AND c = 1 IF v = 1",
              "Cannot provide custom timestamp for conditional updates");
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF k = 1",
              "PRIMARY KEY column 'k' cannot have IF conditions");
}

// InsertUpdateIfConditionCollectionsTest.testNonFrozenEmptyCollection: a
// null non-frozen collection compares as the empty one.
TEST_F(ModificationStatementTest, ConditionsOnANullCollection) {
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 1)");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF l = []")), "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF l != [1]")), "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF l < [1]")), "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF st <= {'a'}")),
            "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF m < {'a': 1}")),
            "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF l > [1]")),
            "[applied],l|False,null");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF m >= {'a': 1}")),
            "[applied],m|False,null");
  EXPECT_EQ(Render(Run("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF l CONTAINS 1")),
            "[applied],l|False,null");
  ExpectError("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF l CONTAINS null",
              "Invalid comparison with null for operator \"CONTAINS\"");
  ExpectError("UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF m CONTAINS KEY null",
              "Invalid comparison with null for operator \"CONTAINS KEY\"");
  // A frozen collection has no empty form: null is below nothing.
  Run("INSERT INTO kv (k, v) VALUES (1, 1)");
  EXPECT_EQ(Render(Run("UPDATE kv SET v = 2 WHERE k = 1 IF f < [1]")), "[applied],f|False,null");
}

TEST_F(ModificationStatementTest, DeleteIfExists) {
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 1)");
  EXPECT_EQ(Render(Run("DELETE FROM t WHERE k = 1 AND c = 1 IF v = 2")), "[applied],v|False,1");
  EXPECT_EQ(Render(Run("DELETE FROM t WHERE k = 1 AND c = 1 IF EXISTS")), "[applied]|True");
  EXPECT_EQ(Rows(1), "");
  EXPECT_EQ(Render(Run("DELETE FROM t WHERE k = 1 AND c = 1 IF EXISTS")), "[applied]|False");
  ExpectError("DELETE FROM t WHERE k IN (1, 2) AND c = 1 IF EXISTS",
              "IN on the partition key is not supported with conditional deletions");
}

TEST_F(ModificationStatementTest, BatchAppliesEverythingAtOnce) {
  Run("BEGIN BATCH "
      "INSERT INTO t (k, c, v) VALUES (1, 1, 1); "
      "UPDATE t SET v = 2 WHERE k = 2 AND c = 1; "
      "DELETE FROM t WHERE k = 3; "
      "APPLY BATCH");
  EXPECT_EQ(Rows(1, {"v"}), "1");
  EXPECT_EQ(Rows(2, {"v"}), "2");
  // One failing statement: nothing is applied.
  auto failed = session_->Execute(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (4, 1, 1); "
      "INSERT INTO t (k, c, v) VALUES (5, 1, 1) USING TTL -1; APPLY BATCH");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "A TTL must be greater or equal to 0, but was -1");
  EXPECT_EQ(Rows(4), "");
  EXPECT_EQ(Rows(5), "");
  // The batch timestamp applies to every statement; same timestamp: the deletion wins.
  Run("BEGIN UNLOGGED BATCH USING TIMESTAMP 500 "
      "INSERT INTO t (k, c, v) VALUES (6, 1, 1); DELETE FROM t WHERE k = 6; APPLY BATCH");
  EXPECT_EQ(Rows(6), "");

  ExpectError(
      "BEGIN BATCH USING TIMESTAMP 5 INSERT INTO t (k, c, v) VALUES (1, 1, 1) "
      "USING TIMESTAMP 6; APPLY BATCH",
      "Timestamp must be set either on BATCH or individual statements");
}

// A batch of INSERTs of the same columns goes to the engine as one
// InsertBatch (batch_inserts.h); it must write what the statements write.
TEST_F(ModificationStatementTest, BatchOfInsertsOfTheSameColumns) {
  Run("INSERT INTO t2 (a, b, c1, c2, v) VALUES (1, 1, 0, 0, 'old')");
  clock_->Advance(1'000'000).IgnoreError();
  Run("BEGIN UNLOGGED BATCH "
      "INSERT INTO t2 (a, b, c1, c2, v) VALUES (1, 1, 1, 1, 'x') USING TTL 100; "
      "INSERT INTO t2 (a, b, c1, c2, v) VALUES (1, 1, 0, 0, null) USING TTL 100; "
      "INSERT INTO t2 (a, b, c1, c2, v) VALUES (2, 1, 3, 4, 'y') USING TTL 100; "
      "APPLY BATCH");
  EXPECT_EQ(Render(Run("SELECT c1, c2, v, WRITETIME(v), TTL(v) FROM t2 WHERE a = 1 AND b = 1")),
            "c1,c2,v,writetime(v),ttl(v)|0,0,null,null,null|1,1,x,1704067201000000,100");
  EXPECT_EQ(Render(Run("SELECT v, WRITETIME(v), TTL(v) FROM t2 WHERE a = 2 AND b = 1")),
            "v,writetime(v),ttl(v)|y,1704067201000000,100");

  // Bound values of a prepared batch, and a batch-level timestamp.
  auto prepared = session_->Prepare(
      "BEGIN UNLOGGED BATCH USING TIMESTAMP 42 "
      "INSERT INTO t2 (v, c2, a, b, c1) VALUES (?, ?, ?, ?, ?); "
      "INSERT INTO t2 (v, c2, a, b, c1) VALUES (?, ?, ?, ?, ?); APPLY BATCH");
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  auto bound = session_->Execute(
      *prepared, {Value::Text("p"), Value::Int(7), Value::Int(3), Value::Int(1), Value::Int(6),
                  Value::Text("q"), Value::Int(8), Value::Int(3), Value::Int(1), Value::Int(6)});
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_EQ(Render(Run("SELECT c1, c2, v, WRITETIME(v) FROM t2 WHERE a = 3 AND b = 1")),
            "c1,c2,v,writetime(v)|6,7,p,42|6,8,q,42");

  // A bad row fails the whole batch with the statement's own message.
  ExpectError(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (20, 1, 1); "
      "INSERT INTO t (k, c, v) VALUES (21, 1, 'one'); APPLY BATCH",
      "Invalid STRING constant (one) for \"v\" of type int");
  auto bad = session_->Execute(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (?, 1, 1); "
      "INSERT INTO t (k, c, v) VALUES (?, 1, 1); APPLY BATCH",
      {Value::Int(22), Value::Text("twenty-three")});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(Rows(20), "");
  EXPECT_EQ(Rows(22), "");
}

TEST_F(ModificationStatementTest, ConditionalBatch) {
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 1)");
  EXPECT_EQ(Render(Run("BEGIN BATCH UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF v = 1; "
                       "INSERT INTO t (k, c, v) VALUES (1, 2, 2); APPLY BATCH")),
            "[applied]|True");
  EXPECT_EQ(Rows(1, {"c", "v"}), "1,2;2,2");
  EXPECT_EQ(Render(Run("BEGIN BATCH UPDATE t SET v = 3 WHERE k = 1 AND c = 1 IF v = 1; "
                       "INSERT INTO t (k, c, v) VALUES (1, 3, 3); APPLY BATCH")),
            "[applied],k,c,v|False,1,1,2");
  EXPECT_EQ(Rows(1, {"c", "v"}), "1,2;2,2");
  ExpectError(
      "BEGIN BATCH UPDATE t SET v = 3 WHERE k = 1 AND c = 1 IF v = 1; "
      "INSERT INTO t (k, c, v) VALUES (2, 3, 3); APPLY BATCH",
      "Batch with conditions cannot span multiple partitions");
  ExpectError(
      "BEGIN BATCH UPDATE t SET v = 3 WHERE k = 1 AND c = 1 IF v = 1; "
      "INSERT INTO kv (k, v) VALUES (1, 3); APPLY BATCH",
      "Batch with conditions cannot span multiple tables");
}

// InsertUpdateIfConditionTest.testMultiExistConditionOnSameRowClustering.
TEST_F(ModificationStatementTest, ConditionalBatchKeepsOneConditionKindPerRow) {
  EXPECT_EQ(Render(Run("BEGIN BATCH INSERT INTO t (k, c, v) VALUES (0, 0, 1) IF NOT EXISTS; "
                       "INSERT INTO t (k, c, l) VALUES (0, 0, [2]) IF NOT EXISTS; APPLY BATCH")),
            "[applied]|True");
  EXPECT_EQ(Rows(0, {"v", "l"}), "1,[2]");
  ExpectError(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (1, 0, 1) IF NOT EXISTS; "
      "DELETE FROM t WHERE k = 1 AND c = 0 IF EXISTS; APPLY BATCH",
      "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
  ExpectError(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (1, 0, 1) IF NOT EXISTS; "
      "UPDATE t SET l = [1] WHERE k = 1 AND c = 0 IF v = 1; APPLY BATCH",
      "Cannot mix IF conditions and IF NOT EXISTS for the same row");
  ExpectError(
      "BEGIN BATCH UPDATE t SET l = [1] WHERE k = 1 AND c = 0 IF v = 1; "
      "DELETE FROM t WHERE k = 1 AND c = 0 IF EXISTS; APPLY BATCH",
      "Cannot mix IF conditions and IF EXISTS for the same row");
  // Other rows, and the static row, are other rows.
  EXPECT_EQ(Render(Run("BEGIN BATCH INSERT INTO t (k, c, v) VALUES (1, 0, 1) IF NOT EXISTS; "
                       "UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF v = null; "
                       "UPDATE t SET s = 3 WHERE k = 1 IF s = null; APPLY BATCH")),
            "[applied]|True");
}

TEST_F(ModificationStatementTest, InAndTupleRestrictions) {
  // An empty IN writes nothing.
  Run("UPDATE t SET v = 1 WHERE k IN () AND c = 1");
  Run("UPDATE t SET v = 1 WHERE k = 1 AND c IN ()");
  EXPECT_EQ(Rows(1), "");
  Run("UPDATE t2 SET v = 'z' WHERE a = 1 AND b IN (1, 2) AND (c1, c2) IN ((1, 1), (2, 2))");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(2)}, {"c1", "c2", "v"}), "1,1,z;2,2,z");
  Run("DELETE FROM t2 WHERE a = 1 AND b = 2 AND (c1, c2) >= (2, 0)");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(2)}, {"c1", "c2"}), "1,1");
  Run("DELETE FROM t2 WHERE a = 1 AND b = 1 AND c1 IN (1, 2)");
  EXPECT_EQ(Rows("t2", {Value::Int(1), Value::Int(1)}), "");
  ExpectError("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 AND k IN (1, 2)",
              "k cannot be restricted by more than one relation if it includes an Equal");
}

TEST_F(ModificationStatementTest, StaticConditions) {
  Run("UPDATE t SET s = 1 WHERE k = 1");
  EXPECT_EQ(Render(Run("UPDATE t SET s = 2 WHERE k = 1 IF s = 1")), "[applied]|True");
  EXPECT_EQ(Render(Run("UPDATE t SET s = 3 WHERE k = 1 IF s = 1")), "[applied],s|False,2");
  EXPECT_EQ(Render(Run("INSERT INTO t (k, s) VALUES (2, 5) IF NOT EXISTS")), "[applied]|True");
  EXPECT_EQ(Rows(2, {"s"}), "5");
}

// InsertUpdateIfConditionTest.testConditionalDelete and testStaticColumnsCas.
TEST_F(ModificationStatementTest, ConditionsBesideTheStaticRow) {
  Run("INSERT INTO t (k, c, v, s) VALUES (1, 1, 1, 1)");
  // A whole-row DELETE may be conditioned on a static column only.
  EXPECT_EQ(Render(Run("DELETE FROM t WHERE k = 1 AND c = 1 IF s = 2")), "[applied],s|False,1");
  EXPECT_EQ(Render(Run("DELETE FROM t WHERE k = 1 AND c = 1 IF s = 1")), "[applied]|True");
  // The row is gone, the static row is not: a condition naming a static
  // column shows every condition column, the regular ones null.
  EXPECT_EQ(Render(Run("DELETE v FROM t WHERE k = 1 AND c = 1 IF v = 1 AND s = 2")),
            "[applied],v,s|False,null,1");
  EXPECT_EQ(Render(Run("DELETE v FROM t WHERE k = 1 AND c = 1 IF v = 1")), "[applied]|False");

  // A static-only INSERT IF NOT EXISTS looks at the static row, not the rows.
  Run("INSERT INTO t (k, c, v) VALUES (2, 1, 1)");
  EXPECT_EQ(Render(Run("INSERT INTO t (k, s) VALUES (2, 5) IF NOT EXISTS")), "[applied]|True");
  EXPECT_EQ(Render(Run("INSERT INTO t (k, s) VALUES (2, 6) IF NOT EXISTS")).substr(0, 9),
            "[applied]");
  EXPECT_EQ(Rows(2, {"s"}), "5");

  // A failed batch whose only condition is static reports the partition's
  // first row with the static value.
  Run("INSERT INTO t (k, c, v) VALUES (2, 2, 2)");
  EXPECT_EQ(Render(Run("BEGIN BATCH UPDATE t SET v = 3 WHERE k = 2 AND c = 2; "
                       "UPDATE t SET s = 7 WHERE k = 2 IF s = 0; APPLY BATCH")),
            "[applied],k,c,s|False,2,1,5");
}

TEST_F(ModificationStatementTest, PreparedWritesAndBatches) {
  auto insert = session_->Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?) USING TTL ?");
  ASSERT_TRUE(insert.ok()) << insert.status().ToString();
  for (int i = 0; i < 3; ++i) {
    auto r = session_->Execute(*insert,
                               {Value::Int(1), Value::Int(i), Value::Int(i * 10), Value::Int(0)});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  EXPECT_EQ(Rows(1, {"c", "v"}), "0,0;1,10;2,20");
  Run("BEGIN BATCH UPDATE t SET v = ? WHERE k = ? AND c = ?; DELETE FROM t WHERE k = ? AND c = ?; "
      "APPLY BATCH",
      {Value::Int(7), Value::Int(1), Value::Int(0), Value::Int(1), Value::Int(2)});
  EXPECT_EQ(Rows(1, {"c", "v"}), "0,7;1,10");
}

}  // namespace
}  // namespace cassette::cql
