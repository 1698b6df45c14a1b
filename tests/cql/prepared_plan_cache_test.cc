// A prepared INSERT / UPDATE / DELETE keeps the table it resolved (and an
// INSERT its column layout) between executions. These tests check that it
// still sees every schema change as an unprepared statement does: ALTER
// TABLE ADD / DROP / RENAME, DROP and re-CREATE of the table, DROP
// KEYSPACE, a changed current keyspace, another Database; and that the
// cached INSERT path reports bad bound values with the same messages.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"

namespace cassette {
namespace {

constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01T00:00:00Z

struct Db {
  std::unique_ptr<Database> db;
  std::unique_ptr<CqlSession> session;
};

Db OpenDb() {
  Options options;
  options.file_system = NewMemFileSystem();
  options.clock = std::make_shared<ManualClock>(kStartMicros);
  options.scheduler = std::make_shared<ManualScheduler>();
  auto db = Database::Open(options, "/db");
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  Db out;
  out.db = std::move(db).value();
  out.session = std::make_unique<CqlSession>(out.db.get());
  return out;
}

class PreparedPlanCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenDb();
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("USE ks");
    Run("CREATE TABLE t (k int, c int, v int, s int static, PRIMARY KEY (k, c))");
  }

  CqlSession& session() { return *db_.session; }

  CqlResult Run(const std::string& cql, const std::vector<Value>& values = {}) {
    auto result = session().Execute(cql, values);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    return result.ok() ? std::move(result).value() : CqlResult{};
  }

  CqlPreparedStatement Prepare(const std::string& cql) {
    auto prepared = session().Prepare(cql);
    EXPECT_TRUE(prepared.ok()) << prepared.status().ToString();
    return std::move(prepared).value();
  }

  // "ok", or the error's message.
  static std::string Outcome(const Result<CqlResult>& result) {
    return result.ok() ? "ok" : result.status().message();
  }
  std::string Exec(const CqlPreparedStatement& prepared, const std::vector<Value>& values) {
    return Outcome(session().Execute(prepared, values));
  }
  // Executes the prepared statement (twice: the second run uses what the
  // first one cached) and the same text unprepared; expects one outcome.
  std::string ExecSame(const CqlPreparedStatement& prepared, const std::vector<Value>& values) {
    const std::string first = Exec(prepared, values);
    const std::string second = Exec(prepared, values);
    const std::string unprepared = Outcome(session().Execute(prepared.text(), values));
    EXPECT_EQ(first, second) << prepared.text();
    EXPECT_EQ(first, unprepared) << prepared.text();
    return first;
  }

  // SELECT's rows as "a,b;a,b".
  std::string Select(const std::string& cql) {
    CqlResult result = Run(cql);
    std::string out;
    for (const std::vector<Value>& row : result.rows) {
      if (!out.empty()) out += ";";
      for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + row[i].ToString();
    }
    return out;
  }

  Db db_;
};

std::vector<Value> Ints(std::initializer_list<int32_t> values) {
  std::vector<Value> out;
  for (int32_t v : values) out.push_back(Value::Int(v));
  return out;
}

TEST_F(PreparedPlanCacheTest, RepeatedInsertWritesEveryRow) {
  CqlPreparedStatement insert = Prepare("INSERT INTO t (v, c, k) VALUES (?, ?, ?)");
  for (int32_t i = 0; i < 20; ++i) {
    ASSERT_EQ(Exec(insert, Ints({i * 10, i % 4, i % 3})), "ok");
  }
  EXPECT_EQ(Select("SELECT c, v FROM t WHERE k = 1"), "0,160;1,130;2,100;3,190");
  // USING TTL / TIMESTAMP with markers, evaluated on every execution.
  CqlPreparedStatement with_ttl =
      Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?) USING TTL ? AND TIMESTAMP ?");
  std::vector<Value> values = Ints({5, 1, 1, 100});
  values.push_back(Value::Bigint(1000));
  ASSERT_EQ(Exec(with_ttl, values), "ok");
  values = Ints({5, 2, 2, 200});
  values.push_back(Value::Bigint(2000));
  ASSERT_EQ(Exec(with_ttl, values), "ok");
  EXPECT_EQ(Select("SELECT c, v, ttl(v), writetime(v) FROM t WHERE k = 5"),
            "1,1,100,1000;2,2,200,2000");
}

