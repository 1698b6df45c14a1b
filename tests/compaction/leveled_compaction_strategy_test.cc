#include "engine/compaction/leveled_compaction_strategy.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/compaction/synthetic_table.h"

namespace cassette {
namespace {

using namespace testing_compaction;  // NOLINT: test builders

using Options = std::map<std::string, std::string>;

std::string Error(const Options& options) {
  Result<LeveledCompactionOptions> r = ParseLeveledCompactionOptions(options);
  if (r.ok()) return "OK";
  EXPECT_EQ(r.status().code(), Status::Code::kConfigurationError);
  return r.status().message();
}

LeveledCompactionStrategy Strategy(const Options& options) {
  Result<LeveledCompactionOptions> r = ParseLeveledCompactionOptions(options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return LeveledCompactionStrategy(r.ok() ? *r : LeveledCompactionOptions{});
}

std::vector<uint64_t> Gens(std::initializer_list<uint64_t> g) { return g; }

// SSTables with LCS levels, sized in KiB so that sstable_size_in_mb = 1
// keeps the numbers small.
class LeveledTable {
 public:
  static constexpr uint64_t kKiB = 1024;

  SSTableStats& Add(uint64_t generation, uint32_t level, uint64_t kib, int64_t first, int64_t last,
                    int64_t ts = 0) {
    FileSpec spec;
    spec.generation = generation;
    spec.size = kib * kKiB;
    spec.first_token = first;
    spec.last_token = last;
    spec.min_ts = spec.max_ts = ts;
    levels_[generation] = level;
    return table_.Add(spec);
  }
  void SetCompacting(uint64_t generation) { table_.SetCompacting(generation, true); }

  CompactionSnapshot Snapshot(int64_t now_seconds = 0) const {
    CompactionSnapshot s = table_.Snapshot(now_seconds);
    for (CompactionCandidate& c : s.sstables) c.level = levels_.at(c.generation);
    return s;
  }

  // What the manager hands OnCompactionEnd: one output per range.
  std::vector<CompactionCandidate> Outputs(std::initializer_list<std::pair<int64_t, int64_t>> r) {
    std::vector<CompactionCandidate> outputs;
    for (const auto& [first, last] : r) {
      auto stats = std::make_unique<SSTableStats>();
      stats->partition_count = 10;
      stats->first_key = DecoratedKey{first, "out"};
      stats->last_key = DecoratedKey{last, "out"};
      CompactionCandidate c;
      c.generation = 1000 + outputs_.size();
      c.stats = stats.get();
      outputs_.push_back(std::move(stats));
      outputs.push_back(c);
    }
    return outputs;
  }

 private:
  SyntheticTable table_;
  std::map<uint64_t, uint32_t> levels_;
  std::vector<std::unique_ptr<SSTableStats>> outputs_;
};

constexpr uint64_t kKiB = LeveledTable::kKiB;

TEST(LeveledCompactionOptionsTest, DefaultsAreCassandras) {
  Result<LeveledCompactionOptions> r =
      ParseLeveledCompactionOptions({{"class", "LeveledCompactionStrategy"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->sstable_size_bytes, 160 * kMiB);
  EXPECT_EQ(r->fanout_size, 10);
  EXPECT_FALSE(r->single_sstable_uplevel);
  EXPECT_EQ(r->common.max_threshold, 32);
  EXPECT_EQ(r->size_tiered.min_sstable_size, 50 * kMiB);

  r = ParseLeveledCompactionOptions({{"sstable_size_in_mb", "256"},
                                     {"fanout_size", "4"},
                                     {"single_sstable_uplevel", "TRUE"},
                                     {"bucket_low", "0.4"},
                                     {"min_threshold", "2"},
                                     {"tombstone_threshold", "0.3"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->sstable_size_bytes, 256 * kMiB);
  EXPECT_EQ(r->fanout_size, 4);
  EXPECT_TRUE(r->single_sstable_uplevel);
  EXPECT_DOUBLE_EQ(r->size_tiered.bucket_low, 0.4);
  EXPECT_EQ(r->common.min_threshold, 2);
  EXPECT_FLOAT_EQ(static_cast<float>(r->common.tombstone_threshold), 0.3f);  // a Java float
  // Boolean.parseBoolean never complains.
  EXPECT_EQ(Error({{"single_sstable_uplevel", "yes"}}), "OK");
}

TEST(LeveledCompactionOptionsTest, RejectsBadValuesWithCassandrasMessages) {
  EXPECT_EQ(Error({{"sstable_size_in_mb", "big"}}),
            "big is not a parsable int (base10) for sstable_size_in_mb");
  EXPECT_EQ(Error({{"sstable_size_in_mb", "1.5"}}),
            "1.5 is not a parsable int (base10) for sstable_size_in_mb");
  EXPECT_EQ(Error({{"sstable_size_in_mb", "0"}}),
            "sstable_size_in_mb must be larger than 0, but was 0");
  EXPECT_EQ(Error({{"sstable_size_in_mb", "-5"}}),
            "sstable_size_in_mb must be larger than 0, but was -5");
  // Cassandra quotes the sstable size ("1" when absent) for a bad fanout.
  EXPECT_EQ(Error({{"fanout_size", "ten"}}), "1 is not a parsable int (base10) for fanout_size");
  EXPECT_EQ(Error({{"fanout_size", "ten"}, {"sstable_size_in_mb", "64"}}),
            "64 is not a parsable int (base10) for fanout_size");
  EXPECT_EQ(Error({{"fanout_size", "0"}}), "fanout_size must be larger than 0, but was 0");
  EXPECT_EQ(Error({{"bucket_low", "0.9"}, {"bucket_high", "0.8"}}),
            "bucket_high value (0.8) is less than or equal to the bucket_low value (0.9)");
  EXPECT_EQ(Error({{"max_threshold", "1"}}),
            "Min compaction threshold (got 4) cannot be greater than max compaction threshold "
            "(got 1)");
  EXPECT_EQ(Error({{"compaction_window_size", "1"}}),
            "Properties specified [compaction_window_size] are not understood by "
            "LeveledCompactionStrategy");
  EXPECT_FALSE(NewLeveledCompactionStrategy({{"fanout_size", "-1"}}).ok());
  Result<std::unique_ptr<CompactionStrategy>> ok =
      NewLeveledCompactionStrategy({{"class", "LeveledCompactionStrategy"}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)->name(), "LeveledCompactionStrategy");
}

TEST(LeveledCompactionStrategyTest, LevelTargets) {
  LeveledCompactionStrategy lcs = Strategy({});
  EXPECT_EQ(lcs.MaxBytesForLevel(0), 4 * 160 * kMiB);
  EXPECT_EQ(lcs.MaxBytesForLevel(1), 1600 * kMiB);
  EXPECT_EQ(lcs.MaxBytesForLevel(2), 16000 * kMiB);
  EXPECT_EQ(lcs.MaxBytesForLevel(8), 100000000ull * 160 * kMiB);
  LeveledCompactionStrategy four = Strategy({{"fanout_size", "4"}, {"sstable_size_in_mb", "1"}});
  EXPECT_EQ(four.MaxBytesForLevel(3), 64 * kMiB);
}

TEST(LeveledCompactionStrategyTest, SmallFlushesMergeWithinL0) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  t.Add(1, 0, 300, 0, 100, 1);
  EXPECT_FALSE(lcs.NextBackgroundTask(t.Snapshot()).has_value());
  t.Add(2, 0, 300, 50, 150, 2);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2}));
  EXPECT_EQ(task->output_level, 0u);  // less than one sstable_size: stays in L0
  EXPECT_EQ(task->max_output_bytes, kMiB);
  EXPECT_FALSE(task->tombstone_compaction);
  EXPECT_EQ(task->reason, "L0 -> L0: 2 sstables");
}

TEST(LeveledCompactionStrategyTest, L0GoesToL1WithTheL1FilesItOverlaps) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  t.Add(1, 0, 600, 0, 100, 1);
  t.Add(2, 0, 600, 50, 150, 2);
  t.Add(3, 1, 1024, 0, 40);
  t.Add(4, 1, 1024, 41, 120);
  t.Add(5, 1, 1024, 121, 200);
  t.Add(6, 1, 1024, 300, 400);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2, 3, 4, 5}));
  EXPECT_EQ(task->output_level, 1u);
  EXPECT_EQ(task->max_output_bytes, kMiB);  // outputs split: non-overlapping in L1
  EXPECT_EQ(task->reason, "L0 -> L1: 5 sstables");

  // An overlapping L1 file already compacting holds the L0 files back.
  t.SetCompacting(4);
  EXPECT_FALSE(lcs.NextBackgroundTask(t.Snapshot()).has_value());
}

