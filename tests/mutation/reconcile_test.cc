// Last-write-wins: every tie rule of docs/SEMANTICS.md §1, marker merge, and the row and
// partition merges built on them.
#include "engine/mutation/reconcile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Ck;
using testing::Complex;
using testing::Del;
using testing::ExpiringMarker;
using testing::Generator;
using testing::Marker;
using testing::Simple;

std::string Int(int32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(static_cast<uint32_t>(v) >> (8 * (3 - i)));
  return s;
}

// `winner` must win against `loser` from both sides.
void ExpectWins(const Cell& winner, const Cell& loser) {
  EXPECT_TRUE(CellWins(winner, loser));
  EXPECT_FALSE(CellWins(loser, winner));
  EXPECT_EQ(Reconcile(winner, loser), winner);
  EXPECT_EQ(Reconcile(loser, winner), winner);
}

// Rule 1: the higher timestamp wins whatever the kinds and values.
TEST(CellReconcileTest, Rule1HigherTimestampWins) {
  ExpectWins(Cell::Live(11, "a"), Cell::Live(10, "z"));
  ExpectWins(Cell::Live(11, "a"), Cell::Tombstone(10, 999));
  ExpectWins(Cell::Tombstone(11, 1), Cell::Expiring(10, 5, 999, "z"));
  ExpectWins(Cell::Live(11, ""), Cell::Expiring(10, 5, 999, "z"));
  ExpectWins(Cell::Live(-1, "a"), Cell::Live(-2, "z"));  // negative timestamps order too
  ExpectWins(Cell::Live(INT64_MAX, "a"), Cell::Tombstone(INT64_MAX - 1, 1));
}

// Rule 2: at equal timestamps, expiring-or-tombstone beats live, even when
// the expiring cell is already expired and its value is smaller.
TEST(CellReconcileTest, Rule2ExpiringOrTombstoneBeatsLiveAtEqualTimestamp) {
  Cell live = Cell::Live(10, "\xff\xff");
  Cell expiring = Cell::Expiring(10, 1, 100, "\x00");
  ExpectWins(expiring, live);
  // Reconciliation does not depend on now: an expired cell still wins.
  EXPECT_FALSE(expiring.IsLive(1000));
  ExpectWins(expiring, live);
  ExpectWins(Cell::Tombstone(10, 1), live);
}

// Rule 3: both carry a deletion time: a tombstone beats an expiring cell,
// even one with a later expiry.
TEST(CellReconcileTest, Rule3TombstoneBeatsExpiringAtEqualTimestamp) {
  ExpectWins(Cell::Tombstone(10, 100), Cell::Expiring(10, 1000, 100, "zz"));
  ExpectWins(Cell::Tombstone(10, 5), Cell::Expiring(10, 1, 100, "zz"));
}

// Rule 4: same kind with a deletion time: the larger ldt wins, before values.
TEST(CellReconcileTest, Rule4SameKindLargerLocalDeletionTimeWins) {
  ExpectWins(Cell::Tombstone(10, 101), Cell::Tombstone(10, 100));
  ExpectWins(Cell::Expiring(10, 5, 100, "a"), Cell::Expiring(10, 3, 100, "z"));   // ldt 105 > 103
  ExpectWins(Cell::Expiring(10, 1, 200, "a"), Cell::Expiring(10, 50, 100, "z"));  // 201 > 150
}

// Rule 5: otherwise the larger value as unsigned bytes, not in type order.
TEST(CellReconcileTest, Rule5LargerUnsignedValueWins) {
  // int -1 (ff ff ff ff) beats int 1 (00 00 00 01).
  ExpectWins(Cell::Live(10, Int(-1)), Cell::Live(10, Int(1)));
  // text 'b' beats 'ab'.
  ExpectWins(Cell::Live(10, "b"), Cell::Live(10, "ab"));
  // A prefix sorts first.
  ExpectWins(Cell::Live(10, "ab"), Cell::Live(10, "a"));
  ExpectWins(Cell::Live(10, "a"), Cell::Live(10, ""));
  // Bytes >= 0x80 are not negative.
  ExpectWins(Cell::Live(10, "\x80"), Cell::Live(10, "\x7f"));
  // Same-kind cells with equal ldt fall through to the value too.
  ExpectWins(Cell::Expiring(10, 5, 100, "b"), Cell::Expiring(10, 5, 100, "ab"));
}