TEST_F(PreparedPlanCacheTest, BadBoundValuesGetTheUnpreparedMessages) {
  CqlPreparedStatement insert = Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)");
  EXPECT_EQ(ExecSame(insert, Ints({1, 1, 1})), "ok");
  EXPECT_EQ(ExecSame(insert, {Value::Null(), Value::Int(1), Value::Int(1)}),
            "Invalid null value for partition key part k");
  EXPECT_EQ(ExecSame(insert, {Value::Int(1), Value::Null(), Value::Int(1)}),
            "Invalid null value for clustering key part c");
  // A regular column's bad value is reported before a null key.
  const std::string bad_int =
      ExecSame(insert, {Value::Null(), Value::Int(1), Value::Text("not an int")});
  EXPECT_NE(bad_int, "ok");
  EXPECT_NE(bad_int, "Invalid null value for partition key part k");
  EXPECT_NE(ExecSame(insert, {Value::Text("xy"), Value::Int(1), Value::Int(1)}), "ok");
  EXPECT_EQ(ExecSame(insert, Ints({1, 1})), "There were 3 markers(?) in CQL but 2 bound variables");
  // Static-only inserts may omit the clustering column; others may not.
  EXPECT_EQ(ExecSame(Prepare("INSERT INTO t (k, s) VALUES (?, ?)"), Ints({2, 7})), "ok");
  EXPECT_EQ(ExecSame(Prepare("INSERT INTO t (k, v) VALUES (?, ?)"), Ints({2, 7})),
            "Some clustering keys are missing: c");
  EXPECT_EQ(ExecSame(Prepare("INSERT INTO t (c, v) VALUES (?, ?)"), Ints({2, 7})),
            "Some partition key parts are missing: k");
  EXPECT_EQ(ExecSame(Prepare("INSERT INTO t (k, c, s) VALUES (?, ?, ?) USING TTL ?"),
                     Ints({3, 1, 1, -1})),
            "A TTL must be greater or equal to 0, but was -1");
  EXPECT_EQ(Select("SELECT k, c, s, v FROM t WHERE k = 1"), "1,1,null,1");
  EXPECT_EQ(Select("SELECT k, c, s, v FROM t WHERE k = 2"), "2,null,7,null");
  EXPECT_EQ(Select("SELECT k, c, s, v FROM t WHERE k = 3"), "");
}

// Collections (replaced whole by INSERT, deleted by a null) and frozen
// ones write the same cells through the cached INSERT as unprepared.
TEST_F(PreparedPlanCacheTest, CollectionsWriteAsUnprepared) {
  Run("CREATE TABLE coll (k int PRIMARY KEY, l list<int>, st set<text>, m map<text, int>, "
      "f frozen<list<int>>)");
  const std::string text = "INSERT INTO coll (k, l, st, m, f) VALUES (?, ?, ?, ?, ?)";
  CqlPreparedStatement insert = Prepare(text);
  const std::vector<Value> first = {
      Value::Int(0), Value::List(DataType::Int(), {Value::Int(3), Value::Int(1)}),
      Value::Set(DataType::Text(), {Value::Text("x")}),
      Value::Map(DataType::Text(), DataType::Int(), {{Value::Text("a"), Value::Int(1)}}),
      Value::List(DataType::Int(), {Value::Int(9)})};
  std::vector<Value> second = first;
  second[1] = Value::List(DataType::Int(), {Value::Int(7)});
  second[2] = Value::Null();
  for (int32_t k : {1, 2}) {
    std::vector<Value> a = first;
    std::vector<Value> b = second;
    a[0] = b[0] = Value::Int(k);
    if (k == 1) {
      ASSERT_EQ(Exec(insert, a), "ok");
      ASSERT_EQ(Exec(insert, b), "ok");
    } else {
      ASSERT_EQ(Outcome(session().Execute(text, a)), "ok");
      ASSERT_EQ(Outcome(session().Execute(text, b)), "ok");
    }
  }
  const std::string one = Select("SELECT l, st, m, f FROM coll WHERE k = 1");
  EXPECT_EQ(one, "[7],null,{'a': 1},[9]");
  EXPECT_EQ(Select("SELECT l, st, m, f FROM coll WHERE k = 2"), one);
}

TEST_F(PreparedPlanCacheTest, IfNotExistsThroughTheCachedInsert) {
  CqlPreparedStatement insert = Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS");
  auto first = session().Execute(insert, Ints({1, 1, 10}));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->rows.at(0).at(0).AsBool());
  auto second = session().Execute(insert, Ints({1, 1, 20}));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_FALSE(second->rows.at(0).at(0).AsBool());
  EXPECT_EQ(Select("SELECT v FROM t WHERE k = 1"), "10");
}

