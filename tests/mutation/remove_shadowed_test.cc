// Every kind of deletion (docs/SEMANTICS.md §3): cell and collection-element tombstones,
// complex (whole collection) deletions, row deletions, range tombstones over
// a prefix and over slices, partition deletions, and the static row.
#include <gtest/gtest.h>

#include "engine/mutation/reconcile.h"
#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Ck;
using testing::Complex;
using testing::Del;
using testing::Marker;
using testing::Simple;

// What a consumer (read path, compaction) does with one partition: the
// static row sees only the partition deletion; a regular row sees the
// strongest of the partition deletion and every range tombstone covering it.
void ApplyDeletions(PartitionUpdate* u) {
  RemoveShadowed(&u->static_row, u->partition_deletion);
  std::erase_if(u->rows, [&](Row& row) {
    DeletionTime d = u->partition_deletion;
    for (const RangeTombstone& rt : u->range_tombstones) {
      if (rt.range.Contains(row.clustering) && rt.deletion.Supersedes(d)) d = rt.deletion;
    }
    return RemoveShadowed(&row, d);
  });
}

std::vector<std::string> Clusterings(const PartitionUpdate& u) {
  std::vector<std::string> out;
  for (const Row& r : u.rows) out.push_back(r.clustering);
  return out;
}

TEST(CellTombstoneTest, ShadowsOlderValueAndIsKept) {
  Row row;
  row.columns = {Simple(1, Cell::Live(5, "v"))};
  Row del;
  del.columns = {Simple(1, Cell::Tombstone(6, 100))};  // DELETE v / SET v = null
  MergeRow(&row, del);
  EXPECT_EQ(row.columns, std::vector<ColumnData>{Simple(1, Cell::Tombstone(6, 100))});
  // RemoveShadowed keeps tombstones: compaction purges them by gc_grace.
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  EXPECT_EQ(row.columns, std::vector<ColumnData>{Simple(1, Cell::Tombstone(6, 100))});
  // A newer write is visible again.
  Row again;
  again.columns = {Simple(1, Cell::Live(7, "w"))};
  MergeRow(&row, again);
  EXPECT_EQ(row.columns, std::vector<ColumnData>{Simple(1, Cell::Live(7, "w"))});
}

TEST(CollectionElementTombstoneTest, DeletesOneElement) {
  Row row;
  row.columns = {Complex(2, {Cell::Live(5, "a", "\x01"), Cell::Live(5, "b", "\x02")})};
  Row del;
  del.columns = {Complex(2, {Cell::Tombstone(6, 100, "\x01")})};  // DELETE m['x']
  MergeRow(&row, del);
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  ASSERT_EQ(row.columns.size(), 1u);
  EXPECT_EQ(row.columns[0].cells,
            (CellVector{Cell::Tombstone(6, 100, "\x01"), Cell::Live(5, "b", "\x02")}));
}

TEST(ComplexDeletionTest, DropsElementsAtOrBeforeIt) {
  // m = {...} at ts 10 writes a complex deletion at 9 plus the new elements.
  Row row;
  row.columns = {Complex(
      2,
      {Cell::Live(8, "old", "\x01"), Cell::Live(9, "tie", "\x02"), Cell::Tombstone(9, 50, "\x03"),
       Cell::Live(10, "new", "\x04"), Cell::Tombstone(11, 60, "\x05")},
      Del(9, 100))};
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  ASSERT_EQ(row.columns.size(), 1u);
  EXPECT_EQ(row.columns[0].complex_deletion, Del(9, 100));
  EXPECT_EQ(row.columns[0].cells,
            (CellVector{Cell::Live(10, "new", "\x04"), Cell::Tombstone(11, 60, "\x05")}));
}

