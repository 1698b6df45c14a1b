// Database::ReadEach: the streamed read returns what Read returns (rows,
// cell metadata, paging state, statistics), borrows values that stay
// correct for the visitor's call, and stops at the visitor's error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cassette/db.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

class ReadEachTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(t_.Open());
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t_.db->CreateTable(SimpleTable()));
    for (int32_t pk = 1; pk <= 3; ++pk) {
      Mutation m("ks", "t", {Value::Int(pk)});
      m.Update({}).Set("s", Value::Int(100 * pk));
      for (int32_t ck = 1; ck <= 5; ++ck) {
        // Strings past the short-string buffer: their views point into the
        // engine's row, not into a copy.
        m.Insert({Value::Int(ck)})
            .Set("v", Value::Int(10 * ck))
            .Add("tags", {Value::Text("a long tag for row " + std::to_string(ck))});
      }
      ASSERT_OK(t_.db->Apply(m));
    }
    // Some rows in an SSTable, the rest (and an expiring one) in the memtable.
    ASSERT_OK(t_.db->Flush());
    Mutation m("ks", "t", {Value::Int(2)});
    m.UsingTtl(60).Insert({Value::Int(9)}).Set("v", Value::Int(90));
    ASSERT_OK(t_.db->Apply(m));
  }

  // Read and ReadEach agree on everything a result carries.
  void ExpectSameAsRead(const ReadQuery& query) {
    auto collected = t_.db->Read(query);
    ASSERT_TRUE(collected.ok()) << collected.status().ToString();
    auto streamed = ReadEachCollected(*t_.db, query);
    ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
    ASSERT_EQ(streamed->rows.size(), collected->rows.size());
    for (size_t i = 0; i < collected->rows.size(); ++i) {
      EXPECT_EQ(streamed->rows[i].values, collected->rows[i].values) << "row " << i;
      EXPECT_EQ(streamed->rows[i].writetimes, collected->rows[i].writetimes) << "row " << i;
      EXPECT_EQ(streamed->rows[i].ttls, collected->rows[i].ttls) << "row " << i;
    }
    ASSERT_EQ(streamed->columns.size(), collected->columns.size());
    for (size_t i = 0; i < collected->columns.size(); ++i) {
      EXPECT_EQ(streamed->columns[i].name, collected->columns[i].name);
      EXPECT_EQ(streamed->columns[i].type, collected->columns[i].type);
    }
    EXPECT_EQ(streamed->paging_state, collected->paging_state);
    EXPECT_EQ(streamed->stats.live_rows, collected->stats.live_rows);
    EXPECT_EQ(streamed->stats.partitions_read, collected->stats.partitions_read);
    EXPECT_EQ(streamed->warnings, collected->warnings);
  }

  TestDb t_;
};

TEST_F(ReadEachTest, MatchesReadForEveryShapeOfQuery) {
  ReadQuery all;
  all.keyspace = "ks";
  all.table = "t";
  ExpectSameAsRead(all);  // every partition, SELECT * (statics and a set)

  ReadQuery keys = ReadPartition(2, {"tags", "ck", "pk", "s", "v"});
  keys.partition_keys.push_back({Value::Int(1)});
  ExpectSameAsRead(keys);

  ReadQuery metadata = ReadPartition(2, {"v", "tags", "s"});
  metadata.with_cell_metadata = true;
  ExpectSameAsRead(metadata);

  ReadQuery slice = ReadPartition(3, {"ck", "v"});
  slice.slice_start = ClusteringBound{{Value::Int(2)}, true};
  slice.slice_end = ClusteringBound{{Value::Int(4)}, false};
  slice.reversed = true;
  ExpectSameAsRead(slice);

  ReadQuery limited = all;
  limited.limit = 7;
  limited.per_partition_limit = 3;
  ExpectSameAsRead(limited);

  ReadQuery distinct = all;
  distinct.columns = {"pk", "s"};
  distinct.distinct = true;
  ExpectSameAsRead(distinct);
}

