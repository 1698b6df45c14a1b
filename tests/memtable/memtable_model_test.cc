// Randomized: the memtable against a std::map of partitions merged with
// MergePartition, after every batch of random updates (overlapping
// clusterings, static rows, range tombstones, partition deletions), over
// full reads, random slices forward and reversed, and full scans.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/memtable/memtable.h"
#include "engine/mutation/clustering_interval.h"
#include "tests/memtable/memtable_test_util.h"

namespace cassette {
namespace {

using memtable_test::Drain;
using memtable_test::ModelMemtable;
using memtable_test::ReadAll;
using memtable_test::Unique;
using memtable_test::UpdateGenerator;

void ExpectSamePartition(const PartitionUpdate& got, const PartitionUpdate& want) {
  EXPECT_EQ(got.key, want.key);
  EXPECT_EQ(got.partition_deletion, want.partition_deletion);
  EXPECT_EQ(got.static_row, want.static_row);
  EXPECT_EQ(Unique(got.range_tombstones), want.range_tombstones);
  EXPECT_EQ(got.rows, want.rows);
}

void CheckSlice(const Memtable& m, const PartitionUpdate& want, const ClusteringRange& range,
                bool reversed) {
  std::optional<PartitionContent> c = m.ReadPartition(want.key, range, reversed);
  ASSERT_TRUE(c.has_value());
  std::vector<Row> expected;
  for (const Row& r : want.rows) {
    if (range.Contains(r.clustering)) expected.push_back(r);
  }
  if (reversed) std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(Drain(c->rows.get()), expected);
  EXPECT_EQ(c->partition_deletion, want.partition_deletion);
  EXPECT_EQ(c->static_row, want.static_row);

  // Tombstones: every one that shares a clustering with the range is there,
  // and nothing that is not in the partition.
  std::vector<RangeTombstone> got = Unique(c->range_tombstones);
  for (const RangeTombstone& rt : got) {
    EXPECT_NE(std::find(want.range_tombstones.begin(), want.range_tombstones.end(), rt),
              want.range_tombstones.end());
  }
  ClusteringInterval wanted = ClusteringInterval::FromRange(range);
  for (const RangeTombstone& rt : want.range_tombstones) {
    bool shares = false;
    for (int a = -1; a <= 4 && !shares; ++a) {
      for (int b = -1; b <= 5 && !shares; ++b) {
        std::string ck = memtable_test::Ck2(a, b);
        shares = range.Contains(ck) && rt.range.Contains(ck);
      }
    }
    bool present = std::find(got.begin(), got.end(), rt) != got.end();
    if (shares) {
      EXPECT_TRUE(present);
    }
    // An unbounded read keeps every tombstone, even one covering nothing.
    const bool all = range.start.prefix.empty() && range.end.prefix.empty();
    EXPECT_EQ(present, all || ClusteringInterval::FromRange(rt.range).Overlaps(wanted));
  }
}

void CheckEverything(const Memtable& m, const ModelMemtable& model, UpdateGenerator* gen) {
  const auto& partitions = model.partitions();
  EXPECT_EQ(m.partition_count(), partitions.size());
  // The full scan, in partition order.
  auto it = m.NewIterator();
  for (const auto& [sort_key, want] : partitions) {
    ASSERT_TRUE(it->Valid());
    Result<PartitionUpdate> got = Materialize(it->partition());
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSamePartition(*got, want);
    it->Next();
  }
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());