TEST(LeveledCompactionStrategyTest, L0TakesTheOldestUpToMaxThreshold) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}, {"max_threshold", "4"}});
  LeveledTable t;
  // Generation order is not age order: age is the newest timestamp.
  for (uint64_t g = 1; g <= 6; ++g) t.Add(g, 0, 100, 0, 100, static_cast<int64_t>(10 - g));
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({3, 4, 5, 6}));
  EXPECT_EQ(task->output_level, 0u);
}

TEST(LeveledCompactionStrategyTest, L0AvoidsARunningL0Compaction) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  t.Add(1, 0, 100, 0, 10, 1);
  t.Add(2, 0, 100, 5, 15, 3);
  t.Add(3, 0, 100, 100, 200, 2);
  t.Add(4, 0, 100, 150, 250, 4);
  t.Add(5, 0, 100, 12, 20, 5);  // inside the running compaction's range
  t.SetCompacting(2);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({3, 4}));
}

TEST(LeveledCompactionStrategyTest, HighestLevelOverItsTargetGoesFirst) {
  // sstable 1 MiB, fanout 2: targets L1 2 MiB, L2 4 MiB, L3 8 MiB.
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}, {"fanout_size", "2"}});
  LeveledTable t;
  for (uint64_t g = 1; g <= 3; ++g) {
    t.Add(g, 1, 1024, static_cast<int64_t>(g) * 10, static_cast<int64_t>(g) * 10 + 9);
  }
  t.Add(11, 2, 1024, 0, 5);
  t.Add(12, 2, 1024, 6, 14);
  t.Add(13, 2, 1024, 15, 24);
  t.Add(14, 2, 1024, 25, 40);
  t.Add(15, 2, 1024, 41, 60);
  t.Add(21, 3, 1024, 3, 12);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  // L2 (score 1.25) before L1 (1.5 but lower): its first file and the L3
  // file it overlaps.
  EXPECT_EQ(task->inputs, Gens({11, 21}));
  EXPECT_EQ(task->output_level, 3u);
  EXPECT_EQ(task->reason, "L2 score 1.250 -> L3: 2 sstables");

  // With all of L2 busy, L1 (over its target too) cannot go: every one of
  // its files overlaps a compacting L2 file.
  for (uint64_t g = 11; g <= 15; ++g) t.SetCompacting(g);
  EXPECT_FALSE(lcs.NextBackgroundTask(t.Snapshot()).has_value());
}