TEST_F(PreparedPlanCacheTest, SeesAddedAndDroppedColumns) {
  CqlPreparedStatement insert = Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)");
  CqlPreparedStatement insert_w = Prepare("INSERT INTO t (k, c, w) VALUES (?, ?, ?)");
  CqlPreparedStatement update_w = Prepare("UPDATE t SET w = ? WHERE k = ? AND c = ?");
  ASSERT_EQ(Exec(insert, Ints({1, 1, 1})), "ok");
  EXPECT_EQ(ExecSame(insert_w, Ints({1, 2, 5})), "Undefined column name w in table ks.t");
  EXPECT_EQ(ExecSame(update_w, Ints({5, 1, 2})), "Undefined column name w in table ks.t");

  Run("ALTER TABLE t ADD w int");
  EXPECT_EQ(Exec(insert_w, Ints({1, 2, 5})), "ok");
  EXPECT_EQ(Exec(update_w, Ints({6, 1, 3})), "ok");
  EXPECT_EQ(Exec(insert, Ints({1, 4, 4})), "ok");
  EXPECT_EQ(Select("SELECT c, v, w FROM t WHERE k = 1"), "1,1,null;2,null,5;3,null,6;4,4,null");

  Run("ALTER TABLE t DROP v");
  EXPECT_EQ(ExecSame(insert, Ints({1, 5, 5})), "Undefined column name v in table ks.t");
  EXPECT_EQ(Exec(insert_w, Ints({1, 5, 7})), "ok");
  EXPECT_EQ(Select("SELECT c, w FROM t WHERE k = 1"), "1,null;2,5;3,6;4,null;5,7");

  // Added back: the old prepared INSERT works again.
  Run("ALTER TABLE t ADD v int");
  EXPECT_EQ(Exec(insert, Ints({1, 6, 6})), "ok");
  EXPECT_EQ(Select("SELECT v FROM t WHERE k = 1 AND c = 6"), "6");
}

TEST_F(PreparedPlanCacheTest, SeesRenamedKeyColumns) {
  CqlPreparedStatement insert_c = Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)");
  CqlPreparedStatement insert_d = Prepare("INSERT INTO t (k, d, v) VALUES (?, ?, ?)");
  CqlPreparedStatement delete_c = Prepare("DELETE FROM t WHERE k = ? AND c = ?");
  ASSERT_EQ(Exec(insert_c, Ints({1, 1, 1})), "ok");
  ASSERT_EQ(Exec(insert_c, Ints({1, 2, 2})), "ok");
  ASSERT_EQ(Exec(delete_c, Ints({1, 2})), "ok");
  EXPECT_EQ(ExecSame(insert_d, Ints({1, 3, 3})), "Undefined column name d in table ks.t");

  Run("ALTER TABLE t RENAME c TO d");
  EXPECT_EQ(ExecSame(insert_c, Ints({1, 4, 4})), "Undefined column name c in table ks.t");
  EXPECT_EQ(ExecSame(delete_c, Ints({1, 1})), "Undefined column name c in table ks.t");
  EXPECT_EQ(Exec(insert_d, Ints({1, 3, 3})), "ok");
  EXPECT_EQ(Select("SELECT d, v FROM t WHERE k = 1"), "1,1;3,3");
}

TEST_F(PreparedPlanCacheTest, SeesTheTableDroppedAndCreatedAgain) {
  CqlPreparedStatement insert = Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)");
  CqlPreparedStatement update = Prepare("UPDATE t SET v = ? WHERE k = ? AND c = ?");
  ASSERT_EQ(Exec(insert, Ints({1, 1, 1})), "ok");
  ASSERT_EQ(Exec(update, Ints({2, 1, 2})), "ok");

  Run("DROP TABLE t");
  const std::string missing = ExecSame(insert, Ints({1, 1, 1}));
  EXPECT_NE(missing, "ok");
  EXPECT_EQ(ExecSame(update, Ints({2, 1, 2})), missing);

  // Created again with another key layout: c is now part of the partition
  // key and v a static column.
  Run("CREATE TABLE t (k int, c int, x int, v int static, PRIMARY KEY ((k, c), x))");
  EXPECT_EQ(ExecSame(insert, Ints({1, 1, 1})), "ok");  // a static-only insert now
  EXPECT_EQ(Select("SELECT k, c, x, v FROM t WHERE k = 1 AND c = 1"), "1,1,null,1");
  Run("DROP TABLE t");
  Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY ((k, c)))");
  EXPECT_EQ(Exec(insert, Ints({1, 1, 10})), "ok");
  EXPECT_EQ(Exec(insert, Ints({1, 2, 20})), "ok");
  EXPECT_EQ(Exec(update, Ints({30, 1, 3})), "ok");
  // Only what was written after the re-CREATE, in the new layout.
  EXPECT_EQ(Select("SELECT v FROM t WHERE k = 1 AND c = 1"), "10");
  EXPECT_EQ(Select("SELECT v FROM t WHERE k = 1 AND c = 2"), "20");
  EXPECT_EQ(Select("SELECT v FROM t WHERE k = 1 AND c = 3"), "30");
}