TEST(CellReconcileTest, IdenticalCellsNeitherWins) {
  Cell a = Cell::Live(10, "v");
  EXPECT_FALSE(CellWins(a, a));
  EXPECT_EQ(Reconcile(a, Cell(a)), a);
}

// A fixed order for what Cassandra leaves to chance keeps merges commutative.
TEST(CellReconcileTest, EqualExpiryAndValueDifferentTtlIsStillDeterministic) {
  Cell a{10, 5, 200, "v", {}};
  Cell b{10, 7, 200, "v", {}};
  EXPECT_NE(CellWins(a, b), CellWins(b, a));
  EXPECT_EQ(Reconcile(a, b), Reconcile(b, a));
}

// Over a small domain with many ties: CellWins is a strict total order on
// distinct cells, so Reconcile is commutative and associative.
TEST(CellReconcileTest, CommutativeAndAssociativeOverRandomCells) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Generator gen(seed);
  std::vector<Cell> cells;
  for (int i = 0; i < 200; ++i) cells.push_back(gen.RandomCell());
  for (const Cell& a : cells) {
    EXPECT_FALSE(CellWins(a, a));
    for (const Cell& b : cells) {
      if (a == b) continue;
      ASSERT_NE(CellWins(a, b), CellWins(b, a));
      ASSERT_EQ(Reconcile(a, b), Reconcile(b, a));
    }
  }
  for (int i = 0; i < 5000; ++i) {
    const Cell& a = cells[gen.rnd().Uniform(cells.size())];
    const Cell& b = cells[gen.rnd().Uniform(cells.size())];
    const Cell& c = cells[gen.rnd().Uniform(cells.size())];
    ASSERT_EQ(Reconcile(Reconcile(a, b), c), Reconcile(a, Reconcile(b, c)));
  }
}

TEST(LivenessSupersedesTest, MarkerMergeRules) {
  // Higher timestamp wins, whatever the kinds.
  EXPECT_TRUE(LivenessSupersedes(Marker(11), ExpiringMarker(10, 5, 999)));
  EXPECT_FALSE(LivenessSupersedes(ExpiringMarker(10, 5, 999), Marker(11)));
  // Tie: an expiring marker beats a non-expiring one.
  EXPECT_TRUE(LivenessSupersedes(ExpiringMarker(10, 5, 105), Marker(10)));
  EXPECT_FALSE(LivenessSupersedes(Marker(10), ExpiringMarker(10, 5, 105)));
  // Tie, both expiring: the larger expiry.
  EXPECT_TRUE(LivenessSupersedes(ExpiringMarker(10, 5, 106), ExpiringMarker(10, 50, 105)));
  EXPECT_FALSE(LivenessSupersedes(ExpiringMarker(10, 50, 105), ExpiringMarker(10, 5, 106)));
  // Identical: neither.
  EXPECT_FALSE(LivenessSupersedes(Marker(10), Marker(10)));
  // Any marker beats no marker.
  EXPECT_TRUE(LivenessSupersedes(Marker(INT64_MIN + 1), LivenessInfo{}));
  EXPECT_FALSE(LivenessSupersedes(LivenessInfo{}, Marker(INT64_MIN + 1)));
}

