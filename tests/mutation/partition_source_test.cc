#include "engine/mutation/partition_source.h"

#include <gtest/gtest.h>

#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Ck;
using testing::Del;
using testing::Marker;

std::vector<Row> Rows(std::initializer_list<int> cks) {
  std::vector<Row> rows;
  for (int c : cks) rows.push_back(Row{Ck(c), Marker(c), {}, {}});
  return rows;
}

TEST(VectorRowIteratorTest, ForwardAndReversed) {
  VectorRowIterator fwd(Rows({1, 2, 3}));
  std::vector<std::string> seen;
  for (; fwd.Valid(); fwd.Next()) seen.push_back(fwd.row().clustering);
  EXPECT_EQ(seen, (std::vector<std::string>{Ck(1), Ck(2), Ck(3)}));
  EXPECT_TRUE(fwd.status().ok());

  VectorRowIterator rev(Rows({1, 2, 3}), /*reversed=*/true);
  seen.clear();
  for (; rev.Valid(); rev.Next()) seen.push_back(rev.row().clustering);
  EXPECT_EQ(seen, (std::vector<std::string>{Ck(3), Ck(2), Ck(1)}));

  VectorRowIterator empty({});
  EXPECT_FALSE(empty.Valid());
}

PartitionContent Content(std::unique_ptr<RowIterator> rows) {
  PartitionContent c;
  c.key = DecoratedKey::FromKey("k");
  c.partition_deletion = Del(3, 4);
  c.static_row.columns = {testing::Simple(1, Cell::Live(1, "s"))};
  c.range_tombstones.push_back({ClusteringRange{{Ck(1), true}, {}}, Del(2, 2)});
  c.rows = std::move(rows);
  return c;
}

TEST(MaterializeTest, CopiesEverythingAndDrainsRows) {
  for (bool reversed : {false, true}) {
    PartitionContent c = Content(std::make_unique<VectorRowIterator>(Rows({1, 2, 5}), reversed));
    Result<PartitionUpdate> u = Materialize(c);
    ASSERT_TRUE(u.ok()) << u.status().message();
    EXPECT_EQ(u->key, c.key);
    EXPECT_EQ(u->partition_deletion, Del(3, 4));
    EXPECT_EQ(u->static_row, c.static_row);
    EXPECT_EQ(u->range_tombstones, c.range_tombstones);
    EXPECT_EQ(u->rows, Rows({1, 2, 5}));  // storage order either way
    EXPECT_FALSE(c.rows->Valid());
  }
}

TEST(MaterializeTest, NoRowIterator) {
  PartitionContent c = Content(nullptr);
  Result<PartitionUpdate> u = Materialize(c);
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(u->rows.empty());
}

TEST(MaterializeTest, RejectsUnorderedRows) {
  PartitionContent c = Content(std::make_unique<VectorRowIterator>(Rows({1, 3, 2, 4})));
  Result<PartitionUpdate> u = Materialize(c);
  ASSERT_FALSE(u.ok());
  EXPECT_TRUE(u.status().IsCorruption());
  PartitionContent dup = Content(std::make_unique<VectorRowIterator>(Rows({1, 1})));
  EXPECT_TRUE(Materialize(dup).status().IsCorruption());
}

class FailingIterator final : public RowIterator {
 public:
  bool Valid() const override { return n_ < 2; }
  const Row& row() const override { return row_; }
  void Next() override { ++n_; }
  Status status() const override {
    return n_ < 2 ? Status::OK() : Status::IOError("disk.db: read failed");
  }

 private:
  Row row_{Ck(1), Marker(1), {}, {}};
  int n_ = 0;
};

TEST(MaterializeTest, PropagatesIteratorError) {
  PartitionContent c = Content(std::make_unique<FailingIterator>());
  Result<PartitionUpdate> u = Materialize(c);
  ASSERT_FALSE(u.ok());
  EXPECT_TRUE(u.status().IsIOError());
}

}  // namespace
}  // namespace cassette