TEST(ComplexDeletionTest, KeptWhenEveryElementIsGone) {
  // DELETE m: the deletion must outlive the elements it shadows, or older
  // elements in other sources would come back.
  Row row;
  row.columns = {Complex(2, {Cell::Live(3, "x", "\x01")}, Del(9, 100))};
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  ASSERT_EQ(row.columns.size(), 1u);
  EXPECT_TRUE(row.columns[0].cells.empty());
  EXPECT_EQ(row.columns[0].complex_deletion, Del(9, 100));
}

TEST(ComplexDeletionTest, DroppedWhenARowDeletionCoversIt) {
  Row row;
  row.deletion = Del(20, 300);
  row.columns = {
      Complex(2, {Cell::Live(15, "x", "\x01"), Cell::Live(25, "y", "\x02")}, Del(9, 100)),
      Complex(3, {}, Del(20, 100))};  // equal timestamp: redundant
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  EXPECT_EQ(row.deletion, Del(20, 300));
  ASSERT_EQ(row.columns.size(), 1u);
  EXPECT_TRUE(row.columns[0].complex_deletion.IsLive());
  EXPECT_EQ(row.columns[0].cells, CellVector{Cell::Live(25, "y", "\x02")});

  // A complex deletion newer than the row deletion stays.
  Row newer;
  newer.deletion = Del(20, 300);
  newer.columns = {Complex(2, {Cell::Live(25, "y", "\x02")}, Del(30, 100))};
  EXPECT_FALSE(RemoveShadowed(&newer, DeletionTime::Live()));
  ASSERT_EQ(newer.columns.size(), 1u);
  EXPECT_EQ(newer.columns[0].complex_deletion, Del(30, 100));
  EXPECT_TRUE(newer.columns[0].cells.empty());
}

TEST(RowDeletionTest, ShadowsMarkerAndCellsAtOrBeforeItAndTiesGoToTheDeletion) {
  Row row;
  row.marker = Marker(5);
  row.deletion = Del(5, 100);
  row.columns = {Simple(1, Cell::Live(5, "tie")), Simple(2, Cell::Live(6, "newer")),
                 Simple(3, Cell::Tombstone(4, 90)), Simple(4, Cell::Tombstone(7, 110)),
                 Simple(5, Cell::Expiring(5, 10, 100, "exp"))};
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  EXPECT_TRUE(row.marker.IsEmpty());
  EXPECT_EQ(row.deletion, Del(5, 100));  // the row's own deletion stays
  EXPECT_EQ(row.columns, (std::vector<ColumnData>{Simple(2, Cell::Live(6, "newer")),
                                                  Simple(4, Cell::Tombstone(7, 110))}));
}

TEST(RowDeletionTest, OwnDeletionPassedInIsKept) {
  Row row;
  row.deletion = Del(5, 100);
  row.columns = {Simple(1, Cell::Live(4, "x"))};
  // The caller may pass the row's own deletion as the strongest one.
  EXPECT_FALSE(RemoveShadowed(&row, row.deletion));
  EXPECT_EQ(row.deletion, Del(5, 100));
  EXPECT_TRUE(row.columns.empty());
}

TEST(RowDeletionTest, SupersededByOuterDeletionIsDropped) {
  Row row;
  row.deletion = Del(5, 100);
  row.marker = Marker(6);
  row.columns = {Simple(1, Cell::Live(7, "x"))};
  EXPECT_TRUE(RemoveShadowed(&row, Del(8, 200)));
  EXPECT_TRUE(row.IsEmpty());

  // Equal timestamp, larger ldt: the outer one supersedes; row deletion goes.
  Row tie;
  tie.deletion = Del(5, 100);
  tie.columns = {Simple(1, Cell::Live(6, "x"))};
  EXPECT_FALSE(RemoveShadowed(&tie, Del(5, 101)));
  EXPECT_TRUE(tie.deletion.IsLive());
  EXPECT_EQ(tie.columns.size(), 1u);
}