// single_sstable_uplevel: a lone L1 file that overlaps nothing in L2 moves
// up without a rewrite; one that overlaps an L2 file is merged with it, and
// without the option even a lone file is rewritten.
TEST(LeveledCompactionStrategyTest, SingleSSTableUplevelMovesALoneFile) {
  const Options moving = {
      {"sstable_size_in_mb", "1"}, {"fanout_size", "2"}, {"single_sstable_uplevel", "true"}};
  LeveledTable t;
  for (uint64_t g = 1; g <= 3; ++g) {
    t.Add(g, 1, 1024, static_cast<int64_t>(g) * 10, static_cast<int64_t>(g) * 10 + 9);
  }
  t.Add(11, 2, 1024, 100, 200);
  LeveledCompactionStrategy lcs = Strategy(moving);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1}));
  EXPECT_EQ(task->output_level, 2u);
  EXPECT_TRUE(task->move_only);
  EXPECT_EQ(task->reason, "L1 score 1.500 -> L2: 1 sstables (moved up without a rewrite)");

  LeveledCompactionStrategy rewriting =
      Strategy({{"sstable_size_in_mb", "1"}, {"fanout_size", "2"}});
  task = rewriting.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1}));
  EXPECT_FALSE(task->move_only);

  LeveledTable overlapping;
  for (uint64_t g = 1; g <= 3; ++g) {
    overlapping.Add(g, 1, 1024, static_cast<int64_t>(g) * 10, static_cast<int64_t>(g) * 10 + 9);
  }
  overlapping.Add(11, 2, 1024, 5, 15);
  LeveledCompactionStrategy lcs2 = Strategy(moving);
  task = lcs2.NextBackgroundTask(overlapping.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 11}));
  EXPECT_FALSE(task->move_only);
}

