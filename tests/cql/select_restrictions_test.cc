// SELECT's WHERE clause (docs/SEMANTICS.md §7): partition keys, token ranges,
// clustering prefixes and slices, ALLOW FILTERING, ORDER BY, LIMIT and the
// static-row rules, each with the rows Cassandra returns or its exact error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cql/select_test_util.h"

namespace cassette::cql {
namespace {

using RowList = std::vector<std::string>;

const std::string kFilter =
    "InvalidRequest: Cannot execute this query as it might involve data filtering and thus may "
    "have unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

// ks.t (k int, c1 int, c2 int, s int static, v int, l list<int>,
// m map<text, int>, PRIMARY KEY (k, c1, c2)): partitions 0, 1, 2 with rows
// c1 in 0..2, c2 in 0..1, v = 100k + 10c1 + c2; partition 5 holds only s.
// Token order of the partitions: 5, 1, 0, 2.
class SelectRestrictionsTest : public SelectTest {
 protected:
  void SetUp() override {
    SelectTest::SetUp();
    CreateTable(TableSchema("ks", "t")
                    .AddPartitionKey("k", DataType::Int())
                    .AddClustering("c1", DataType::Int())
                    .AddClustering("c2", DataType::Int())
                    .AddStatic("s", DataType::Int())
                    .AddRegular("v", DataType::Int())
                    .AddRegular("l", DataType::List(DataType::Int()))
                    .AddRegular("m", DataType::Map(DataType::Text(), DataType::Int())));
    for (int k = 0; k < 3; ++k) {
      Mutation m("ks", "t", {Value::Int(k)});
      m.Update({}).Set("s", Value::Int(k * 1000));
      for (int c1 = 0; c1 < 3; ++c1) {
        for (int c2 = 0; c2 < 2; ++c2) {
          const int v = k * 100 + c1 * 10 + c2;
          m.Insert({Value::Int(c1), Value::Int(c2)})
              .Set("v", Value::Int(v))
              .Set("l", Value::List(DataType::Int(), {Value::Int(v % 7)}))
              .Set("m", Value::Map(DataType::Text(), DataType::Int(),
                                   {{Value::Text(c2 == 0 ? "a" : "b"), Value::Int(c1)}}));
        }
      }
      Apply(m);
    }
    Mutation statics("ks", "t", {Value::Int(5)});
    statics.Update({}).Set("s", Value::Int(7));
    Apply(statics);
  }
};

TEST_F(SelectRestrictionsTest, SelectStarColumnOrder) {
  EXPECT_EQ(Columns("SELECT * FROM ks.t WHERE k = 0"),
            (RowList{"k", "c1", "c2", "s", "l", "m", "v"}));
  EXPECT_EQ(Rows("SELECT * FROM ks.t WHERE k = 0 AND c1 = 2 AND c2 = 1"),
            (RowList{"0, 2, 1, 0, [0], {'b': 2}, 21"}));
}

TEST_F(SelectRestrictionsTest, PartitionKeyEqualityAndIn) {
  EXPECT_EQ(
      Rows("SELECT c1, c2, v FROM ks.t WHERE k = 1"),
      (RowList{"0, 0, 100", "0, 1, 101", "1, 0, 110", "1, 1, 111", "2, 0, 120", "2, 1, 121"}));
  EXPECT_EQ(Rows("SELECT k FROM ks.t WHERE k = 3"), RowList{});
  // IN: de-duplicated, in key value order (token order would be 1, 0, 2).
  EXPECT_EQ(Rows("SELECT k, v FROM ks.t WHERE k IN (2, 1, 0, 2) AND c1 = 0 AND c2 = 0"),
            (RowList{"0, 0", "1, 100", "2, 200"}));
  EXPECT_EQ(Rows("SELECT k FROM ks.t WHERE k IN () "), RowList{});
}

TEST_F(SelectRestrictionsTest, FullScanIsInTokenOrder) {
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t"), (RowList{"5", "1", "0", "2"}));
}

TEST_F(SelectRestrictionsTest, TokenRanges) {
  // token(1) = -4069959284402364209, token(0) = -3485513579396041028.
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) > -4069959284402364209"),
            (RowList{"0", "2"}));
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) >= -4069959284402364209"),
            (RowList{"1", "0", "2"}));
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) >= -4069959284402364209 AND "
                 "token(k) <= -3485513579396041028"),
            (RowList{"1", "0"}));
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) < -3485513579396041028"),
            (RowList{"5", "1"}));
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) = -3485513579396041028"),
            (RowList{"0"}));
  // No wrap-around: start after end, or equal with an exclusive bound, is empty.
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) > -3485513579396041028 AND "
                 "token(k) < -4069959284402364209"),
            RowList{});
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) > -3485513579396041028 AND "
                 "token(k) <= -3485513579396041028"),
            RowList{});
  // token(literals) takes the partition key's types.
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE token(k) > token(1) AND token(k) <= token(2)"),
            (RowList{"0", "2"}));
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE token(k) > 0 AND token(k) > 1"),
            "InvalidRequest: More than one restriction was found for the start bound on k");
}