TEST(MergeRowTest, MergesMarkerDeletionAndColumns) {
  Row a;
  a.clustering = Ck(1);
  a.marker = Marker(5);
  a.deletion = Del(3, 100);
  a.columns = {Simple(1, Cell::Live(5, "a1")), Simple(3, Cell::Live(5, "a3"))};
  Row b;
  b.clustering = Ck(1);
  b.marker = Marker(7);
  b.deletion = Del(2, 200);
  b.columns = {Simple(2, Cell::Live(7, "b2")), Simple(3, Cell::Tombstone(4, 300)),
               Simple(4, Cell::Live(1, "b4"))};
  MergeRow(&a, b);
  EXPECT_EQ(a.clustering, Ck(1));
  EXPECT_EQ(a.marker, Marker(7));
  EXPECT_EQ(a.deletion, Del(3, 100));
  ASSERT_EQ(a.columns.size(), 4u);
  EXPECT_EQ(a.columns[0], Simple(1, Cell::Live(5, "a1")));
  EXPECT_EQ(a.columns[1], Simple(2, Cell::Live(7, "b2")));
  EXPECT_EQ(a.columns[2], Simple(3, Cell::Live(5, "a3")));  // ts 5 beats tombstone at 4
  EXPECT_EQ(a.columns[3], Simple(4, Cell::Live(1, "b4")));
}

TEST(MergeRowTest, CollectionCellsMergeByPathAndComplexDeletionSupersedes) {
  Row a;
  a.columns = {Complex(7, {Cell::Live(5, "x", "\x01"), Cell::Live(5, "y", "\x03")}, Del(4, 10))};
  Row b;
  b.columns = {Complex(
      7, {Cell::Live(6, "p", "\x02"), Cell::Tombstone(6, 20, "\x03"), Cell::Live(6, "q", "\x04")},
      Del(2, 30))};
  MergeRow(&a, b);
  ASSERT_EQ(a.columns.size(), 1u);
  const ColumnData& col = a.columns[0];
  EXPECT_TRUE(col.is_complex);
  EXPECT_EQ(col.complex_deletion, Del(4, 10));
  ASSERT_EQ(col.cells.size(), 4u);
  EXPECT_EQ(col.cells[0], Cell::Live(5, "x", "\x01"));
  EXPECT_EQ(col.cells[1], Cell::Live(6, "p", "\x02"));
  EXPECT_EQ(col.cells[2], Cell::Tombstone(6, 20, "\x03"));  // element tombstone wins
  EXPECT_EQ(col.cells[3], Cell::Live(6, "q", "\x04"));

  // Paths compare as unsigned bytes: 0x80 sorts after 0x7f.
  Row c;
  c.columns = {Complex(7, {Cell::Live(1, "hi", "\x80")})};
  Row d;
  d.columns = {Complex(7, {Cell::Live(1, "lo", "\x7f")})};
  MergeRow(&c, d);
  ASSERT_EQ(c.columns[0].cells.size(), 2u);
  EXPECT_EQ(c.columns[0].cells[0].path, "\x7f");
  EXPECT_EQ(c.columns[0].cells[1].path, "\x80");
}

TEST(MergeRowTest, RowDeletionAtEqualTimestampKeepsLargerLocalDeletionTime) {
  Row a;
  a.deletion = Del(5, 100);
  Row b;
  b.deletion = Del(5, 101);
  MergeRow(&a, b);
  EXPECT_EQ(a.deletion, Del(5, 101));
  Row live;
  MergeRow(&a, live);
  EXPECT_EQ(a.deletion, Del(5, 101));
}

// Merging is order-independent, and the copying and moving overloads agree.
TEST(MergeRowTest, CommutativeAndMoveAgreesWithCopy) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Generator gen(seed);
  for (int i = 0; i < 2000; ++i) {
    Row a = gen.RandomRow(), b = gen.RandomRow(), c = gen.RandomRow();
    Row ab = a;
    MergeRow(&ab, b);
    Row ba = b;
    MergeRow(&ba, a);
    ASSERT_EQ(ab, ba);
    Row moved = a;
    Row b_copy = b;
    MergeRow(&moved, std::move(b_copy));
    ASSERT_EQ(moved, ab);
    // Associative: (a+b)+c == a+(b+c).
    Row ab_c = ab;
    MergeRow(&ab_c, c);
    Row bc = b;
    MergeRow(&bc, c);
    Row a_bc = a;
    MergeRow(&a_bc, bc);
    ASSERT_EQ(ab_c, a_bc);
    // Idempotent.
    Row again = ab;
    MergeRow(&again, b);
    ASSERT_EQ(again, ab);
  }
}