TEST(RowDeletionTest, StrongerOwnDeletionWinsOverOuter) {
  Row row;
  row.deletion = Del(10, 100);
  row.marker = Marker(9);
  row.columns = {Simple(1, Cell::Live(11, "x"))};
  EXPECT_FALSE(RemoveShadowed(&row, Del(3, 200)));
  EXPECT_EQ(row.deletion, Del(10, 100));
  EXPECT_TRUE(row.marker.IsEmpty());
  EXPECT_EQ(row.columns.size(), 1u);
}

TEST(PartitionDeletionTest, ShadowsStaticRowAndRowsButNotNewerData) {
  PartitionUpdate u;
  u.partition_deletion = Del(10, 100);
  u.static_row.columns = {Simple(9, Cell::Live(10, "s_old")), Simple(10, Cell::Live(11, "s_new"))};
  u.rows.push_back(Row{Ck(1), Marker(10), {}, {Simple(1, Cell::Live(9, "x"))}});
  u.rows.push_back(
      Row{Ck(2), {}, {}, {Simple(1, Cell::Live(10, "x")), Simple(2, Cell::Live(12, "y"))}});
  u.rows.push_back(Row{Ck(3), Marker(11), {}, {}});
  ApplyDeletions(&u);
  EXPECT_EQ(u.static_row.columns, std::vector<ColumnData>{Simple(10, Cell::Live(11, "s_new"))});
  EXPECT_EQ(Clusterings(u), (std::vector<std::string>{Ck(2), Ck(3)}));
  EXPECT_EQ(u.rows[0].columns, std::vector<ColumnData>{Simple(2, Cell::Live(12, "y"))});
  EXPECT_EQ(u.rows[1].marker, Marker(11));
}

TEST(RangeTombstoneTest, ClusteringPrefixDeletesEveryRowStartingWithIt) {
  // PRIMARY KEY (pk, c1, c2); DELETE ... WHERE c1 = 1 at ts 10.
  PartitionUpdate u;
  u.range_tombstones.push_back({ClusteringRange{{Ck(1), true}, {Ck(1), true}}, Del(10, 100)});
  for (int c1 : {0, 1, 2}) {
    for (int c2 : {-1, 0, 9}) {
      u.rows.push_back(Row{Ck(c1) + Ck(c2), Marker(10), {}, {Simple(1, Cell::Live(10, "v"))}});
    }
  }
  // One row rewritten after the delete keeps only its newer cell.
  u.rows[4].columns.push_back(Simple(2, Cell::Live(11, "newer")));
  ApplyDeletions(&u);
  EXPECT_EQ(Clusterings(u),
            (std::vector<std::string>{Ck(0) + Ck(-1), Ck(0) + Ck(0), Ck(0) + Ck(9), Ck(1) + Ck(0),
                                      Ck(2) + Ck(-1), Ck(2) + Ck(0), Ck(2) + Ck(9)}));
  EXPECT_TRUE(u.rows[3].marker.IsEmpty());
  EXPECT_EQ(u.rows[3].columns, std::vector<ColumnData>{Simple(2, Cell::Live(11, "newer"))});
}

struct SliceCase {
  const char* name;
  Bound start;
  Bound end;
  std::vector<int> survivors;
};

TEST(RangeTombstoneTest, SliceBoundsKeepTheirInclusiveness) {
  const SliceCase cases[] = {
      {"c >= 2 AND c < 4", {Ck(2), true}, {Ck(4), false}, {1, 4, 5}},
      {"c > 2 AND c <= 4", {Ck(2), false}, {Ck(4), true}, {1, 2, 5}},
      {"c > 2 AND c < 4", {Ck(2), false}, {Ck(4), false}, {1, 2, 4, 5}},
      {"c >= 2 AND c <= 4", {Ck(2), true}, {Ck(4), true}, {1, 5}},
      {"c < 3", {}, {Ck(3), false}, {3, 4, 5}},
      {"c >= 3", {Ck(3), true}, {}, {1, 2}},
      {"c > 5", {Ck(5), false}, {}, {1, 2, 3, 4, 5}},
      {"c > 4 AND c < 2 (empty)", {Ck(4), false}, {Ck(2), false}, {1, 2, 3, 4, 5}},
  };
  for (const SliceCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    PartitionUpdate u;
    u.range_tombstones.push_back({ClusteringRange{tc.start, tc.end}, Del(10, 100)});
    for (int c = 1; c <= 5; ++c) u.rows.push_back(Row{Ck(c), Marker(10), {}, {}});
    ApplyDeletions(&u);
    std::vector<std::string> want;
    for (int c : tc.survivors) want.push_back(Ck(c));
    EXPECT_EQ(Clusterings(u), want);
  }
}