TEST_F(SelectRestrictionsTest, TokenArgumentsMustBeThePartitionKeyInOrder) {
  CreateTable(TableSchema("ks", "two")
                  .AddPartitionKey("a", DataType::Int())
                  .AddPartitionKey("b", DataType::Int())
                  .AddRegular("v", DataType::Int()));
  EXPECT_EQ(Error("SELECT * FROM ks.two WHERE token(b, a) > 0"),
            "InvalidRequest: The token function arguments must be in the partition key order: a, "
            "b");
  EXPECT_EQ(Error("SELECT * FROM ks.two WHERE token(a) > 0"),
            "InvalidRequest: The token function arguments must be in the partition key order: a, "
            "b");
  Mutation m("ks", "two", {Value::Int(1), Value::Int(2)});
  m.Insert({}).Set("v", Value::Int(3));
  Apply(m);
  // token((1, 2)) = 4881097376275569167 (docs/SEMANTICS.md §8).
  EXPECT_EQ(Rows("SELECT token(a, b), v FROM ks.two WHERE token(a, b) = 4881097376275569167"),
            (RowList{"4881097376275569167, 3"}));
  // The cartesian product of IN on several components.
  EXPECT_EQ(Rows("SELECT a, b, v FROM ks.two WHERE a IN (1, 2) AND b IN (2, 3)"),
            (RowList{"1, 2, 3"}));
  EXPECT_EQ(Error("SELECT * FROM ks.two WHERE a = 1"), kFilter);
  EXPECT_EQ(Rows("SELECT v FROM ks.two WHERE a = 1 ALLOW FILTERING"), (RowList{"3"}));
}

