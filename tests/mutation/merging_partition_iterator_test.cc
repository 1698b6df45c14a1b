#include "engine/mutation/merging_partition_iterator.h"

#include <gtest/gtest.h>

#include "tests/mutation/partition_maker.h"

namespace cassette {
namespace {

using mutation_test::PartitionMaker;
using mutation_test::RowMaker;
using mutation_test::VectorPartitionIterator;

DecoratedKey K(int64_t token, std::string key) { return DecoratedKey{token, std::move(key)}; }

std::unique_ptr<PartitionIterator> Source(std::vector<PartitionUpdate> partitions) {
  return std::make_unique<VectorPartitionIterator>(std::move(partitions));
}

TEST(MergingPartitionIteratorTest, KeysInTokenThenByteOrder) {
  std::vector<std::unique_ptr<PartitionIterator>> sources;
  sources.push_back(Source({PartitionMaker(K(-5, "x")), PartitionMaker(K(7, "a"))}));
  sources.push_back(Source({PartitionMaker(K(-5, "x")), PartitionMaker(K(7, "b"))}));
  sources.push_back(Source({PartitionMaker(K(-9, "z")), PartitionMaker(K(7, "a"))}));
  MergingPartitionIterator it(std::move(sources));
  std::vector<DecoratedKey> keys;
  for (; it.Valid(); it.Next()) keys.push_back(it.key());
  EXPECT_TRUE(it.status().ok());
  EXPECT_EQ(keys, (std::vector<DecoratedKey>{K(-9, "z"), K(-5, "x"), K(7, "a"), K(7, "b")}));
}

TEST(MergingPartitionIteratorTest, MergesContentOfEqualKeys) {
  DecoratedKey key = K(1, "k");
  Bound a{"a", true}, c{"c", true};
  std::vector<std::unique_ptr<PartitionIterator>> sources;
  sources.push_back(Source({PartitionMaker(key)
                                .DeletePartition(5, 50)
                                .Static(RowMaker().Set(2, Cell::Live(10, "s1")))
                                .Add(RowMaker("a").Set(3, Cell::Live(10, "x")))
                                .DeleteRange(a, c, 7, 70)}));
  sources.push_back(Source({PartitionMaker(key)
                                .DeletePartition(6, 40)
                                .Static(RowMaker().Set(2, Cell::Live(20, "s2")))
                                .Add(RowMaker("a").Set(3, Cell::Live(11, "y")))
                                .Add(RowMaker("b").Marker(3))
                                .DeleteRange(c, Bound{}, 8, 80)}));
  MergingPartitionIterator it(std::move(sources));
  ASSERT_TRUE(it.Valid());
  PartitionContent& merged = it.partition();
  EXPECT_EQ(merged.key, key);
  EXPECT_EQ(merged.partition_deletion, (DeletionTime{6, 40}));
  EXPECT_EQ(merged.static_row.Find(2)->cells[0].value, "s2");
  EXPECT_EQ(merged.range_tombstones.size(), 2u);
  std::vector<std::string> rows;
  for (; merged.rows->Valid(); merged.rows->Next()) {
    const Row& r = merged.rows->row();
    rows.push_back(r.clustering + (r.Find(3) ? "=" + r.Find(3)->cells[0].value : ""));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"a=y", "b"}));
  it.Next();
  EXPECT_FALSE(it.Valid());
}

TEST(MergingPartitionIteratorTest, MergePartitionContentsReversed) {
  std::vector<PartitionContent> contents(2);
  for (auto& c : contents) c.key = K(3, "k");
  contents[0].rows = std::make_unique<VectorRowIterator>(
      std::vector<Row>{RowMaker("a").Marker(1), RowMaker("c").Marker(1)}, true);
  contents[1].rows =
      std::make_unique<VectorRowIterator>(std::vector<Row>{RowMaker("b").Marker(1)}, true);
  PartitionContent merged = MergePartitionContents(std::move(contents), /*reversed=*/true);
  std::string order;
  for (; merged.rows->Valid(); merged.rows->Next()) order += merged.rows->row().clustering;
  EXPECT_EQ(order, "cba");
}

}  // namespace
}  // namespace cassette
