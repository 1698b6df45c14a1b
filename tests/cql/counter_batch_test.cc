// Counter updates in one BATCH add up in statement order: each statement
// sees the total the earlier ones left, and the cell ends with the last
// total (`c = c + 1` then `c = c - 1` leaves c unchanged), as Cassandra's
// counter deltas do. After ScyllaDB's test/cqlpy/test_counter.py
// (test_counter_batch, which passes on Cassandra) and Cassandra 5.0's
// test/unit/org/apache/cassandra/cql3/validation/entities/CountersTest.java.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/cql/cql_session_fixture.h"

namespace cassette::cql {
namespace {

class CounterBatchTest : public CqlSessionTest {
 protected:
  void SetUp() override {
    CqlSessionTest::SetUp();
    Run("CREATE TABLE ks.c (k int, r int, n counter, m counter, PRIMARY KEY (k, r))");
  }
  // "n m" of one row.
  std::string Counters(int k, int r) {
    CqlResult result = Run("SELECT n, m FROM ks.c WHERE k = " + std::to_string(k) +
                           " AND r = " + std::to_string(r));
    if (result.rows.empty()) return "<no row>";
    return result.rows[0][0].ToString() + " " + result.rows[0][1].ToString();
  }
};

TEST_F(CounterBatchTest, IncrementThenDecrementInOneBatchCancelOut) {
  Run("UPDATE ks.c SET n = n + 5, m = m + 1 WHERE k = 1 AND r = 1");
  Run("BEGIN COUNTER BATCH "
      "UPDATE ks.c SET n = n + 1 WHERE k = 1 AND r = 1; "
      "UPDATE ks.c SET n = n - 1 WHERE k = 1 AND r = 1; "
      "APPLY BATCH");
  EXPECT_EQ(Counters(1, 1), "5 1");
}

TEST_F(CounterBatchTest, EveryStatementsDeltaCounts) {
  Run("BEGIN COUNTER BATCH "
      "UPDATE ks.c SET n = n + 3 WHERE k = 1 AND r = 1; "
      "UPDATE ks.c SET n = n - 10, m = m + 2 WHERE k = 1 AND r = 1; "
      "UPDATE ks.c SET n = n + 4 WHERE k = 1 AND r = 2; "
      "UPDATE ks.c SET n = n + 1 WHERE k = 1 AND r = 1; "
      "APPLY BATCH");
  EXPECT_EQ(Counters(1, 1), "-6 2");
  EXPECT_EQ(Counters(1, 2), "4 null");
}

}  // namespace
}  // namespace cassette::cql