TEST_F(SelectRestrictionsTest, ClusteringPrefixAndSlices) {
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 = 1"), (RowList{"10", "11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 = 1 AND c2 > 0"), (RowList{"11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 > 0 AND c1 <= 1"), (RowList{"10", "11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 >= 2"), (RowList{"20", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 > 2 AND c1 < 1"), RowList{});
  // Multi-column slices and IN.
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) > (1, 0)"),
            (RowList{"11", "20", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) > (0, 1) AND (c1, c2) <= (1, 1)"),
            (RowList{"10", "11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) IN ((2, 1), (0, 0), (2, 1))"),
            (RowList{"0", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) = (1, 1)"), (RowList{"11"}));
}

TEST_F(SelectRestrictionsTest, ClusteringInIsDeduplicatedInClusteringOrder) {
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 IN (2, 0, 2)"),
            (RowList{"0", "1", "20", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 IN (2, 0) ORDER BY c1 DESC"),
            (RowList{"21", "20", "1", "0"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 IN (2, 0) AND c2 IN (1, 0)"),
            (RowList{"0", "1", "20", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 IN (2, 0) AND c2 > 0"),
            (RowList{"1", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k IN (1, 0) AND c1 IN (2, 0) AND c2 = 1"),
            (RowList{"1", "21", "101", "121"}));
}

TEST_F(SelectRestrictionsTest, DescendingClusteringOrder) {
  CreateTable(TableSchema("ks", "desc_t")
                  .AddPartitionKey("k", DataType::Int())
                  .AddClustering("c", DataType::Int(), ClusteringOrder::kDesc)
                  .AddRegular("v", DataType::Int()));
  Mutation m("ks", "desc_t", {Value::Int(0)});
  for (int c = 0; c < 5; ++c) m.Insert({Value::Int(c)}).Set("v", Value::Int(c));
  Apply(m);
  EXPECT_EQ(Rows("SELECT c FROM ks.desc_t WHERE k = 0"), (RowList{"4", "3", "2", "1", "0"}));
  EXPECT_EQ(Rows("SELECT c FROM ks.desc_t WHERE k = 0 AND c > 1 AND c <= 3"), (RowList{"3", "2"}));
  EXPECT_EQ(Rows("SELECT c FROM ks.desc_t WHERE k = 0 ORDER BY c ASC"),
            (RowList{"0", "1", "2", "3", "4"}));
  EXPECT_EQ(Rows("SELECT c FROM ks.desc_t WHERE k = 0 AND c IN (1, 3, 2)"),
            (RowList{"3", "2", "1"}));
  EXPECT_EQ(Rows("SELECT c FROM ks.desc_t WHERE k = 0 AND c IN (1, 3) ORDER BY c ASC"),
            (RowList{"1", "3"}));
}

TEST_F(SelectRestrictionsTest, ClusteringRestrictionErrors) {
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c2 = 1"),
            "InvalidRequest: PRIMARY KEY column \"c2\" cannot be restricted as preceding column "
            "\"c1\" is not restricted");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c1 > 0 AND c2 = 1"),
            "InvalidRequest: Clustering column \"c2\" cannot be restricted (preceding column "
            "\"c1\" is restricted by a non-EQ relation)");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c2 = 1 AND c1 > 0"),
            "InvalidRequest: PRIMARY KEY column \"c2\" cannot be restricted (preceding column "
            "\"c1\" is restricted by a non-EQ relation)");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c1 = 1 AND c1 = 2"),
            "InvalidRequest: c1 cannot be restricted by more than one relation if it includes an "
            "Equal");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c1 IN (1) AND c1 = 2"),
            "InvalidRequest: c1 cannot be restricted by more than one relation if it includes a "
            "IN");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c1 > 1 AND c1 >= 2"),
            "InvalidRequest: More than one restriction was found for the start bound on c1");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c1 < 1 AND c1 <= 2"),
            "InvalidRequest: More than one restriction was found for the end bound on c1");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND c1 > 1 AND c1 = 2"),
            "InvalidRequest: Column \"c1\" cannot be restricted by both an equality and an "
            "inequality relation");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND k = 1"),
            "InvalidRequest: k cannot be restricted by more than one relation if it includes an "
            "Equal");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND d = 1"),
            "InvalidRequest: Undefined column name d in table ks.t");
  EXPECT_EQ(Error("SELECT d FROM ks.t WHERE k = 0"),
            "InvalidRequest: Undefined column name d in table ks.t");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND (k, c1) = (1, 1)"),
            "InvalidRequest: Multi-column relations can only be applied to clustering columns but "
            "was applied to: k");
}

TEST_F(SelectRestrictionsTest, FilteringNeedsAllowFiltering) {
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE v = 1"), kFilter);
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND v = 1"), kFilter);
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE c1 = 1"), kFilter);
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k > 1"), kFilter);
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE token(k) > 0 AND c1 = 1"), kFilter);
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE s = 1"), kFilter);
}

