// Tests of engine/mutation/merging_*: they live with the read tests for the
// read path's fixtures (read_test_util.h).
#include "engine/mutation/merging_row_iterator.h"

#include <gtest/gtest.h>

#include "tests/read/read_test_util.h"

namespace cassette {
namespace {

using read_test::RowMaker;

std::unique_ptr<RowIterator> Rows(std::vector<Row> rows, bool reversed = false) {
  return std::make_unique<VectorRowIterator>(std::move(rows), reversed);
}

std::vector<Row> Drain(RowIterator* it) {
  std::vector<Row> out;
  for (; it->Valid(); it->Next()) out.push_back(it->row());
  return out;
}

std::string Clusterings(const std::vector<Row>& rows) {
  std::string out;
  for (const Row& r : rows) out += r.clustering;
  return out;
}

// Fails after yielding its rows.
class FailingRowIterator final : public RowIterator {
 public:
  explicit FailingRowIterator(std::vector<Row> rows) : rows_(std::move(rows)) {}
  bool Valid() const override { return pos_ < rows_.size(); }
  const Row& row() const override { return rows_[pos_]; }
  void Next() override { ++pos_; }
  Status status() const override {
    return pos_ < rows_.size() ? Status::OK() : Status::Corruption("block 7 of nb-1-Data.db");
  }

 private:
  std::vector<Row> rows_;
  size_t pos_ = 0;
};

TEST(MergingRowIteratorTest, InterleavesSourcesInClusteringOrder) {
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(Rows({RowMaker("a").Marker(1), RowMaker("d").Marker(1)}));
  children.push_back(Rows({RowMaker("b").Marker(1), RowMaker("e").Marker(1)}));
  children.push_back(Rows({RowMaker("c").Marker(1)}));
  children.push_back(Rows({}));
  MergingRowIterator it(std::move(children), /*reversed=*/false);
  std::vector<Row> rows = Drain(&it);
  EXPECT_EQ(Clusterings(rows), "abcde");
  EXPECT_TRUE(it.status().ok());
}

TEST(MergingRowIteratorTest, MergesEqualClusteringsCellByCell) {
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(
      Rows({RowMaker("a").Set(3, Cell::Live(10, "old")).Set(4, Cell::Live(30, "w"))}));
  children.push_back(Rows({RowMaker("a").Set(3, Cell::Live(20, "new")).Marker(5)}));
  children.push_back(Rows({RowMaker("a").Delete(15, 100), RowMaker("b").Marker(1)}));
  MergingRowIterator it(std::move(children), false);
  ASSERT_TRUE(it.Valid());
  const Row& a = it.row();
  EXPECT_EQ(a.clustering, "a");
  EXPECT_EQ(a.marker.timestamp, 5);
  EXPECT_EQ(a.deletion, (DeletionTime{15, 100}));
  ASSERT_NE(a.Find(3), nullptr);
  EXPECT_EQ(a.Find(3)->cells[0].value, "new");
  ASSERT_NE(a.Find(4), nullptr);
  EXPECT_EQ(a.Find(4)->cells[0].value, "w");
  it.Next();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.row().clustering, "b");
  it.Next();
  EXPECT_FALSE(it.Valid());
}

TEST(MergingRowIteratorTest, ReversedChildrenMergeDescending) {
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(Rows({RowMaker("a").Marker(1), RowMaker("c").Marker(1)}, true));
  children.push_back(Rows({RowMaker("b").Marker(1), RowMaker("c").Marker(2)}, true));
  MergingRowIterator it(std::move(children), /*reversed=*/true);
  std::vector<Row> rows = Drain(&it);
  EXPECT_EQ(Clusterings(rows), "cba");
  EXPECT_EQ(rows[0].marker.timestamp, 2);
}

TEST(MergingRowIteratorTest, ChildErrorEndsTheMerge) {
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(std::make_unique<FailingRowIterator>(std::vector<Row>{RowMaker("b")}));
  children.push_back(Rows({RowMaker("a"), RowMaker("c"), RowMaker("d")}));
  MergingRowIterator it(std::move(children), false);
  std::vector<Row> rows = Drain(&it);
  EXPECT_EQ(Clusterings(rows), "ab");
  EXPECT_TRUE(it.status().IsCorruption());
}

TEST(MergingRowIteratorTest, NoChildren) {
  MergingRowIterator it({}, false);
  EXPECT_FALSE(it.Valid());
  EXPECT_TRUE(it.status().ok());
}

}  // namespace
}  // namespace cassette
