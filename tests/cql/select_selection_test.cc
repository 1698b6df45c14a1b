// SELECT's selectors: result column names as Cassandra names them,
// WRITETIME/TTL, token(), element selection, constants, SELECT JSON and
// aggregates with GROUP BY.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cql/select_test_util.h"

namespace cassette::cql {
namespace {

using RowList = std::vector<std::string>;

// ks.m (k int, c int, "Name" text, v int, f double, tags map<text, text>,
// PRIMARY KEY (k, c)): partition 1 holds c = 0..3 with v = 10c, f = c / 2,
// written at timestamp 1000 + c with TTL 100 for c = 3.
class SelectSelectionTest : public SelectTest {
 protected:
  void SetUp() override {
    SelectTest::SetUp();
    CreateTable(TableSchema("ks", "m")
                    .AddPartitionKey("k", DataType::Int())
                    .AddClustering("c", DataType::Int())
                    .AddRegular("Name", DataType::Text())
                    .AddRegular("v", DataType::Int())
                    .AddRegular("f", DataType::Double())
                    .AddRegular("tags", DataType::Map(DataType::Text(), DataType::Text())));
    for (int c = 0; c < 4; ++c) {
      Mutation m("ks", "m", {Value::Int(1)});
      m.UsingTimestamp(1000 + c);
      if (c == 3) m.UsingTtl(100);
      m.Insert({Value::Int(c)})
          .Set("v", Value::Int(10 * c))
          .Set("f", Value::Double(c / 2.0))
          .Set("Name", Value::Text("n" + std::to_string(c)))
          .Set("tags", Value::Map(DataType::Text(), DataType::Text(),
                                  {{Value::Text("region"), Value::Text(c % 2 ? "eu" : "us")}}));
      Apply(m);
    }
  }
};

TEST_F(SelectSelectionTest, ColumnNames) {
  EXPECT_EQ(Columns("SELECT k, v AS value, writetime(v), ttl(v), \"Name\" FROM ks.m WHERE k = 1"),
            (RowList{"k", "value", "writetime(v)", "ttl(v)", "Name"}));
  EXPECT_EQ(Columns("SELECT count(*) FROM ks.m WHERE k = 1"), (RowList{"count"}));
  EXPECT_EQ(Columns("SELECT count(*) AS n FROM ks.m WHERE k = 1"), (RowList{"n"}));
}

TEST_F(SelectSelectionTest, WritetimeAndTtl) {
  EXPECT_EQ(Rows("SELECT c, writetime(v), ttl(v) FROM ks.m WHERE k = 1"),
            (RowList{"0, 1000, null", "1, 1001, null", "2, 1002, null", "3, 1003, 100"}));
  ASSERT_TRUE(clock_->Advance(40'000'000).ok());
  EXPECT_EQ(Rows("SELECT ttl(v) FROM ks.m WHERE k = 1 AND c = 3"), (RowList{"60"}));
  EXPECT_EQ(Error("SELECT writetime(k) FROM ks.m"),
            "InvalidRequest: Cannot use selection function writetime on PRIMARY KEY part k");
  EXPECT_EQ(Error("SELECT ttl(c) FROM ks.m"),
            "InvalidRequest: Cannot use selection function ttl on PRIMARY KEY part c");
  // A non-frozen collection has one WRITETIME per element (Cassandra 5):
  // tests/cql/collection_selection_test.cc has the cases.
}

TEST_F(SelectSelectionTest, TokenAndElementSelectors) {
  // token(1) = -4069959284402364209 (docs/SEMANTICS.md §8).
  EXPECT_EQ(Rows("SELECT token(k), c FROM ks.m WHERE k = 1 AND c = 0"),
            (RowList{"-4069959284402364209, 0"}));
  EXPECT_EQ(Rows("SELECT c, tags['region'] AS region FROM ks.m WHERE k = 1 AND c < 2"),
            (RowList{"0, us", "1, eu"}));
  EXPECT_EQ(Rows("SELECT tags['absent'] FROM ks.m WHERE k = 1 AND c = 0"), (RowList{"null"}));
}

TEST_F(SelectSelectionTest, SelectJson) {
  auto result = Execute("SELECT JSON c, v, \"Name\", tags FROM ks.m WHERE k = 1 AND c = 1");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->columns.size(), 1u);
  EXPECT_EQ(result->columns[0].name, "[json]");
  ASSERT_EQ(result->rows.size(), 1u);
  EXPECT_EQ(result->rows[0][0].AsString(),
            "{\"c\": 1, \"v\": 10, \"\\\"Name\\\"\": \"n1\", \"tags\": {\"region\": \"eu\"}}");
  EXPECT_EQ(Rows("SELECT JSON k, ttl(v) FROM ks.m WHERE k = 1 AND c = 0"),
            (RowList{"{\"k\": 1, \"ttl(v)\": null}"}));
}

TEST_F(SelectSelectionTest, Aggregates) {
  EXPECT_EQ(Rows("SELECT count(*), count(v), min(v), max(v), sum(v), avg(v) FROM ks.m WHERE k = 1"),
            (RowList{"4, 4, 0, 30, 60, 15"}));
  // avg of an int column divides in int; of a double in double.
  EXPECT_EQ(Rows("SELECT avg(v), avg(f), sum(f) FROM ks.m WHERE k = 1 AND c IN (0, 1)"),
            (RowList{"5, 0.25, 0.5"}));
  // No rows: one row, count 0, sum and avg 0, min and max null.
  EXPECT_EQ(Rows("SELECT count(*), sum(v), avg(v), min(v), max(v) FROM ks.m WHERE k = 9"),
            (RowList{"0, 0, 0, null, null"}));
  // A non-aggregated column shows the first row's value.
  EXPECT_EQ(Rows("SELECT c, max(v) FROM ks.m WHERE k = 1 AND c > 0"), (RowList{"1, 30"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM ks.m WHERE v > 5 ALLOW FILTERING"), (RowList{"3"}));
}

TEST_F(SelectSelectionTest, GroupBy) {
  for (int k = 2; k < 4; ++k) {
    Mutation m("ks", "m", {Value::Int(k)});
    for (int c = 0; c < k; ++c) m.Insert({Value::Int(c)}).Set("v", Value::Int(c));
    Apply(m);
  }
  // Token order of partitions 1, 2, 3: 1, 2, 3 (see docs/SEMANTICS.md §8 vectors).
  EXPECT_EQ(Rows("SELECT k, count(*), sum(v) FROM ks.m GROUP BY k"),
            (RowList{"1, 4, 60", "2, 2, 1", "3, 3, 3"}));
  EXPECT_EQ(Rows("SELECT k, c, count(*) FROM ks.m WHERE k = 3 GROUP BY k, c"),
            (RowList{"3, 0, 1", "3, 1, 1", "3, 2, 1"}));
  EXPECT_EQ(Rows("SELECT k, count(*) FROM ks.m GROUP BY k LIMIT 2"), (RowList{"1, 4", "2, 2"}));
  EXPECT_EQ(Rows("SELECT k, c FROM ks.m WHERE k IN (2, 3) GROUP BY k, c PER PARTITION LIMIT 1"),
            (RowList{"2, 0", "3, 0"}));
  // GROUP BY without aggregates: the first row of each group.
  EXPECT_EQ(Rows("SELECT k, c, v FROM ks.m GROUP BY k"),
            (RowList{"1, 0, 0", "2, 0, 0", "3, 0, 0"}));
  EXPECT_EQ(Error("SELECT count(*) FROM ks.m GROUP BY v"),
            "InvalidRequest: Group by is currently only supported on the columns of the PRIMARY "
            "KEY, got v");
  EXPECT_EQ(Error("SELECT count(*) FROM ks.m GROUP BY c"),
            "InvalidRequest: Group by currently only support groups of columns following their "
            "declared order in the PRIMARY KEY");
  EXPECT_EQ(Rows("SELECT c, count(*) FROM ks.m WHERE k = 3 GROUP BY c"),
            (RowList{"0, 1", "1, 1", "2, 1"}));
}

TEST_F(SelectSelectionTest, GroupByTimeBuckets) {
  CreateTable(TableSchema("ks", "ts")
                  .AddPartitionKey("id", DataType::Text())
                  .AddClustering("t", DataType::Timestamp())
                  .AddRegular("v", DataType::Int()));
  Mutation m("ks", "ts", {Value::Text("s")});
  // 2024-01-01T00:00, 00:30, 01:10, 01:50, 03:00 (ms since the epoch).
  const int64_t base = 1'704'067'200'000;
  const int64_t minutes[] = {0, 30, 70, 110, 180};
  for (int64_t minute : minutes) {
    m.Insert({Value::Timestamp(base + minute * 60'000)})
        .Set("v", Value::Int(static_cast<int>(minute)));
  }
  Apply(m);
  EXPECT_EQ(
      Rows("SELECT floor(t, 1h), count(*), max(v) FROM ks.ts WHERE id = 's' "
           "GROUP BY id, floor(t, 1h)"),
      (RowList{"2024-01-01 00:00:00.000000+0000, 2, 30", "2024-01-01 01:00:00.000000+0000, 2, 110",
               "2024-01-01 03:00:00.000000+0000, 1, 180"}));
}

}  // namespace
}  // namespace cassette::cql
