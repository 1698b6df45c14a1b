// Lists written several times at one timestamp: every element appended or
// prepended by the statements of one BATCH is kept, in statement order, as
// Cassandra keeps them (its list cells are keyed by time-based uuids that
// stay distinct and ordered within a timestamp). Cases after Cassandra
// 5.0's test/unit/org/apache/cassandra/cql3/validation/entities/
// CollectionsTest.java (appends and prepends in batches).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/cql/cql_session_fixture.h"

namespace cassette::cql {
namespace {

class ListBatchTest : public CqlSessionTest {
 protected:
  void SetUp() override {
    CqlSessionTest::SetUp();
    Run("CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>)");
  }
  std::string List(int k) { return Row("SELECT l FROM ks.t WHERE k = " + std::to_string(k)); }
};

TEST_F(ListBatchTest, AppendsInOneBatchAreAllKeptInStatementOrder) {
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1])");
  Run("BEGIN BATCH "
      "UPDATE ks.t SET l = l + [2] WHERE k = 1; "
      "UPDATE ks.t SET l = l + [3, 4] WHERE k = 1; "
      "UPDATE ks.t SET l = l + [5] WHERE k = 1; "
      "APPLY BATCH");
  EXPECT_EQ(List(1), "[1, 2, 3, 4, 5]");
  // The same at an explicit timestamp shared by every statement.
  Run("BEGIN BATCH USING TIMESTAMP 1704067300000000 "
      "UPDATE ks.t SET l = l + [6] WHERE k = 2; "
      "UPDATE ks.t SET l = l + [7] WHERE k = 2; "
      "APPLY BATCH");
  EXPECT_EQ(List(2), "[6, 7]");
}

TEST_F(ListBatchTest, PrependsInOneBatchAreAllKeptLaterFirst) {
  Run("INSERT INTO ks.t (k, l) VALUES (1, [1])");
  Run("BEGIN BATCH "
      "UPDATE ks.t SET l = [6, 4] + l WHERE k = 1; "
      "UPDATE ks.t SET l = [3] + l WHERE k = 1; "
      "APPLY BATCH");
  // Each prepend goes before what is there: the second before the first,
  // each statement's elements in their own order.
  EXPECT_EQ(List(1), "[3, 6, 4, 1]");
}

TEST_F(ListBatchTest, AppendsAndPrependsMixInOneBatch) {
  Run("BEGIN BATCH "
      "UPDATE ks.t SET l = l + [2] WHERE k = 1; "
      "UPDATE ks.t SET l = [1] + l WHERE k = 1; "
      "UPDATE ks.t SET l = l + [3] WHERE k = 1; "
      "APPLY BATCH");
  EXPECT_EQ(List(1), "[1, 2, 3]");
}

}  // namespace
}  // namespace cassette::cql