TEST_F(PreparedPlanCacheTest, SeesTheKeyspaceDroppedAndCreatedAgain) {
  CqlPreparedStatement insert = Prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)");
  CqlPreparedStatement remove = Prepare("DELETE v FROM ks.t WHERE k = ? AND c = ?");
  ASSERT_EQ(Exec(insert, Ints({1, 1, 1})), "ok");
  ASSERT_EQ(Exec(remove, Ints({1, 1})), "ok");

  Run("DROP KEYSPACE ks");
  const std::string missing = ExecSame(insert, Ints({1, 1, 1}));
  EXPECT_NE(missing, "ok");
  EXPECT_EQ(ExecSame(remove, Ints({1, 1})), missing);

  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  EXPECT_NE(ExecSame(insert, Ints({1, 1, 1})), "ok");  // no table yet
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  EXPECT_EQ(Exec(insert, Ints({2, 2, 2})), "ok");
  EXPECT_EQ(Select("SELECT k, c, v FROM ks.t"), "2,2,2");
}

TEST_F(PreparedPlanCacheTest, FollowsTheSessionKeyspace) {
  Run("CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Run("CREATE TABLE other.t (k int, c int, v int, PRIMARY KEY (k, c))");
  CqlPreparedStatement insert = Prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)");
  ASSERT_EQ(Exec(insert, Ints({1, 1, 1})), "ok");
  Run("USE other");
  ASSERT_EQ(Exec(insert, Ints({2, 2, 2})), "ok");
  // A second session, in ks, sharing the prepared statement.
  CqlSession in_ks(db_.db.get());
  ASSERT_TRUE(in_ks.Execute("USE ks").ok());
  ASSERT_TRUE(in_ks.Execute(insert, Ints({3, 3, 3})).ok());
  ASSERT_EQ(Exec(insert, Ints({4, 4, 4})), "ok");
  EXPECT_EQ(Select("SELECT k FROM ks.t WHERE k = 1"), "1");
  EXPECT_EQ(Select("SELECT k FROM ks.t WHERE k = 3"), "3");
  EXPECT_EQ(Select("SELECT count(*) FROM ks.t"), "2");
  EXPECT_EQ(Select("SELECT k FROM other.t WHERE k = 2"), "2");
  EXPECT_EQ(Select("SELECT k FROM other.t WHERE k = 4"), "4");
  EXPECT_EQ(Select("SELECT count(*) FROM other.t"), "2");
  // No current keyspace: the unprepared message.
  CqlSession no_keyspace(db_.db.get());
  auto result = no_keyspace.Execute(insert, Ints({5, 5, 5}));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "No keyspace has been specified. USE a keyspace, or explicitly specify "
            "keyspace.tablename");
}

TEST_F(PreparedPlanCacheTest, RunsOnAnotherDatabase) {
  CqlPreparedStatement insert = Prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)");
  ASSERT_EQ(Exec(insert, Ints({1, 1, 1})), "ok");
  Db other = OpenDb();
  ASSERT_TRUE(other.session
                  ->Execute("CREATE KEYSPACE ks WITH replication = {'class': "
                            "'SimpleStrategy', 'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(
      other.session->Execute("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))").ok());
  auto result = other.session->Execute(insert, {Value::Int(2), Value::Int(2), Value::Text("two")});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(Exec(insert, Ints({3, 3, 3})), "ok");
  auto rows = other.session->Execute("SELECT k, v FROM ks.t");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->rows.size(), 1u);
  EXPECT_EQ(rows->rows[0][1].ToString(), "two");
  EXPECT_EQ(Select("SELECT count(*) FROM ks.t"), "2");
  EXPECT_EQ(Select("SELECT v FROM ks.t WHERE k = 3"), "3");
}