TEST_F(SelectRestrictionsTest, AllowFilteringFiltersRowsInTokenOrder) {
  EXPECT_EQ(Rows("SELECT k, v FROM ks.t WHERE v = 111 ALLOW FILTERING"), (RowList{"1, 111"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE v > 115 AND v < 205 ALLOW FILTERING"),
            (RowList{"120", "121", "200", "201"}));
  // Clustering without the partition key: every partition, token order.
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE c1 = 2 AND c2 = 1 ALLOW FILTERING"),
            (RowList{"121", "21", "221"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE c1 IN (0, 2) AND c2 = 1 ALLOW FILTERING"),
            (RowList{"101", "121", "1", "21", "201", "221"}));
  // A gap or a restriction after a slice becomes a filter.
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c2 = 1 ALLOW FILTERING"),
            (RowList{"1", "11", "21"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 > 0 AND c2 = 0 ALLOW FILTERING"),
            (RowList{"10", "20"}));
  // A partition key slice.
  EXPECT_EQ(Rows("SELECT DISTINCT k FROM ks.t WHERE k >= 1 ALLOW FILTERING"),
            (RowList{"5", "1", "2"}));
  // Collections.
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND l CONTAINS 3 ALLOW FILTERING"),
            (RowList{"10"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 1 AND m CONTAINS KEY 'b' AND m CONTAINS 2 "
                 "ALLOW FILTERING"),
            (RowList{"121"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 2 AND m['a'] = 1 ALLOW FILTERING"),
            (RowList{"210"}));
  // Static columns: the static-only partition 5 passes its own filter.
  EXPECT_EQ(Rows("SELECT k, c1, s FROM ks.t WHERE s = 7 ALLOW FILTERING"), (RowList{"5, null, 7"}));
  EXPECT_EQ(Rows("SELECT k, c1, v FROM ks.t WHERE s = 1000 AND c1 = 0 ALLOW FILTERING"),
            (RowList{"1, 0, 100", "1, 0, 101"}));
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND v CONTAINS 1 ALLOW FILTERING"),
            "InvalidRequest: Cannot use CONTAINS on non-collection column v");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND l CONTAINS KEY 1 ALLOW FILTERING"),
            "InvalidRequest: Cannot use CONTAINS KEY on non-map column l");
}

TEST_F(SelectRestrictionsTest, OrderBy) {
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 = 1 ORDER BY c2 DESC"),
            (RowList{"11", "10"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 ORDER BY c1 DESC, c2 DESC LIMIT 3"),
            (RowList{"21", "20", "11"}));
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 ORDER BY v"),
            "InvalidRequest: Order by is currently only supported on the clustered columns of the "
            "PRIMARY KEY, got v");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 ORDER BY c2"),
            "InvalidRequest: Order by currently only supports the ordering of columns following "
            "their declared order in the PRIMARY KEY");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 ORDER BY c1 ASC, c2 DESC"),
            "InvalidRequest: Unsupported order by relation");
  EXPECT_EQ(Error("SELECT v FROM ks.t ORDER BY c1"),
            "InvalidRequest: ORDER BY is only supported when the partition key is restricted by an "
            "EQ or an IN.");
}

TEST_F(SelectRestrictionsTest, InWithOrderBySortsAcrossPartitions) {
  EXPECT_EQ(Rows("SELECT k, v FROM ks.t WHERE k IN (1, 0) AND c1 IN (0, 2) AND c2 = 0 "
                 "ORDER BY c1 DESC"),
            (RowList{"0, 20", "1, 120", "0, 0", "1, 100"}));
  EXPECT_EQ(Rows("SELECT k, v FROM ks.t WHERE k IN (1, 0) ORDER BY c1 DESC, c2 DESC LIMIT 3"),
            (RowList{"0, 21", "1, 121", "0, 20"}));
  CqlQueryOptions paged;
  paged.page_size = 10;
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k IN (1, 0) ORDER BY c1 DESC", paged),
            "InvalidRequest: Cannot page queries with both ORDER BY and a IN restriction on the "
            "partition key; you must either remove the ORDER BY or the IN and sort client side, "
            "or disable paging for this query");
}

TEST_F(SelectRestrictionsTest, LimitAndPerPartitionLimit) {
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 LIMIT 2"), (RowList{"0", "1"}));
  EXPECT_EQ(Rows("SELECT k, v FROM ks.t PER PARTITION LIMIT 1"),
            (RowList{"5, null", "1, 100", "0, 0", "2, 200"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k IN (0, 1) PER PARTITION LIMIT 2 LIMIT 3"),
            (RowList{"0", "1", "100"}));
  EXPECT_EQ(Error("SELECT v FROM ks.t LIMIT 0"), "InvalidRequest: LIMIT must be strictly positive");
  EXPECT_EQ(Error("SELECT v FROM ks.t PER PARTITION LIMIT -1"),
            "InvalidRequest: LIMIT must be strictly positive");
  EXPECT_EQ(Error("SELECT DISTINCT k FROM ks.t PER PARTITION LIMIT 1"),
            "InvalidRequest: PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
  EXPECT_EQ(Error("SELECT count(*) FROM ks.t PER PARTITION LIMIT 1"),
            "InvalidRequest: PER PARTITION LIMIT is not allowed with aggregate queries.");
}

TEST_F(SelectRestrictionsTest, FilteringWithLimits) {
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE c2 = 1 PER PARTITION LIMIT 1 ALLOW FILTERING"),
            (RowList{"101", "1", "201"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE c2 = 1 LIMIT 4 ALLOW FILTERING"),
            (RowList{"101", "111", "121", "1"}));
}

TEST_F(SelectRestrictionsTest, StaticRows) {
  // Only statics: one row, unless rows are restricted.
  EXPECT_EQ(Rows("SELECT * FROM ks.t WHERE k = 5"),
            (RowList{"5, null, null, 7, null, null, null"}));
  EXPECT_EQ(Rows("SELECT * FROM ks.t WHERE k = 5 AND c1 = 0"), RowList{});
  EXPECT_EQ(Rows("SELECT k, s FROM ks.t WHERE k = 5 AND v = 1 ALLOW FILTERING"), RowList{});
  // Every row carries its statics; SELECT s yields one row per row.
  EXPECT_EQ(Rows("SELECT s, v FROM ks.t WHERE k = 1 AND c1 = 0"),
            (RowList{"1000, 100", "1000, 101"}));
  EXPECT_EQ(Rows("SELECT s FROM ks.t WHERE k = 2").size(), 6u);
  EXPECT_EQ(Rows("SELECT DISTINCT k, s FROM ks.t"),
            (RowList{"5, 7", "1, 1000", "0, 0", "2, 2000"}));
}

TEST_F(SelectRestrictionsTest, DistinctRules) {
  EXPECT_EQ(Error("SELECT DISTINCT v FROM ks.t"),
            "InvalidRequest: SELECT DISTINCT queries must only request partition key columns "
            "and/or static columns (not v)");
  EXPECT_EQ(Error("SELECT DISTINCT s FROM ks.t"),
            "InvalidRequest: SELECT DISTINCT queries must request all the partition key columns "
            "(missing k)");
  EXPECT_EQ(Rows("SELECT DISTINCT s FROM ks.t WHERE k = 1"), (RowList{"1000"}));
  EXPECT_EQ(Error("SELECT DISTINCT k FROM ks.t WHERE k = 0 AND c1 = 0"),
            "InvalidRequest: SELECT DISTINCT with WHERE clause only supports restriction by "
            "partition key and/or static columns.");
  EXPECT_EQ(Rows("SELECT DISTINCT k, s FROM ks.t WHERE s > 500 ALLOW FILTERING"),
            (RowList{"1, 1000", "2, 2000"}));
}

TEST_F(SelectRestrictionsTest, StaticOnlySelectionRefusesClusteringRestrictions) {
  EXPECT_EQ(Error("SELECT s FROM ks.t WHERE k = 0 AND c1 = 0"),
            "InvalidRequest: Cannot restrict clustering columns when selecting only static "
            "columns");
}

TEST_F(SelectRestrictionsTest, UnsupportedOperators) {
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = 0 AND v != 1 ALLOW FILTERING"),
            "InvalidRequest: Unsupported \"!=\" relation: v != 1");
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k = null"),
            "InvalidRequest: Invalid null value in condition for column k");
}

// SelectMultiColumnRelationTest.testMultiAndSingleColumnRelationMix,
// testMultipleClustering and testSingleClusteringInvalidQueries: single- and
// multi-column relations on clustering columns merge as in Cassandra 3.0+.
TEST_F(SelectRestrictionsTest, SingleAndMultiColumnClusteringRelationsMerge) {
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) > (0, 1) AND c1 <= 1"),
            (RowList{"10", "11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 < 2 AND (c1, c2) >= (1, 1)"),
            (RowList{"11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND (c1) = (1) AND c2 > 0"), (RowList{"11"}));
  EXPECT_EQ(Rows("SELECT v FROM ks.t WHERE k = 0 AND c1 = 2 AND (c2) < (1)"), (RowList{"20"}));
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) > (0, 0) AND c2 < 1"),
            "InvalidRequest: Column \"c2\" cannot be restricted by two inequalities not starting "
            "with the same column");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND c2 > 0 AND (c1, c2) < (1, 1)"),
            "InvalidRequest: Column \"c2\" cannot be restricted by two inequalities not starting "
            "with the same column");
  // One column is named bare.
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1) = (0) AND (c1) > (0)"),
            "InvalidRequest: c1 cannot be restricted by more than one relation if it includes an "
            "Equal");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1) > (0) AND c1 > 1"),
            "InvalidRequest: More than one restriction was found for the start bound on c1");
}

