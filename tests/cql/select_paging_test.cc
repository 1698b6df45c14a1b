// Paged SELECTs: the pages concatenate to the unpaged result for scans, IN
// lists, clustering IN, filtering, LIMIT, PER PARTITION LIMIT, DISTINCT
// and aggregates; a foreign paging state is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cql/select_test_util.h"

namespace cassette::cql {
namespace {

using RowList = std::vector<std::string>;

class SelectPagingTest : public SelectTest {
 protected:
  void SetUp() override {
    SelectTest::SetUp();
    CreateTable(TableSchema("ks", "p")
                    .AddPartitionKey("k", DataType::Int())
                    .AddClustering("c", DataType::Int())
                    .AddStatic("s", DataType::Int())
                    .AddRegular("v", DataType::Int()));
    for (int k = 0; k < 6; ++k) {
      Mutation m("ks", "p", {Value::Int(k)});
      for (int c = 0; c < k; ++c) m.Insert({Value::Int(c)}).Set("v", Value::Int(k * 10 + c));
      if (k == 0) m.Update({}).Set("s", Value::Int(1));  // a static-only partition
      Apply(m);
    }
  }

  void ExpectPagesEqualUnpaged(const std::string& cql) {
    const RowList all = Rows(cql);
    for (int page_size : {1, 2, 3, 7, 100}) {
      SCOPED_TRACE(cql + " page size " + std::to_string(page_size));
      EXPECT_EQ(PagedRows(cql, page_size), all);
    }
  }
};

TEST_F(SelectPagingTest, PagesConcatenateToTheUnpagedResult) {
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p LIMIT 7");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p PER PARTITION LIMIT 2");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p PER PARTITION LIMIT 2 LIMIT 5");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p WHERE k IN (5, 3, 0, 4)");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p WHERE k IN (5, 3, 4) AND c IN (2, 0, 1)");
  ExpectPagesEqualUnpaged(
      "SELECT k, c, v FROM ks.p WHERE k = 4 AND c IN (2, 0, 1) ORDER BY c DESC LIMIT 2");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p WHERE c = 1 ALLOW FILTERING");
  ExpectPagesEqualUnpaged("SELECT k, c, v FROM ks.p WHERE v > 32 LIMIT 6 ALLOW FILTERING");
  ExpectPagesEqualUnpaged(
      "SELECT k, c, v FROM ks.p WHERE v > 20 PER PARTITION LIMIT 2 ALLOW FILTERING");
  ExpectPagesEqualUnpaged("SELECT DISTINCT k, s FROM ks.p");
  ExpectPagesEqualUnpaged("SELECT k, count(*), max(v) FROM ks.p GROUP BY k");
}

TEST_F(SelectPagingTest, AggregatesAreComputedOverAllPages) {
  EXPECT_EQ(PagedRows("SELECT count(*), sum(v) FROM ks.p", 2), (RowList{"16, 570"}));
}

TEST_F(SelectPagingTest, PageSizesAreRespected) {
  int pages = 0;
  EXPECT_EQ(PagedRows("SELECT v FROM ks.p WHERE k = 5", 2, &pages).size(), 5u);
  EXPECT_GE(pages, 3);
}

TEST_F(SelectPagingTest, ForeignPagingStateIsRefused) {
  CqlQueryOptions options;
  options.page_size = 2;
  options.paging_state = "garbage";
  EXPECT_EQ(Error("SELECT v FROM ks.p", options),
            "InvalidRequest: Invalid value for the paging state");
}

}  // namespace
}  // namespace cassette::cql
