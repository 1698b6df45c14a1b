// Memtable: apply and read back, overwrites, partition-level data, slices,
// token order, snapshots, statistics and memory accounting.
#include "engine/memtable/memtable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "tests/memtable/memtable_test_util.h"

namespace cassette {
namespace {

using memtable_test::Ck;
using memtable_test::Ck2;
using memtable_test::Drain;
using memtable_test::LiveRow;
using memtable_test::Name;
using memtable_test::Range;
using memtable_test::ReadAll;
using memtable_test::Update;

std::vector<std::string> Clusterings(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& r : rows) out.push_back(r.clustering);
  return out;
}

TEST(MemtableTest, EmptyMemtable) {
  Memtable m;
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.partition_count(), 0u);
  EXPECT_EQ(m.MinTimestamp(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(m.MaxTimestamp(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(m.encoding_stats(), (EncodingStats{0, 0, 0}));
  DecoratedKey k = DecoratedKey::FromKey("k");
  EXPECT_FALSE(m.ContainsPartition(k));
  EXPECT_FALSE(m.ReadPartition(k, ClusteringRange::All(), false).has_value());
  EXPECT_FALSE(m.NewIterator()->Valid());
}

TEST(MemtableTest, UpdateWithoutContentIsIgnored) {
  Memtable m;
  m.Apply(Update("k"));
  EXPECT_TRUE(m.empty());
  EXPECT_FALSE(m.ContainsPartition(DecoratedKey::FromKey("k")));
}

TEST(MemtableTest, ApplyAndReadBack) {
  Memtable m;
  PartitionUpdate u = Update("sensor-1");
  u.rows.push_back(LiveRow(Ck(1), 10, 1, "one"));
  u.rows.push_back(LiveRow(Ck(2), 10, 1, "two"));
  m.Apply(u);
  EXPECT_FALSE(m.empty());
  EXPECT_EQ(m.partition_count(), 1u);
  EXPECT_TRUE(m.ContainsPartition(u.key));
  EXPECT_FALSE(m.ContainsPartition(DecoratedKey::FromKey("sensor-2")));
  PartitionUpdate got = ReadAll(m, u.key);
  EXPECT_EQ(got.key, u.key);
  EXPECT_EQ(got.rows, u.rows);
  EXPECT_TRUE(got.partition_deletion.IsLive());
  EXPECT_TRUE(got.static_row.IsEmpty());
  EXPECT_TRUE(got.range_tombstones.empty());
}

TEST(MemtableTest, OverwriteMergesCellByCell) {
  Memtable m;
  PartitionUpdate a = Update("k");
  a.rows.push_back(LiveRow(Ck(1), 10, 1, "old"));
  m.Apply(a);
  PartitionUpdate b = Update("k");
  b.rows.push_back(LiveRow(Ck(1), 20, 1, "new"));
  b.rows[0].columns[0].column_id = 2;  // another column: both survive
  m.Apply(b);
  PartitionUpdate c = Update("k");
  c.rows.push_back(LiveRow(Ck(1), 5, 1, "stale"));  // loses to ts 10
  m.Apply(c);

  Row expected = a.rows[0];
  MergeRow(&expected, b.rows[0]);
  MergeRow(&expected, c.rows[0]);
  PartitionUpdate got = ReadAll(m, a.key);
  ASSERT_EQ(got.rows.size(), 1u);
  EXPECT_EQ(got.rows[0], expected);
  ASSERT_EQ(got.rows[0].columns.size(), 2u);
  EXPECT_EQ(got.rows[0].columns[0].cells[0].value, "old");
  EXPECT_EQ(got.rows[0].columns[1].cells[0].value, "new");
  EXPECT_EQ(got.rows[0].marker.timestamp, 20);
}

TEST(MemtableTest, PartitionDeletionStaticRowAndRangeTombstones) {
  Memtable m;
  PartitionUpdate a = Update("k");
  a.partition_deletion = DeletionTime{50, 1000};
  a.static_row = LiveRow("", 10, 7, "s1");
  RangeTombstone rt1{Range(Ck(1), true, Ck(3), false), DeletionTime{40, 999}};
  a.range_tombstones.push_back(rt1);
  m.Apply(a);
  PartitionUpdate b = Update("k");
  b.partition_deletion = DeletionTime{30, 2000};  // older: the first stays
  b.static_row = LiveRow("", 20, 8, "s2");
  RangeTombstone rt2{Range(Ck(5), true, "", true), DeletionTime{45, 999}};
  b.range_tombstones.push_back(rt2);
  m.Apply(b);

  PartitionUpdate got = ReadAll(m, a.key);
  EXPECT_EQ(got.partition_deletion, (DeletionTime{50, 1000}));
  Row static_row = a.static_row;
  MergeRow(&static_row, b.static_row);
  EXPECT_EQ(got.static_row, static_row);
  EXPECT_EQ(got.range_tombstones, (std::vector<RangeTombstone>{rt1, rt2}));
  EXPECT_TRUE(got.rows.empty());

  // A newer partition deletion replaces it.
  PartitionUpdate c = Update("k");
  c.partition_deletion = DeletionTime{60, 3000};
  m.Apply(c);
  EXPECT_EQ(ReadAll(m, a.key).partition_deletion, (DeletionTime{60, 3000}));

  // Slices keep only the tombstones that intersect them.
  std::optional<PartitionContent> slice =
      m.ReadPartition(a.key, Range(Ck(3), true, Ck(4), true), false);
  ASSERT_TRUE(slice.has_value());
  EXPECT_TRUE(slice->range_tombstones.empty());
  slice = m.ReadPartition(a.key, Range(Ck(2), true, Ck(4), true), false);
  EXPECT_EQ(slice->range_tombstones, (std::vector<RangeTombstone>{rt1}));
  slice = m.ReadPartition(a.key, Range(Ck(2), true, Ck(7), true), true);
  EXPECT_EQ(slice->range_tombstones, (std::vector<RangeTombstone>{rt1, rt2}));
}

class MemtableSliceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Clusterings (a, b) for a in 0..3 and b in 0..4, written out of order.
    key_ = DecoratedKey::FromKey("p");
    for (int b = 4; b >= 0; --b) {
      PartitionUpdate u = Update("p");
      for (int a = 0; a < 4; ++a) {
        u.rows.push_back(LiveRow(Ck2(a, b), 10 + a, 1, Name("v", a * 10 + b)));
        all_.push_back(Ck2(a, b));
      }
      std::sort(u.rows.begin(), u.rows.end(),
                [](const Row& x, const Row& y) { return x.clustering < y.clustering; });
      m_.Apply(u);
    }
    std::sort(all_.begin(), all_.end());
  }

  std::vector<std::string> Read(const ClusteringRange& range, bool reversed) {
    std::optional<PartitionContent> c = m_.ReadPartition(key_, range, reversed);
    EXPECT_TRUE(c.has_value());
    return Clusterings(Drain(c->rows.get()));
  }
  std::vector<std::string> Expected(const ClusteringRange& range, bool reversed) {
    std::vector<std::string> out;
    for (const std::string& c : all_) {
      if (range.Contains(c)) out.push_back(c);
    }
    if (reversed) std::reverse(out.begin(), out.end());
    return out;
  }

  Memtable m_;
  DecoratedKey key_;
  std::vector<std::string> all_;
};

TEST_F(MemtableSliceTest, EveryBoundCombinationForwardAndReversed) {
  std::vector<std::string> prefixes = {"",    Ck(-1),    Ck(0),     Ck(1),     Ck(3),
                                       Ck(4), Ck2(1, 2), Ck2(2, 0), Ck2(3, 4), Ck2(0, 9)};
  int checked = 0;
  for (const std::string& s : prefixes) {
    for (const std::string& e : prefixes) {
      for (int incl = 0; incl < 4; ++incl) {
        ClusteringRange range = Range(s, incl & 1, e, incl & 2);
        for (bool reversed : {false, true}) {
          ASSERT_EQ(Read(range, reversed), Expected(range, reversed))
              << "start=" << testing::PrintToString(s) << " end=" << testing::PrintToString(e)
              << " incl=" << incl << " reversed=" << reversed;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 800);
  EXPECT_EQ(Read(ClusteringRange::All(), false).size(), 20u);
}

TEST_F(MemtableSliceTest, ReversedReadSeesOverwritesMerged) {
  PartitionUpdate u = Update("p");
  u.rows.push_back(LiveRow(Ck2(2, 3), 99, 1, "latest"));
  m_.Apply(u);
  std::optional<PartitionContent> c = m_.ReadPartition(key_, ClusteringRange::All(), true);
  std::vector<Row> rows = Drain(c->rows.get());
  ASSERT_EQ(rows.size(), 20u);
  auto it = std::find_if(rows.begin(), rows.end(),
                         [](const Row& r) { return r.clustering == Ck2(2, 3); });
  ASSERT_NE(it, rows.end());
  EXPECT_EQ(it->columns[0].cells[0].value, "latest");
}

TEST(MemtableTest, PartitionsInTokenOrder) {
  Memtable m;
  std::vector<DecoratedKey> keys;
  for (int i = 0; i < 200; ++i) {
    PartitionUpdate u = Update(Name("key-", i));
    u.rows.push_back(LiveRow(Ck(i), 10, 1, "v"));
    m.Apply(u);
    keys.push_back(u.key);
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(m.partition_count(), 200u);

  std::vector<DecoratedKey> seen;
  for (auto it = m.NewIterator(); it->Valid(); it->Next()) {
    seen.push_back(it->partition().key);
    EXPECT_EQ(Drain(it->partition().rows.get()).size(), 1u);
  }
  EXPECT_EQ(seen, keys);

  // Token ranges: bounds on existing tokens, inclusive and exclusive.
  const int64_t lo = keys[50].token, hi = keys[150].token;
  for (bool start_incl : {false, true}) {
    for (bool end_incl : {false, true}) {
      std::vector<DecoratedKey> expected;
      for (const DecoratedKey& k : keys) {
        if ((start_incl ? k.token >= lo : k.token > lo) &&
            (end_incl ? k.token <= hi : k.token < hi)) {
          expected.push_back(k);
        }
      }
      std::vector<DecoratedKey> got;
      const std::optional<TokenInterval> tokens = TokenInterval::Of(lo, start_incl, hi, end_incl);
      ASSERT_TRUE(tokens.has_value());
      for (auto it = m.NewIterator(*tokens); it->Valid(); it->Next()) {
        got.push_back(it->partition().key);
      }
      EXPECT_EQ(got, expected) << start_incl << end_incl;
      EXPECT_EQ(got.size(), 99u + start_incl + end_incl);
    }
  }
  // A start after the end selects nothing.
  EXPECT_FALSE(m.NewIterator(TokenInterval{hi, lo})->Valid());
  // A single token.
  auto it = m.NewIterator(TokenInterval{lo, lo});
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->partition().key, keys[50]);
  it->Next();
  EXPECT_FALSE(it->Valid());
}

TEST(MemtableTest, SameTokenDistinctKeysAreDistinctPartitions) {
  // Equal tokens cannot be found by hashing; build keys by hand instead.
  Memtable m;
  PartitionUpdate a;
  a.key = DecoratedKey{42, "a"};
  a.rows.push_back(LiveRow(Ck(1), 1, 1, "a"));
  PartitionUpdate b;
  b.key = DecoratedKey{42, "b"};
  b.rows.push_back(LiveRow(Ck(1), 1, 1, "b"));
  m.Apply(b);
  m.Apply(a);
  m.Apply(b);
  EXPECT_EQ(m.partition_count(), 2u);
  EXPECT_EQ(ReadAll(m, a.key).rows, a.rows);
  EXPECT_EQ(ReadAll(m, b.key).rows, b.rows);
  auto it = m.NewIterator(TokenInterval{42, 42});
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->partition().key, a.key);
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->partition().key, b.key);
}

TEST(MemtableTest, ReadsAreSnapshots) {
  Memtable m;
  PartitionUpdate a = Update("k");
  a.rows.push_back(LiveRow(Ck(1), 10, 1, "first"));
  m.Apply(a);

  std::optional<PartitionContent> before = m.ReadPartition(a.key, ClusteringRange::All(), false);
  std::unique_ptr<PartitionIterator> scan = m.NewIterator();

  PartitionUpdate b = Update("k");
  b.rows.push_back(LiveRow(Ck(0), 20, 1, "inserted before"));
  b.rows.push_back(LiveRow(Ck(1), 20, 1, "second"));
  b.rows.push_back(LiveRow(Ck(2), 20, 1, "appended"));
  b.static_row = LiveRow("", 20, 5, "static");
  b.partition_deletion = DeletionTime{5, 100};
  m.Apply(b);
  PartitionUpdate other = Update("other");
  other.rows.push_back(LiveRow(Ck(1), 20, 1, "x"));
  m.Apply(other);

  // The row iterator taken before sees the first write only.
  std::vector<Row> rows = Drain(before->rows.get());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columns[0].cells[0].value, "first");
  // So does the scan: one partition, the old content.
  ASSERT_TRUE(scan->Valid());
  EXPECT_EQ(scan->partition().key, a.key);
  EXPECT_TRUE(scan->partition().static_row.IsEmpty());
  EXPECT_TRUE(scan->partition().partition_deletion.IsLive());
  EXPECT_EQ(Drain(scan->partition().rows.get()).size(), 1u);
  scan->Next();
  EXPECT_FALSE(scan->Valid());

  // A new read sees everything.
  PartitionUpdate now = ReadAll(m, a.key);
  ASSERT_EQ(now.rows.size(), 3u);
  EXPECT_EQ(now.rows[1].columns[0].cells[0].value, "second");
  EXPECT_FALSE(now.static_row.IsEmpty());
}

TEST(MemtableTest, TimestampsAndEncodingStats) {
  Memtable m;
  PartitionUpdate a = Update("k");
  a.rows.push_back(LiveRow(Ck(1), 1000, 1, "v"));
  Row expiring = LiveRow(Ck(2), 900, 1, "v");
  expiring.columns[0].cells[0] = Cell::Expiring(1500, 60, 5000, "e");
  a.rows.push_back(expiring);
  m.Apply(a);
  EXPECT_EQ(m.MinTimestamp(), 900);
  EXPECT_EQ(m.MaxTimestamp(), 1500);
  EXPECT_EQ(m.encoding_stats(), (EncodingStats{900, 5060, 60}));

  PartitionUpdate b = Update("j");
  b.partition_deletion = DeletionTime{-5, 4000};
  RangeTombstone rt{Range(Ck(1), true, Ck(2), true), DeletionTime{2000, 4500}};
  b.range_tombstones.push_back(rt);
  Row ttl_marker = LiveRow(Ck(3), 1200, 1, "v");
  ttl_marker.marker = LivenessInfo{1200, 30, 6000};
  b.rows.push_back(ttl_marker);
  m.Apply(b);
  EXPECT_EQ(m.MinTimestamp(), -5);
  EXPECT_EQ(m.MaxTimestamp(), 2000);
  EXPECT_EQ(m.encoding_stats(), (EncodingStats{-5, 4000, 30}));
}

// A fresh memtable follows every flush; Options::memtable_flush_threshold
// counts it, and may be as small as 4 KiB.
TEST(MemtableTest, AnEmptyMemtableCostsAboutAKilobyte) {
  Memtable m;
  EXPECT_LE(m.ApproximateMemoryUsage(), 2048u);
}

TEST(MemtableTest, MemoryUsageGrowsWithData) {
  Memtable m;
  const size_t initial = m.ApproximateMemoryUsage();
  size_t last = initial;
  size_t payload = 0;
  for (int i = 0; i < 2000; ++i) {
    PartitionUpdate u = Update(Name("p", i % 10));
    u.rows.push_back(LiveRow(Ck(i), 1700000000000000 + i, 1, std::string(100, 'x')));
    m.Apply(u);
    payload += 100;
    size_t now = m.ApproximateMemoryUsage();
    EXPECT_GE(now, last);
    last = now;
  }
  EXPECT_GT(last, initial + payload);
  // Encoded rows stay compact: well under 3x the raw values.
  EXPECT_LT(last, initial + 3 * payload);
}

TEST(MemtableTest, LargeRowsAndKeys) {
  Memtable m;
  PartitionUpdate u = Update(std::string(20000, 'k'));
  u.rows.push_back(LiveRow(Ck(1), 1, 1, std::string(100000, 'v')));
  u.static_row = LiveRow("", 1, 2, std::string(50000, 's'));
  m.Apply(u);
  PartitionUpdate got = ReadAll(m, u.key);
  EXPECT_EQ(got.rows, u.rows);
  EXPECT_EQ(got.static_row, u.static_row);
  EXPECT_GT(m.ApproximateMemoryUsage(), 170000u);
}

}  // namespace
}  // namespace cassette