TEST_F(ReadEachTest, PagesConcatenateAsReadsDo) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.columns = {"pk", "ck", "v"};
  query.page_size = 4;
  std::vector<std::string> streamed;
  for (int page = 0; page < 10; ++page) {
    ExpectSameAsRead(query);
    auto result = t_.db->ReadEach(query, [&](const RowView& row) {
      streamed.push_back(row.values[0].ToString() + "/" + row.values[1].ToString() + "=" +
                         row.values[2].ToString());
      return Status::OK();
    });
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    if (result->paging_state.empty()) break;
    query.paging_state = result->paging_state;
  }
  ReadQuery unpaged = query;
  unpaged.page_size = 0;
  unpaged.paging_state.clear();
  auto whole = t_.db->Read(unpaged);
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ(streamed.size(), whole->rows.size());
  for (size_t i = 0; i < streamed.size(); ++i) {
    const ResultRow& row = whole->rows[i];
    EXPECT_EQ(streamed[i], row.values[0].ToString() + "/" + row.values[1].ToString() + "=" +
                               row.values[2].ToString());
  }
}

TEST_F(ReadEachTest, ViewsReadAsValuesDo) {
  ReadQuery query = ReadPartition(2, {"pk", "ck", "v", "s", "tags"});
  int rows = 0;
  auto result = t_.db->ReadEach(query, [&](const RowView& row) {
    EXPECT_EQ(row.values.size(), 5u);
    EXPECT_EQ(row.values[0].AsInt64(), 2);
    EXPECT_EQ(row.values[0].type(), DataType::Int());
    EXPECT_EQ(row.values[3].AsInt64(), 200);
    const int64_t ck = row.values[1].AsInt64();
    EXPECT_EQ(row.values[2].AsInt64(), 10 * ck);
    if (ck == 9) {
      EXPECT_TRUE(row.values[4].is_null());  // the expiring row set no tag
    } else {
      EXPECT_EQ(row.values[4].ToString(), "{'a long tag for row " + std::to_string(ck) + "'}");
    }
    EXPECT_TRUE(row.writetimes.empty());
    ++rows;
    return Status::OK();
  });
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(rows, 6);
  EXPECT_TRUE(result->rows.empty());
  EXPECT_EQ(result->stats.live_rows, 7);  // six rows and the static row
}

TEST_F(ReadEachTest, VisitorErrorStopsTheRead) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  int visited = 0;
  auto result = t_.db->ReadEach(query, [&](const RowView&) {
    return ++visited == 3 ? Status::Busy("enough") : Status::OK();
  });
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), Status::Code::kBusy);
  EXPECT_EQ(result.status().message(), "enough");
  EXPECT_EQ(visited, 3);
}

TEST_F(ReadEachTest, ExpiredRowsAreNotVisited) {
  t_.Advance(61);
  ReadQuery query = ReadPartition(2, {"ck"});
  std::vector<int64_t> cks;
  auto result = t_.db->ReadEach(query, [&](const RowView& row) {
    cks.push_back(row.values[0].AsInt64());
    return Status::OK();
  });
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(cks, (std::vector<int64_t>{1, 2, 3, 4, 5}));
}

TEST_F(ReadEachTest, ErrorsOfTheQueryComeBackAsFromRead) {
  ReadQuery query = ReadPartition(1, {"nope"});
  int visited = 0;
  auto streamed = t_.db->ReadEach(query, [&](const RowView&) {
    ++visited;
    return Status::OK();
  });
  auto collected = t_.db->Read(query);
  ASSERT_FALSE(streamed.ok());
  ASSERT_FALSE(collected.ok());
  EXPECT_EQ(streamed.status().code(), collected.status().code());
  EXPECT_EQ(streamed.status().message(), collected.status().message());
  EXPECT_EQ(visited, 0);
}

}  // namespace
}  // namespace cassette::testing
