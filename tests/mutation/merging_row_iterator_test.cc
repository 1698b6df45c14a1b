#include "engine/mutation/merging_row_iterator.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/mutation/deferred_row_iterator.h"

#include "tests/mutation/partition_maker.h"

namespace cassette {
namespace {

using mutation_test::RowMaker;

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

// A deferred child over `rows` that counts how often it was opened.
std::unique_ptr<RowIterator> Deferred(std::string start, std::vector<Row> rows, int* opened,
                                      bool reversed = false) {
  return std::make_unique<DeferredRowIterator>(
      std::move(start),
      [rows = std::move(rows), opened, reversed]() -> Result<std::unique_ptr<RowIterator>> {
        ++*opened;
        return Rows(rows, reversed);
      });
}

TEST(MergingRowIteratorTest, DeferredChildIsOpenedOnlyWhenTheMergeReachesIt) {
  int opened = 0;
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(Rows({RowMaker("a").Marker(1), RowMaker("b").Marker(1)}));
  children.push_back(Deferred("c", {RowMaker("c").Marker(1), RowMaker("d").Marker(1)}, &opened));
  MergingRowIterator it(std::move(children), false);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.row().clustering, "a");
  it.Next();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.row().clustering, "b");
  // A consumer that stops here never opens the second child.
  EXPECT_EQ(opened, 0);
  it.Next();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(Clusterings(Drain(&it)), "cd");
  EXPECT_EQ(opened, 1);
  EXPECT_TRUE(it.status().ok());
}

TEST(MergingRowIteratorTest, DeferredChildStartingAtARowIsMergedIntoIt) {
  int opened = 0;
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(Rows({RowMaker("a").Set(3, Cell::Live(10, "old")), RowMaker("b").Marker(1)}));
  children.push_back(Deferred("a", {RowMaker("a").Set(3, Cell::Live(20, "new"))}, &opened));
  MergingRowIterator it(std::move(children), false);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(opened, 1);
  ASSERT_NE(it.row().Find(3), nullptr);
  EXPECT_EQ(it.row().Find(3)->cells[0].value, "new");
  it.Next();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.row().clustering, "b");
  it.Next();
  EXPECT_FALSE(it.Valid());
}

TEST(MergingRowIteratorTest, DeferredChildsRowsMayStartAfterItsStart) {
  int opened = 0;
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(Rows({RowMaker("b").Marker(1), RowMaker("d").Marker(1)}));
  // Opened before "b" is returned (its start "a" sorts first), then waits
  // in the merge at its first row "c".
  children.push_back(Deferred("a", {RowMaker("c").Marker(1)}, &opened));
  children.push_back(Deferred("x", {}, &opened));
  MergingRowIterator it(std::move(children), false);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(Clusterings(Drain(&it)), "bcd");
  EXPECT_EQ(opened, 2);
}

TEST(MergingRowIteratorTest, ReversedDeferredChildWaitsForItsHighestClustering) {
  int opened = 0;
  std::vector<std::unique_ptr<RowIterator>> children;
  // Rows in storage order; the reversed children yield them backwards.
  children.push_back(Rows({RowMaker("c").Marker(1), RowMaker("d").Marker(1)}, true));
  children.push_back(Deferred("b", {RowMaker("a").Marker(1), RowMaker("b").Marker(1)}, &opened,
                              /*reversed=*/true));
  MergingRowIterator it(std::move(children), /*reversed=*/true);
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.row().clustering, "d");
  it.Next();
  EXPECT_EQ(it.row().clustering, "c");
  EXPECT_EQ(opened, 0);
  it.Next();
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(Clusterings(Drain(&it)), "ba");
}

TEST(MergingRowIteratorTest, DeferredChildThatFailsToOpenEndsTheMerge) {
  std::vector<std::unique_ptr<RowIterator>> children;
  children.push_back(Rows({RowMaker("a").Marker(1), RowMaker("c").Marker(1)}));
  children.push_back(
      std::make_unique<DeferredRowIterator>("b", []() -> Result<std::unique_ptr<RowIterator>> {
        return Status::IOError("nb-3-Data.db: read failed");
      }));
  MergingRowIterator it(std::move(children), false);
  EXPECT_EQ(Clusterings(Drain(&it)), "a");
  EXPECT_TRUE(it.status().IsIOError());
}

// Deferring children never changes what the merge yields, whatever their
// starts (at or before their first rows) and however the rows overlap.
TEST(MergingRowIteratorTest, DeferringChildrenYieldsTheSameRows) {
  std::mt19937 rng(20261122);
  for (int round = 0; round < 300; ++round) {
    const bool reversed = round % 2 == 1;
    const int sources = 1 + static_cast<int>(rng() % 5);
    std::vector<std::vector<Row>> source_rows(sources);
    for (int i = 0; i < sources; ++i) {
      for (char c = 'a'; c <= 'p'; ++c) {
        if (rng() % 3 != 0) continue;
        source_rows[i].push_back(
            RowMaker(std::string(1, c)).Set(1, Cell::Live(static_cast<int64_t>(rng() % 50), "v")));
      }
    }
    auto merge = [&](bool defer, int* opened) {
      std::vector<std::unique_ptr<RowIterator>> children;
      for (int i = 0; i < sources; ++i) {
        const std::vector<Row>& rows = source_rows[i];
        if (!defer || rng() % 4 == 0) {
          children.push_back(Rows(rows, reversed));
          continue;
        }
        // A start at the first row yielded (rows are in storage order), or
        // one before it (a file's bounds may be looser than one
        // partition's rows).
        std::string start = rows.empty() ? std::string(1, reversed ? 'z' : 'a')
                            : reversed   ? rows.back().clustering
                                         : rows.front().clustering;
        if (rng() % 2 == 0) start = std::string(1, reversed ? 'z' : 'A');
        children.push_back(Deferred(start, rows, opened, reversed));
      }
      MergingRowIterator it(std::move(children), reversed);
      std::vector<Row> out = Drain(&it);
      EXPECT_TRUE(it.status().ok());
      return out;
    };
    int opened = 0;
    std::vector<Row> plain = merge(false, &opened);
    std::vector<Row> deferred = merge(true, &opened);
    for (size_t r = 1; r < plain.size(); ++r) {
      ASSERT_EQ(plain[r - 1].clustering < plain[r].clustering, !reversed) << "round " << round;
    }
    ASSERT_EQ(plain.size(), deferred.size()) << "round " << round;
    for (size_t r = 0; r < plain.size(); ++r) {
      ASSERT_EQ(plain[r], deferred[r]) << "round " << round << ", row " << r;
    }
  }
}

}  // namespace
}  // namespace cassette
