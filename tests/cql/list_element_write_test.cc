// `l[i] = v`, `DELETE l[i]` and `l = l - [..]` write only the cells of the
// elements they change, as Cassandra's list setter by index and discarders
// do: the other elements keep their own timestamps and TTLs, an element
// written later than the statement survives it, and no element is ever
// duplicated. Each statement reads the list as stored, also inside a
// BATCH. Cases after Cassandra 5.0's
// test/unit/org/apache/cassandra/cql3/validation/entities/CollectionsTest.java
// (testList, testListWithUnsetValues) and WritetimeOrTTLTest.java
// (testList).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cassette/cql.h"
#include "cassette/db.h"

namespace cassette::cql {
namespace {

constexpr int64_t kNow = 1'704'067'200'000'000;

class ListElementWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.file_system = NewMemFileSystem();
    clock_ = std::make_shared<ManualClock>(kNow);
    options.clock = clock_;
    options.scheduler = std::make_shared<ManualScheduler>();
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    session_ = std::make_unique<CqlSession>(db_.get());
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>)");
  }
  void Run(const std::string& cql) {
    auto result = session_->Execute(cql);
    ASSERT_TRUE(result.ok()) << cql << ": " << result.status().ToString();
  }
  std::string Error(const std::string& cql) {
    auto result = session_->Execute(cql);
    return result.ok() ? "<ok>" : result.status().message();
  }
  // The first row's first column, as text.
  std::string Select(const std::string& what, int k = 1) {
    auto result = session_->Execute("SELECT " + what + " FROM ks.t WHERE k = " + std::to_string(k));
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok() || result->rows.empty()) return "<no row>";
    return result->rows[0][0].ToString();
  }
  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
};

TEST_F(ListElementWriteTest, SetByIndexKeepsTheOtherElementsCells) {
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1, 2, 3]) USING TIMESTAMP 10");
  Run("UPDATE ks.t USING TIMESTAMP 20 AND TTL 1000 SET l[1] = 20 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 20, 3]");
  EXPECT_EQ(Select("writetime(l)"), "[10, 20, 10]");
  EXPECT_EQ(Select("ttl(l)"), "[null, 1000, null]");
  EXPECT_EQ(Select("maxwritetime(l)"), "20");
}

TEST_F(ListElementWriteTest, AnElementWrittenLaterIsNeitherDuplicatedNorLost) {
  // The statement's timestamp is older than the appended element's: the
  // old rewrite of the whole list kept that element and added its copy.
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1, 2])");
  Run("UPDATE ks.t USING TIMESTAMP " + std::to_string(kNow + 100'000'000) +
      " SET l = l + [3] WHERE k = 1");
  Run("UPDATE ks.t SET l[0] = 10 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[10, 2, 3]");
  Run("UPDATE ks.t SET l = l - [2] WHERE k = 1");
  EXPECT_EQ(Select("l"), "[10, 3]");
  Run("DELETE l[0] FROM ks.t WHERE k = 1");
  EXPECT_EQ(Select("l"), "[3]");
  // A write older than the element loses to it, as any cell's would.
  Run("UPDATE ks.t USING TIMESTAMP 5 SET l[0] = 30 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[3]");
}

TEST_F(ListElementWriteTest, RemovalByValueAndIndexKeepTheRestsTtl) {
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1, 2, 1, 3]) USING TTL 500");
  ASSERT_TRUE(clock_->Advance(100'000'000).ok());  // 100 s
  Run("UPDATE ks.t SET l = l - [1] WHERE k = 1");
  EXPECT_EQ(Select("l"), "[2, 3]");
  EXPECT_EQ(Select("ttl(l)"), "[400, 400]");
  Run("DELETE l[1] FROM ks.t WHERE k = 1");
  EXPECT_EQ(Select("l"), "[2]");
  EXPECT_EQ(Select("ttl(l)"), "[400]");
  // Setting null by index deletes the element.
  Run("UPDATE ks.t SET l[0] = null WHERE k = 1");
  EXPECT_EQ(Select("l"), "null");
}

TEST_F(ListElementWriteTest, StatementsOfABatchEachReadTheStoredList) {
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1, 2, 3])");
  // Both read [1, 2, 3]: each deletes its element 0, the same element.
  Run("BEGIN BATCH "
      "DELETE l[0] FROM ks.t WHERE k = 1; "
      "DELETE l[0] FROM ks.t WHERE k = 1; "
      "APPLY BATCH");
  EXPECT_EQ(Select("l"), "[2, 3]");
  Run("BEGIN BATCH "
      "UPDATE ks.t SET l[0] = 20 WHERE k = 1; "
      "UPDATE ks.t SET l[1] = 30 WHERE k = 1; "
      "APPLY BATCH");
  EXPECT_EQ(Select("l"), "[20, 30]");
}

TEST_F(ListElementWriteTest, IndexErrorsUseCassandrasMessages) {
  EXPECT_EQ(Error("UPDATE ks.t SET l[0] = 1 WHERE k = 9"),
            "Attempted to set an element on a list which is null");
  EXPECT_EQ(Error("DELETE l[0] FROM ks.t WHERE k = 9"),
            "Attempted to delete an element from a list which is null");
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1, 2])");
  EXPECT_EQ(Error("UPDATE ks.t SET l[2] = 1 WHERE k = 1"),
            "List index 2 out of bound, list has size 2");
  EXPECT_EQ(Error("DELETE l[5] FROM ks.t WHERE k = 1"),
            "List index 5 out of bound, list has size 2");
  // Removing from a missing list is a no-op, as Cassandra's discarder.
  Run("UPDATE ks.t SET l = l - [1] WHERE k = 9");
  EXPECT_EQ(Select("l", 1), "[1, 2]");
}

TEST_F(ListElementWriteTest, TheEngineRefusesAPathThatIsNotAListElement) {
  Mutation m("ks", "t", {Value::Int(1)});
  m.Update({}).SetListElementAt("l", "not a timeuuid", Value::Int(1));
  EXPECT_EQ(db_->Apply(m).message(), "Invalid list element path for column l");
  Mutation on_set("ks", "t", {Value::Int(1)});
  on_set.Update({}).DeleteListElementAt("k", std::string(17, '\x01'));
  EXPECT_FALSE(db_->Apply(on_set).ok());
}

}  // namespace
}  // namespace cassette::cql