TEST(MergePartitionTest, MergesEveryPart) {
  PartitionUpdate a;
  a.key = DecoratedKey::FromKey("k");
  a.partition_deletion = Del(1, 10);
  a.static_row.columns = {Simple(9, Cell::Live(5, "s1"))};
  RangeTombstone rt{ClusteringRange{{Ck(1), true}, {Ck(2), false}}, Del(4, 40)};
  a.range_tombstones = {rt};
  a.rows.push_back(Row{Ck(1), Marker(5), {}, {Simple(1, Cell::Live(5, "a"))}});
  a.rows.push_back(Row{Ck(3), Marker(5), {}, {}});

  PartitionUpdate b;
  b.key = a.key;
  b.partition_deletion = Del(2, 5);
  b.static_row.columns = {Simple(9, Cell::Live(6, "s2"))};
  RangeTombstone rt2{ClusteringRange{{Ck(5), true}, {}}, Del(4, 40)};
  b.range_tombstones = {rt, rt2};  // rt is a duplicate
  b.rows.push_back(Row{Ck(0), Marker(1), {}, {}});
  b.rows.push_back(Row{Ck(1), {}, {}, {Simple(1, Cell::Live(6, "b"))}});
  b.rows.push_back(Row{Ck(4), Marker(1), {}, {}});

  MergePartition(&a, b);
  EXPECT_EQ(a.partition_deletion, Del(2, 5));
  EXPECT_EQ(a.static_row.columns, std::vector<ColumnData>{Simple(9, Cell::Live(6, "s2"))});
  EXPECT_EQ(a.range_tombstones, (std::vector<RangeTombstone>{rt, rt2}));
  ASSERT_EQ(a.rows.size(), 4u);
  EXPECT_EQ(a.rows[0].clustering, Ck(0));
  EXPECT_EQ(a.rows[1].clustering, Ck(1));
  EXPECT_EQ(a.rows[1].marker, Marker(5));
  EXPECT_EQ(a.rows[1].columns, std::vector<ColumnData>{Simple(1, Cell::Live(6, "b"))});
  EXPECT_EQ(a.rows[2].clustering, Ck(3));
  EXPECT_EQ(a.rows[3].clustering, Ck(4));
}

TEST(MergePartitionTest, OrderIndependentOverRandomUpdates) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Generator gen(seed);
  auto sorted_rts = [](PartitionUpdate u) {
    auto key = [](const RangeTombstone& r) {
      return std::make_tuple(r.range.start.prefix, r.range.start.inclusive, r.range.end.prefix,
                             r.range.end.inclusive, r.deletion.marked_for_delete_at,
                             r.deletion.local_deletion_time);
    };
    std::sort(u.range_tombstones.begin(), u.range_tombstones.end(),
              [&](const RangeTombstone& x, const RangeTombstone& y) { return key(x) < key(y); });
    // The same set: a duplicate inside one input may survive on one side only.
    u.range_tombstones.erase(std::unique(u.range_tombstones.begin(), u.range_tombstones.end()),
                             u.range_tombstones.end());
    return u;
  };
  for (int i = 0; i < 500; ++i) {
    PartitionUpdate a = gen.RandomUpdate(), b = gen.RandomUpdate();
    b.key = a.key;
    b.table_id = a.table_id;
    PartitionUpdate ab = a;
    MergePartition(&ab, b);
    PartitionUpdate ba = b;
    MergePartition(&ba, a);
    ASSERT_EQ(sorted_rts(ab), sorted_rts(ba));
    for (size_t r = 1; r < ab.rows.size(); ++r) {
      ASSERT_LT(ab.rows[r - 1].clustering, ab.rows[r].clustering);
    }
  }
}

}  // namespace
}  // namespace cassette