  for (const auto& [sort_key, want] : partitions) {
    EXPECT_TRUE(m.ContainsPartition(want.key));
    ExpectSamePartition(ReadAll(m, want.key), want);
    for (int i = 0; i < 4; ++i) CheckSlice(m, want, gen->RandomRange(), i % 2 == 1);
  }
}

TEST(MemtableModelTest, RandomUpdatesMatchMergePartition) {
  const uint64_t seed = memtable_test::TestSeed();
  SCOPED_TRACE(memtable_test::Name("CASSETTE_SEED=", static_cast<int64_t>(seed)));
  for (int round = 0; round < 20; ++round) {
    UpdateGenerator gen(seed + round);
    Memtable m;
    ModelMemtable model;
    for (int batch = 0; batch < 5; ++batch) {
      for (int i = 0; i < 40; ++i) {
        PartitionUpdate u = gen.RandomUpdate();
        m.Apply(u);
        model.Apply(u);
      }
      CheckEverything(m, model, &gen);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(MemtableModelTest, TimeSeriesAppendsMatch) {
  // Mostly in-order appends (the fast path) with late arrivals.
  const uint64_t seed = memtable_test::TestSeed();
  UpdateGenerator gen(seed);
  Memtable m;
  ModelMemtable model;
  std::vector<std::string> keys = UpdateGenerator::Keys();
  std::vector<int32_t> next(keys.size(), 0);
  for (int i = 0; i < 3000; ++i) {
    size_t k = gen.rnd().Uniform(keys.size());
    PartitionUpdate u = memtable_test::Update(keys[k]);
    int32_t ck =
        gen.rnd().Percent(90) ? next[k]++ : static_cast<int32_t>(gen.rnd().Uniform(next[k] + 1));
    u.rows.push_back(gen.RandomRow(memtable_test::Ck(ck)));
    m.Apply(u);
    model.Apply(u);
  }
  CheckEverything(m, model, &gen);
}

// Plain rows (Memtable::Apply(PlainRowWrite)) mixed with whole updates
// over the same partitions and clusterings: overwrites in both directions
// (a plain row over an encoded row and the reverse) and ties. The model
// applies each plain row as the update holding PlainRow::ToRow(); reads
// and statistics must not tell the two paths apart.
TEST(MemtableModelTest, PlainRowsMatchTheUpdatesTheyStandFor) {
  const uint64_t seed = memtable_test::TestSeed();
  SCOPED_TRACE(memtable_test::Name("CASSETTE_SEED=", static_cast<int64_t>(seed)));
  for (int round = 0; round < 10; ++round) {
    UpdateGenerator gen(seed + 100 + round);
    Random& rnd = gen.rnd();
    Memtable m;
    Memtable all_updates;
    ModelMemtable model;
    const std::vector<std::string> keys = UpdateGenerator::Keys();
    for (int batch = 0; batch < 5; ++batch) {
      for (int i = 0; i < 60; ++i) {
        if (rnd.Percent(30)) {
          PartitionUpdate u = gen.RandomUpdate();
          m.Apply(u);
          all_updates.Apply(u);
          model.Apply(u);
          continue;
        }
        std::vector<std::string> values;
        std::vector<PlainColumn> columns;
        PlainRow row;
        row.has_marker = rnd.OneIn(2);
        row.timestamp = gen.Timestamp();
        if (rnd.OneIn(3)) {
          row.ttl = static_cast<int32_t>(rnd.Range(1, 3));
          row.expiry = gen.Second() + row.ttl;
        }
        const size_t n = rnd.Uniform(3) + (row.has_marker ? 0 : 1);
        for (size_t c = 0; c < n; ++c) values.push_back(gen.Value());
        uint32_t id = static_cast<uint32_t>(rnd.Uniform(2));
        for (size_t c = 0; c < n; ++c) {
          columns.push_back({id, values[c]});
          id += 1 + static_cast<uint32_t>(rnd.Uniform(2));
        }
        row.columns = columns;
        PartitionUpdate u = memtable_test::Update(keys[rnd.Uniform(keys.size())]);
        const std::string clustering = gen.Clustering();
        u.rows.push_back(row.ToRow(clustering));
        m.Apply(PlainRowWrite{u.key.token, u.key.key, clustering, row});
        all_updates.Apply(u);
        model.Apply(u);
      }
      CheckEverything(m, model, &gen);
      EXPECT_EQ(m.MinTimestamp(), all_updates.MinTimestamp());
      EXPECT_EQ(m.MaxTimestamp(), all_updates.MaxTimestamp());
      EXPECT_EQ(m.encoding_stats(), all_updates.encoding_stats());
      EXPECT_EQ(m.ApproximateMemoryUsage(), all_updates.ApproximateMemoryUsage())
          << "the same bytes in the arena";
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace cassette
