// PartitionUpdate: timestamp bounds over every kind of data, and size.
#include "engine/mutation/partition_update.h"

#include <gtest/gtest.h>

#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Ck;
using testing::Complex;
using testing::Del;
using testing::Marker;
using testing::Simple;

TEST(PartitionUpdateTest, EmptyUpdateReturnsMinMaxIdentities) {
  PartitionUpdate u;
  EXPECT_EQ(u.MinTimestamp(), INT64_MAX);
  EXPECT_EQ(u.MaxTimestamp(), INT64_MIN);
  // A live marker-less row with no data contributes nothing either.
  u.rows.push_back(Row{Ck(1), {}, {}, {}});
  EXPECT_EQ(u.MinTimestamp(), INT64_MAX);
}

// Each kind of data alone sets both bounds.
TEST(PartitionUpdateTest, EveryKindCounts) {
  struct Case {
    const char* name;
    PartitionUpdate u;
  };
  std::vector<Case> cases;
  {
    PartitionUpdate u;
    u.partition_deletion = Del(7, 1);
    cases.push_back({"partition deletion", u});
  }
  {
    PartitionUpdate u;
    u.static_row.columns = {Simple(1, Cell::Live(7, "s"))};
    cases.push_back({"static cell", u});
  }
  {
    PartitionUpdate u;
    u.range_tombstones.push_back({ClusteringRange::All(), Del(7, 1)});
    cases.push_back({"range tombstone", u});
  }
  {
    PartitionUpdate u;
    u.rows.push_back(Row{Ck(1), Marker(7), {}, {}});
    cases.push_back({"marker", u});
  }
  {
    PartitionUpdate u;
    u.rows.push_back(Row{Ck(1), {}, Del(7, 1), {}});
    cases.push_back({"row deletion", u});
  }
  {
    PartitionUpdate u;
    u.rows.push_back(Row{Ck(1), {}, {}, {Complex(2, {}, Del(7, 1))}});
    cases.push_back({"complex deletion", u});
  }
  {
    PartitionUpdate u;
    u.rows.push_back(Row{Ck(1), {}, {}, {Complex(2, {Cell::Tombstone(7, 1, "p")})}});
    cases.push_back({"collection cell", u});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.u.MinTimestamp(), 7);
    EXPECT_EQ(c.u.MaxTimestamp(), 7);
  }
}

TEST(PartitionUpdateTest, MinAndMaxAcrossEverything) {
  PartitionUpdate u;
  u.partition_deletion = Del(-50, 1);
  u.static_row.columns = {Simple(1, Cell::Live(INT64_MAX, "s"))};
  u.rows.push_back(Row{Ck(1), Marker(3), Del(2, 1), {Simple(1, Cell::Expiring(9, 5, 1, "x"))}});
  u.range_tombstones.push_back({ClusteringRange::All(), Del(INT64_MIN + 1, 1)});
  EXPECT_EQ(u.MinTimestamp(), INT64_MIN + 1);
  EXPECT_EQ(u.MaxTimestamp(), INT64_MAX);
}

TEST(PartitionUpdateTest, ApproximateSizeGrowsWithData) {
  PartitionUpdate u;
  u.key = DecoratedKey::FromKey("key");
  size_t empty = u.ApproximateSize();
  EXPECT_GT(empty, 0u);
  u.rows.push_back(Row{Ck(1), Marker(1), {}, {Simple(1, Cell::Live(1, std::string(1000, 'x')))}});
  size_t one = u.ApproximateSize();
  EXPECT_GE(one, empty + 1000);
  u.range_tombstones.push_back({ClusteringRange{{Ck(1), true}, {Ck(2), true}}, Del(1, 1)});
  EXPECT_GT(u.ApproximateSize(), one);
  u.static_row.columns = {Complex(3, {Cell::Live(1, std::string(500, 'v'), "path")})};
  EXPECT_GE(u.ApproximateSize(), one + 504);
}

}  // namespace
}  // namespace cassette