TEST(LeveledCompactionStrategyTest, LevelsAreCompactedRoundRobin) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}, {"fanout_size", "2"}});
  LeveledTable t;
  for (uint64_t g = 1; g <= 4; ++g) {
    t.Add(g, 1, 1024, static_cast<int64_t>(g - 1) * 10, static_cast<int64_t>(g - 1) * 10 + 9);
  }
  t.Add(11, 2, 1024, 12, 25);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1}));
  EXPECT_EQ(task->output_level, 2u);

  // The last compaction out of L1 ended at key 25: the next starts after.
  lcs.OnCompactionEnd(*task, t.Outputs({{0, 11}, {12, 25}}));
  task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({4}));
  // Past the end of the level it wraps around.
  lcs.OnCompactionEnd(*task, t.Outputs({{30, 39}}));
  task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1}));
  // A compaction out of another level leaves L1's position alone.
  CompactionTask from_l0;
  from_l0.inputs = {99};
  lcs.OnCompactionEnd(from_l0, t.Outputs({{5, 6}}));
  lcs.OnCompactionEnd(*task, t.Outputs({{5, 9}}));
  task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({2, 11}));
}

TEST(LeveledCompactionStrategyTest, L0SizeTiersWhenFarBehind) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}, {"fanout_size", "2"}});
  LeveledTable t;
  for (uint64_t g = 1; g <= 33; ++g) t.Add(g, 0, 100, 0, 1000, static_cast<int64_t>(g));
  // Without pressure above, L0 goes to L1 as usual, 32 oldest at a time.
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs.size(), 32u);
  EXPECT_EQ(task->inputs.back(), 32u);
  EXPECT_EQ(task->output_level, 1u);

  // L1 over its target: more than 32 L0 files are size-tiered first.
  for (uint64_t g = 41; g <= 43; ++g) {
    t.Add(g, 1, 1024, static_cast<int64_t>(g) * 100, static_cast<int64_t>(g) * 100 + 50);
  }
  task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs.size(), 32u);
  EXPECT_EQ(task->output_level, 0u);
  EXPECT_EQ(task->max_output_bytes, 0u);  // one output
  EXPECT_EQ(task->reason, "L0 size-tiered: 32 of 33 sstables");
}