TEST(RangeTombstoneTest, StrongestOfOverlappingDeletionsApplies) {
  PartitionUpdate u;
  u.partition_deletion = Del(5, 100);
  u.range_tombstones.push_back({ClusteringRange{{Ck(1), true}, {Ck(3), true}}, Del(8, 100)});
  u.range_tombstones.push_back({ClusteringRange{{Ck(2), true}, {Ck(2), true}}, Del(12, 100)});
  for (int c = 1; c <= 4; ++c) {
    u.rows.push_back(Row{Ck(c),
                         {},
                         {},
                         {Simple(1, Cell::Live(6, "a")), Simple(2, Cell::Live(10, "b")),
                          Simple(3, Cell::Live(13, "c"))}});
  }
  ApplyDeletions(&u);
  ASSERT_EQ(u.rows.size(), 4u);
  EXPECT_EQ(u.rows[0].columns.size(), 2u);  // ts 8 removed "a"
  EXPECT_EQ(u.rows[1].columns.size(), 1u);  // ts 12 removed "a" and "b"
  EXPECT_EQ(u.rows[2].columns.size(), 2u);
  EXPECT_EQ(u.rows[3].columns.size(), 3u);  // only the partition deletion at 5
}

TEST(StaticRowTest, NotCoveredByRangeOrRowDeletions) {
  PartitionUpdate u;
  u.static_row.columns = {Simple(9, Cell::Live(5, "s"))};
  // DELETE FROM t WHERE pk = 0 AND c >= <min> : every regular row.
  u.range_tombstones.push_back({ClusteringRange::All(), Del(10, 100)});
  u.rows.push_back(Row{Ck(1), {}, Del(8, 100), {Simple(1, Cell::Live(5, "x"))}});
  u.rows.push_back(Row{Ck(2), {}, Del(10, 100), {Simple(1, Cell::Live(5, "x"))}});
  ApplyDeletions(&u);
  // Row 1's own deletion is superseded by the range tombstone and dropped;
  // row 2's equals it and stays (with nothing left to shadow).
  ASSERT_EQ(u.rows.size(), 1u);
  EXPECT_EQ(u.rows[0], (Row{Ck(2), {}, Del(10, 100), {}}));
  EXPECT_EQ(u.static_row.columns, std::vector<ColumnData>{Simple(9, Cell::Live(5, "s"))});
  // A static-cell tombstone (DELETE s FROM t WHERE pk = 0) does shadow it.
  Row del;
  del.columns = {Simple(9, Cell::Tombstone(6, 100))};
  MergeRow(&u.static_row, del);
  EXPECT_EQ(u.static_row.columns, std::vector<ColumnData>{Simple(9, Cell::Tombstone(6, 100))});
}

TEST(RemoveShadowedTest, LiveDeletionLeavesALiveRowUntouched) {
  Row row;
  row.clustering = Ck(1);
  row.marker = Marker(1);
  row.columns = {Simple(1, Cell::Live(1, "x")), Complex(2, {Cell::Live(1, "e", "\x01")}),
                 Simple(3, Cell::Tombstone(1, 5))};
  Row before = row;
  EXPECT_FALSE(RemoveShadowed(&row, DeletionTime::Live()));
  EXPECT_EQ(row, before);
  Row empty;
  EXPECT_TRUE(RemoveShadowed(&empty, DeletionTime::Live()));
}

}  // namespace
}  // namespace cassette