// SelectMultiColumnRelationTest.testMultiClusteringInvalidQueries.
TEST_F(SelectRestrictionsTest, MultiColumnTupleShapesAndNulls) {
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) > (1, 2, 3)"),
            "InvalidRequest: Expected 2 elements in value tuple, but got 3: (1, 2, 3)");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) IN ((0, 1, 2))"),
            "InvalidRequest: Expected 2 elements in value tuple, but got 3: (0, 1, 2)");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c2, c1) = (0, 0)"),
            "InvalidRequest: Clustering columns must appear in the PRIMARY KEY order in "
            "multi-column relations: (c2, c1) = (0, 0)");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) = (1, null)"),
            "InvalidRequest: Invalid null value for column c2");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) IN ((1, null))"),
            "InvalidRequest: Invalid null value for column c2");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) IN ((1, null), (2, 1))"),
            "InvalidRequest: Invalid null value in condition for columns: [c1, c2]");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE k = 0 AND (c1, c2) > (1, null)"),
            "InvalidRequest: Invalid null value in condition for column c2");
}

// SelectTest.testFilteringWithoutIndices(WithCollections): a null compared
// with a non-key column is refused once filtering is allowed.
TEST_F(SelectRestrictionsTest, NullsInFilteringRestrictions) {
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE v = null"), kFilter);
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE v = null ALLOW FILTERING"),
            "InvalidRequest: Unsupported null value for column v");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE s > null ALLOW FILTERING"),
            "InvalidRequest: Unsupported null value for column s");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE l CONTAINS null ALLOW FILTERING"),
            "InvalidRequest: Unsupported null value for column l");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE m[null] = 2 ALLOW FILTERING"),
            "InvalidRequest: Unsupported null map key for column m");
  EXPECT_EQ(Error("SELECT v FROM ks.t WHERE m['a'] = null ALLOW FILTERING"),
            "InvalidRequest: Unsupported null map value for column m");
}

}  // namespace
}  // namespace cassette::cql