TEST(LeveledCompactionStrategyTest, TombstoneCompactionOfASingleFile) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  t.Add(1, 2, 1024, 0, 100);
  SSTableStats& stats = t.Add(2, 2, 1024, 200, 300);
  const int64_t now = 2 * kDayS;
  EXPECT_FALSE(lcs.NextBackgroundTask(t.Snapshot(now)).has_value());
  AddTombstones(&stats, 500, 1000);  // half of its 1000 cells
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot(now));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({2}));
  EXPECT_TRUE(task->tombstone_compaction);
  EXPECT_EQ(task->output_level, 2u);
  EXPECT_EQ(task->max_output_bytes, kMiB);
  EXPECT_EQ(task->reason, "tombstone compaction in L2");
  // Not before tombstone_compaction_interval has passed since it was written.
  EXPECT_FALSE(lcs.NextBackgroundTask(t.Snapshot(kDayS / 2)).has_value());
}

TEST(LeveledCompactionStrategyTest, FullyExpiredInputsAreDroppedWhole) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  SyntheticTable t;
  t.AddWrite(1, 100 * kKiB, /*ts=*/100, /*ttl=*/50);
  t.AddWrite(2, 100 * kKiB, /*ts=*/200, /*ttl=*/0);
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot(1000));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({2}));
  EXPECT_EQ(task->expired, Gens({1}));
}

TEST(LeveledCompactionStrategyTest, OverlappingFileInALevelCountsAsL0) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  t.Add(1, 1, 1024, 0, 100);
  t.Add(2, 1, 2048, 50, 150);  // overlaps 1: back to L0, where it is worth a compaction
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2}));
  EXPECT_EQ(task->output_level, 1u);
  EXPECT_EQ(task->reason, "L0 -> L1: 2 sstables");
}

TEST(LeveledCompactionStrategyTest, StarvedHighLevelJoinsALowerCompaction) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  // L1 holds 11 MiB (target 10): always a compaction into L2, never into L3.
  for (uint64_t g = 1; g <= 11; ++g) {
    t.Add(g, 1, 1024, static_cast<int64_t>(g) * 10, static_cast<int64_t>(g) * 10 + 9);
  }
  t.Add(31, 3, 1024, 12, 15);
  for (int round = 1; round <= LeveledCompactionStrategy::kNoCompactionLimit; ++round) {
    std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
    ASSERT_TRUE(task.has_value());
    EXPECT_EQ(task->inputs, Gens({1})) << round;
  }
  // After 25 rounds the L3 file inside the compacted range comes down too.
  std::optional<CompactionTask> task = lcs.NextBackgroundTask(t.Snapshot());
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 31}));
  EXPECT_EQ(task->output_level, 2u);
}

TEST(LeveledCompactionStrategyTest, MajorCompactionFillsOneLevel) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}});
  LeveledTable t;
  for (uint64_t g = 1; g <= 15; ++g) {
    t.Add(g, g % 3, 1024, static_cast<int64_t>(g) * 10, static_cast<int64_t>(g) * 10 + 20);
  }
  CompactionTask task = lcs.MajorTask(t.Snapshot());
  EXPECT_EQ(task.inputs.size(), 15u);
  EXPECT_EQ(task.output_level, 2u);  // 15 MiB: over L1's 10, within L2's 100
  EXPECT_EQ(task.max_output_bytes, kMiB);

  // Levels a running compaction reads or writes are avoided.
  t.Add(20, 2, 1024, 1000, 2000);
  t.SetCompacting(20);
  task = lcs.MajorTask(t.Snapshot());
  EXPECT_EQ(task.inputs.size(), 15u);
  EXPECT_EQ(task.output_level, 4u);
}

TEST(LeveledCompactionStrategyTest, DisabledRunsNothingInTheBackground) {
  LeveledCompactionStrategy lcs = Strategy({{"sstable_size_in_mb", "1"}, {"enabled", "false"}});
  LeveledTable t;
  t.Add(1, 0, 300, 0, 100, 1);
  t.Add(2, 0, 300, 50, 150, 2);
  EXPECT_FALSE(lcs.NextBackgroundTask(t.Snapshot()).has_value());
  EXPECT_EQ(lcs.MajorTask(t.Snapshot()).inputs, Gens({1, 2}));
}

}  // namespace
}  // namespace cassette
