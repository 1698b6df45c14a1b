// Terms in the selection clause and the literals they build on:
// arithmetic (Cassandra 5.0's OperationFctsTest), CAST naming
// (CastFctsTest), duration literals (DurationTest, cqlpy
// test_type_duration.py), tuple string constants (TupleTypeTest
// testTupleFromString).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cql/select_test_util.h"

namespace cassette::cql {
namespace {

using RowList = std::vector<std::string>;

class SelectOperationsTest : public SelectTest {
 protected:
  void Run(const std::string& cql) {
    auto result = Execute(cql);
    ASSERT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
  }
};

// OperationFctsTest.testSingleOperations / testPrecedenceAndParentheses.
TEST_F(SelectOperationsTest, ArithmeticBetweenColumnsAndLiterals) {
  Run("CREATE TABLE ks.t (a int, b int, c int, d int, PRIMARY KEY (a, b))");
  Run("INSERT INTO ks.t (a, b, c, d) VALUES (2, 5, 25, 4)");
  EXPECT_EQ(Columns("SELECT a + b, -c, (c - b) / a + d, 1 + 1 FROM ks.t"),
            (RowList{"a + b", "-c", "(c - b) / a + d", "1 + 1"}));
  EXPECT_EQ(Rows("SELECT a + b, -c, (c - b) / a + d, 1 + 1 FROM ks.t"), (RowList{"7, -25, 14, 2"}));
  // * / % bind tighter than + -, left to right.
  EXPECT_EQ(Rows("SELECT a - c / b + d, c - a % d / a + d, 1 + 2 * a FROM ks.t"),
            (RowList{"1, 28, 5"}));
  EXPECT_EQ(Rows("SELECT (int)((c - a) % d / (a + d)) AS r FROM ks.t"), (RowList{"0"}));
  // In WHERE, (2 + 2) is a parenthesised operation, not a tuple.
  EXPECT_EQ(Rows("SELECT c FROM ks.t WHERE a = 2 AND b = (int) 20 / (2 + 2)"), (RowList{"25"}));
}

// OperationFctsTest.testOverflow, testWithDivisionByZero, testInvalidTypes.
TEST_F(SelectOperationsTest, OverflowFailuresAndUnsupportedTypes) {
  Run("CREATE TABLE ks.t (a int PRIMARY KEY, b tinyint, z int, f boolean)");
  Run("INSERT INTO ks.t (a, b, z, f) VALUES (1, 1, 0, true)");
  EXPECT_EQ(Rows("SELECT a + (int) 2147483647, b + (tinyint) 127 FROM ks.t"),
            (RowList{"-2147483648, -128"}));
  EXPECT_EQ(Error("SELECT a / z FROM ks.t"),
            "FunctionFailure: the operation 'int / int' failed: / by zero");
  EXPECT_EQ(Error("SELECT a FROM ks.t WHERE a = 10 / 0"),
            "FunctionFailure: the operation 'int / int' failed: / by zero");
  EXPECT_EQ(Error("SELECT a + f FROM ks.t"),
            "InvalidRequest: the '+' operation is not supported between a and f");
  EXPECT_EQ(Error("SELECT f / 1 FROM ks.t"),
            "InvalidRequest: the '/' operation is not supported between f and 1");
}

// OperationFctsTest.testOperationsWithDuration.
TEST_F(SelectOperationsTest, TimestampMinusDuration) {
  Run("CREATE TABLE ks.t (pk int, time timestamp, PRIMARY KEY (pk, time))");
  Run("INSERT INTO ks.t (pk, time) VALUES (1, '2016-09-27 16:10:00 UTC')");
  EXPECT_EQ(Rows("SELECT time - 10m FROM ks.t WHERE pk = 1"),
            (RowList{"2016-09-27 16:00:00.000000+0000"}));
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE pk = 1 AND time > '2016-09-27 16:15:00 UTC' - 10us"),
            "FunctionFailure: the operation 'timestamp - duration' failed: The duration must "
            "have a millisecond precision. Was: 10us");
  EXPECT_EQ(Error("SELECT time % 10m FROM ks.t WHERE pk = 1"),
            "InvalidRequest: the '%' operation is not supported between time and 10m");
}

// CastFctsTest: a CAST to the argument's own type is the argument.
TEST_F(SelectOperationsTest, CastNamesAndRefusals) {
  Run("CREATE TABLE ks.t (p int PRIMARY KEY, v varint)");
  EXPECT_EQ(Columns("SELECT CAST(p AS int), CAST(p AS bigint) FROM ks.t"),
            (RowList{"p", "cast(p as bigint)"}));
  // Refused when prepared, even with no row, naming the column.
  EXPECT_EQ(Error("SELECT CAST(p AS boolean) FROM ks.t"),
            "InvalidRequest: p cannot be cast to boolean");
  EXPECT_EQ(Error("SELECT CAST(v AS blob) FROM ks.t"), "InvalidRequest: v cannot be cast to blob");
}

TEST_F(SelectOperationsTest, DurationLiterals) {
  Run("CREATE TABLE ks.t (p int PRIMARY KEY, d duration)");
  Run("INSERT INTO ks.t (p, d) VALUES (1, 1\xC2\xB5s)");
  EXPECT_EQ(Rows("SELECT d FROM ks.t"), (RowList{"1us"}));
  Run("INSERT INTO ks.t (p, d) VALUES (1, P0001-00-02T00:00:00)");
  EXPECT_EQ(Rows("SELECT d FROM ks.t"), (RowList{"1y2d"}));
  EXPECT_EQ(Error("INSERT INTO ks.t (p, d) VALUES (1, 12s3m)"),
            "InvalidRequest: Invalid duration. The seconds should be after minutes");
}

// TupleTypeTest.testTupleFromString and testTuplePutAndGet.
TEST_F(SelectOperationsTest, TupleStringFormAndShortLiteral) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, t frozen<tuple<int, text>>)");
  Run("INSERT INTO ks.t (k, t) VALUES (0, '1:1\\:1')");
  Run("INSERT INTO ks.t (k, t) VALUES (1, '@:1')");
  Run("INSERT INTO ks.t (k, t) VALUES (2, (5))");
  EXPECT_EQ(Rows("SELECT t FROM ks.t WHERE k IN (0, 1, 2)"),
            (RowList{"(1, '1:1')", "(null, '1')", "(5, null)"}));
  EXPECT_EQ(Error("INSERT INTO ks.t (k, t) VALUES (3, '1:2:3')"),
            "InvalidRequest: Invalid tuple literal: too many elements. Type "
            "frozen<tuple<int, text>> expects 2 but got 3");
}

}  // namespace
}  // namespace cassette::cql
