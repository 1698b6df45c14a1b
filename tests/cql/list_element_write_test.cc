// `l[i] = v`, `DELETE l[i]` and `l = l - [..]` write only the cells of the
// elements they change, as Cassandra's list setter by index and discarders
// do: the other elements keep their own timestamps and TTLs, an element
// written later than the statement survives it, and no element is ever
// duplicated. Each statement reads the list as stored with its own earlier
// operations applied; statements of a BATCH do not see each other's. Cases
// after Cassandra 5.0's
// test/unit/org/apache/cassandra/cql3/validation/entities/CollectionsTest.java
// (testList, testListWithUnsetValues,
// testMultipleOperationOnListWithinTheSameQuery) and WritetimeOrTTLTest.java
// (testList).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/cql/cql_session_fixture.h"

namespace cassette::cql {
namespace {

class ListElementWriteTest : public CqlSessionTest {
 protected:
  void SetUp() override {
    CqlSessionTest::SetUp();
    Run("CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>)");
  }
  // The first row's first column, as text.
  std::string Select(const std::string& what, int k = 1) {
    return Row("SELECT " + what + " FROM ks.t WHERE k = " + std::to_string(k));
  }
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
  Run("UPDATE ks.t USING TIMESTAMP " + std::to_string(kStartMicros + 100'000'000) +
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

TEST_F(ListElementWriteTest, LaterOperationsOfAStatementSeeTheEarlierOnes) {
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1, 2, 3, 4])");
  // Two writes of one element at one timestamp: the larger value wins.
  Run("UPDATE ks.t SET l[2] = 7, l[2] = 8 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 2, 8, 4]");
  Run("UPDATE ks.t SET l[2] = 9, l[2] = 6 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 2, 9, 4]");
  // The second deletion sees the list without the first's element.
  Run("DELETE l[2], l[2] FROM ks.t WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 2]");
  // An index reaches the elements the statement appends...
  Run("UPDATE ks.t SET l = l + [3, 4], l[3] = 7 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 2, 3, 7]");
  // ...which reconcile with them as one cell: 6 beats 5.
  Run("UPDATE ks.t SET l = l + [6, 8], l[4] = 5 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 2, 3, 7, 6, 8]");
  EXPECT_EQ(Error("UPDATE ks.t SET l[6] = 5, l = l + [9] WHERE k = 1"),
            "List index 6 out of bound, list has size 6");
  // A removal by value sees the element the statement set.
  Run("UPDATE ks.t SET l[2] = 8, l = l - [8] WHERE k = 1");
  EXPECT_EQ(Select("l"), "[1, 2, 7, 6]");
  EXPECT_EQ(Error("UPDATE ks.t SET l = l - [6], l[3] = 4 WHERE k = 1"),
            "List index 3 out of bound, list has size 3");
  Run("UPDATE ks.t SET l = l - [2, 6], l[0] = 9 WHERE k = 1");
  EXPECT_EQ(Select("l"), "[9, 7]");
  // Deleting an element the statement prepends: it is never written.
  Run("UPDATE ks.t SET l = [5, 6] + l, l[0] = null WHERE k = 1");
  EXPECT_EQ(Select("l"), "[6, 9, 7]");
  // An appended element set and another removed in one statement.
  Run("UPDATE ks.t SET l = l + [10, 11, 12], l[4] = 20, l = l - [10] WHERE k = 1");
  EXPECT_EQ(Select("l"), "[6, 9, 7, 20, 12]");
  // Setting the whole list and an element of it is refused, as in Cassandra.
  EXPECT_EQ(Error("UPDATE ks.t SET l = [1], l[0] = 2 WHERE k = 1"),
            "Multiple incompatible setting of column l");
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
