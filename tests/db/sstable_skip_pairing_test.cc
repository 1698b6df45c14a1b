// The SSTable skips of a partition read (engine/db/view_read_source.cc:
// files skipped by key range and bloom filter, by clustering bounds, by a
// partition deletion newer than all they hold, and row-only files deferred
// until the merge reaches them) paired with their general twin, reading
// every SSTable (SetSSTableSkipsForTesting(false)), docs/ARCHITECTURE.md
// "Fast paths and their general twins". Random writes (rows, statics,
// collections, TTLs, row, range and partition deletions, explicit older
// and newer timestamps) spread over many SSTables by frequent flushes,
// then random reads (several keys, slices, reversed, limits, column
// subsets, DISTINCT, paging) at random later times: each read with the
// skips and without must return the same rows, write times, TTLs and
// collection elements. The seed is printed on failure; CASSETTE_SEED
// replays it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "engine/db/view_read_source.h"
#include "engine/util/random.h"
#include "tests/db/db_test_util.h"
#include "tests/db/pairing_test_util.h"

namespace cassette::testing {
namespace {

struct SkipsRestorer {
  ~SkipsRestorer() { SetSSTableSkipsForTesting(true); }
};

constexpr int kPartitions = 12;
constexpr int kClusterings = 24;

Value Pk(Random& rnd) { return Value::Int(static_cast<int32_t>(rnd.Uniform(kPartitions))); }
Value Ck(Random& rnd) { return Value::Int(static_cast<int32_t>(rnd.Uniform(kClusterings))); }

// A random write to ks.t (pk int, ck int, v int, s int static, tags set<text>).
Mutation RandomMutation(Random& rnd, int64_t now_micros) {
  Mutation m("ks", "t", {Pk(rnd)});
  // Mostly the clock's time; sometimes older or newer, so that a file's
  // newest timestamp does not follow its flush order.
  if (rnd.OneIn(4)) m.UsingTimestamp(now_micros + rnd.Range(-50'000'000, 50'000'000));
  if (rnd.OneIn(4)) m.UsingTtl(static_cast<int32_t>(rnd.Range(1, 40)));
  switch (rnd.Uniform(12)) {
    case 0:
      m.DeletePartition();
      break;
    case 1:
      m.DeleteRow({Ck(rnd)});
      break;
    case 2: {
      int32_t a = static_cast<int32_t>(rnd.Uniform(kClusterings));
      int32_t b = static_cast<int32_t>(rnd.Uniform(kClusterings));
      if (a > b) std::swap(a, b);
      ClusteringBound start{{Value::Int(a)}, rnd.OneIn(2)};
      ClusteringBound end{{Value::Int(b)}, rnd.OneIn(2)};
      if (rnd.OneIn(6)) start.prefix.clear();
      if (rnd.OneIn(6)) end.prefix.clear();
      m.DeleteRange(start, end);
      break;
    }
    case 3:
      m.Update({}).Set("s", Value::Int(static_cast<int32_t>(rnd.Uniform(100))));
      break;
    case 4: {
      RowBuilder row = m.Update({Ck(rnd)});
      row.Add("tags", {Value::Text(std::string(1, static_cast<char>('a' + rnd.Uniform(5))))});
      break;
    }
    default: {
      RowBuilder row = rnd.OneIn(3) ? m.Update({Ck(rnd)}) : m.Insert({Ck(rnd)});
      if (rnd.OneIn(8)) {
        row.SetNull("v");
      } else {
        row.Set("v", Value::Int(static_cast<int32_t>(rnd.Uniform(1000))));
      }
      if (rnd.OneIn(5)) {
        row.ReplaceCollection("tags",
                              {Value::Text("x"), Value::Text(std::to_string(rnd.Uniform(3)))});
      }
    }
  }
  return m;
}

ReadQuery RandomQuery(Random& rnd) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  const size_t keys = 1 + rnd.Uniform(3);
  for (size_t i = 0; i < keys; ++i) query.partition_keys.push_back({Pk(rnd)});
  if (rnd.OneIn(10)) {
    query.distinct = true;
    query.columns = {"pk", "s"};
  } else {
    if (rnd.OneIn(8)) {
      query.clustering_prefix = {Ck(rnd)};
    } else {
      if (rnd.OneIn(3)) query.slice_start = ClusteringBound{{Ck(rnd)}, rnd.OneIn(2)};
      if (rnd.OneIn(3)) query.slice_end = ClusteringBound{{Ck(rnd)}, rnd.OneIn(2)};
    }
    query.reversed = rnd.OneIn(3);
    if (rnd.OneIn(3)) query.limit = rnd.Range(1, 6);
    if (rnd.OneIn(5)) query.per_partition_limit = rnd.Range(1, 3);
    if (rnd.OneIn(3)) {
      static const std::vector<std::vector<std::string>> kColumns = {
          {"ck", "v"}, {"pk", "s"}, {"tags"}, {"v", "tags", "s"}};
      query.columns = kColumns[rnd.Uniform(kColumns.size())];
    }
  }
  query.with_cell_metadata = !query.distinct && rnd.OneIn(2);
  if (rnd.OneIn(4)) query.page_size = static_cast<int32_t>(rnd.Range(1, 4));
  return query;
}

TEST(SSTableSkipPairingTest, SkippingReadsWhatReadingEverySSTableReads) {
  const uint64_t seed = PairingSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  SkipsRestorer restorer;
  Random rnd(seed);
  int reads = 0;
  int64_t skipped = 0;
  for (int round = 0; round < 6; ++round) {
    TestDb t;
    ASSERT_OK(t.Open());
    ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t.db->CreateTable(SimpleTable()));
    for (int op = 0; op < 300; ++op) {
      ASSERT_OK(t.db->Apply(RandomMutation(rnd, t.db->NowMicros())));
      if (rnd.OneIn(6)) ASSERT_OK(t.db->Flush());  // many small SSTables
      if (rnd.OneIn(3)) t.Advance(rnd.Range(0, 3));
      if (op % 25 != 24) continue;
      for (int r = 0; r < 30; ++r) {
        const ReadQuery query = RandomQuery(rnd);
        SetSSTableSkipsForTesting(true);
        const std::string with_skips = ReadAllPages(*t.db, query);
        SetSSTableSkipsForTesting(false);
        const std::string reading_all = ReadAllPages(*t.db, query);
        SetSSTableSkipsForTesting(true);
        ASSERT_EQ(FirstDifference(with_skips, reading_all), "")
            << "round " << round << " op " << op << " read " << r;
        ++reads;
      }
    }
    auto stats = t.db->GetTableStats("ks", "t");
    ASSERT_TRUE(stats.ok());
    ASSERT_GT(stats->sstable_count, 5);
    // Later, when TTLs have run out: expired data read both ways.
    t.Advance(rnd.Range(10, 60));
    for (int r = 0; r < 30; ++r) {
      const ReadQuery query = RandomQuery(rnd);
      SetSSTableSkipsForTesting(true);
      auto with_skips = t.db->Read(query);
      ASSERT_TRUE(with_skips.ok()) << with_skips.status().ToString();
      skipped += with_skips->stats.sstables_skipped;
      const std::string a = ReadAllPages(*t.db, query);
      SetSSTableSkipsForTesting(false);
      const std::string b = ReadAllPages(*t.db, query);
      SetSSTableSkipsForTesting(true);
      ASSERT_EQ(FirstDifference(a, b), "") << "round " << round << " late read " << r;
      ++reads;
    }
  }
  // The skips were taken: the pairing compares something.
  EXPECT_GT(skipped, 0);
  std::printf("sstable skip pairing: %d reads, %lld SSTables skipped in the late reads\n", reads,
              static_cast<long long>(skipped));
}

}  // namespace
}  // namespace cassette::testing