TEST_F(PreparedPlanCacheTest, BatchStatementsSeeSchemaChanges) {
  CqlPreparedStatement batch = Prepare(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (?, ?, ?); "
      "UPDATE t SET v = ? WHERE k = ? AND c = ?; APPLY BATCH");
  ASSERT_EQ(Exec(batch, Ints({1, 1, 1, 2, 1, 2})), "ok");
  Run("ALTER TABLE t RENAME c TO d");
  EXPECT_EQ(ExecSame(batch, Ints({1, 3, 3, 4, 1, 4})), "Undefined column name c in table ks.t");
  Run("ALTER TABLE t RENAME d TO c");
  ASSERT_EQ(Exec(batch, Ints({1, 3, 3, 4, 1, 4})), "ok");
  EXPECT_EQ(Select("SELECT c, v FROM t WHERE k = 1"), "1,1;2,2;3,3;4,4");
}

// Each statement of a prepared BATCH keeps its own resolved table: after a
// DROP and re-CREATE with another layout, or a USE of another keyspace,
// every statement re-resolves as an unprepared batch would.
TEST_F(PreparedPlanCacheTest, BatchStatementsReResolveAfterDropCreateAndUse) {
  CqlPreparedStatement batch = Prepare(
      "BEGIN UNLOGGED BATCH INSERT INTO t (k, c, v) VALUES (?, ?, ?); "
      "INSERT INTO t (k, c, v) VALUES (?, ?, ?); DELETE v FROM t WHERE k = ? AND c = ?; "
      "APPLY BATCH");
  ASSERT_EQ(Exec(batch, Ints({1, 1, 1, 1, 2, 2, 1, 1})), "ok");
  EXPECT_EQ(Select("SELECT c, v FROM t WHERE k = 1"), "1,null;2,2");
  Run("DROP TABLE t");
  Run("CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c))");
  EXPECT_EQ(
      ExecSame(batch, Ints({2, 1, 1, 2, 2, 2, 2, 1})),
      Outcome(session().Execute("INSERT INTO t (k, c, v) VALUES (?, ?, ?)", Ints({2, 1, 1}))));
  Run("DROP TABLE t");
  Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
  ASSERT_EQ(Exec(batch, Ints({3, 1, 1, 3, 2, 2, 3, 2})), "ok");
  EXPECT_EQ(Select("SELECT c, v FROM t WHERE k = 3"), "1,1;2,null");
  Run("CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Run("CREATE TABLE other.t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("USE other");
  ASSERT_EQ(Exec(batch, Ints({4, 1, 1, 4, 2, 2, 4, 2})), "ok");
  EXPECT_EQ(Select("SELECT c, v FROM other.t WHERE k = 4"), "1,1;2,null");
  EXPECT_EQ(Select("SELECT count(*) FROM ks.t WHERE k = 4"), "0");
  Run("DROP KEYSPACE other");
  EXPECT_EQ(ExecSame(batch, Ints({5, 1, 1, 5, 2, 2, 5, 2})),
            Outcome(session().Execute("INSERT INTO t (k, c, v) VALUES (1, 1, 1)")));
}

// Sessions on several threads share one prepared INSERT while the table is
// altered: every execution either writes or fails with the unprepared
// message, and the cache is never torn (run under the sanitizers).
TEST_F(PreparedPlanCacheTest, SharedAcrossThreadsWhileTheSchemaChanges) {
  const CqlPreparedStatement insert = Prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)");
  constexpr int kThreads = 3;
  constexpr int kRows = 200;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      CqlSession session(db_.db.get());
      for (int i = 0; i < kRows; ++i) {
        auto result = session.Execute(insert, Ints({t, i, i}));
        if (!result.ok()) failures.fetch_add(1);
      }
    });
  }
  for (int i = 0; i < 10; ++i) {
    Run("ALTER TABLE t ADD x" + std::to_string(i) + " int");
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    CqlResult count = Run("SELECT count(*) FROM t WHERE k = ?", Ints({t}));
    ASSERT_EQ(count.rows.size(), 1u);
    EXPECT_EQ(count.rows[0][0].AsInt64(), kRows);
  }
}

}  // namespace
}  // namespace cassette
