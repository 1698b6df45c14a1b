#include "engine/compaction/unified_compaction_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "engine/compaction/overlap_sets.h"
#include "engine/compaction/unified_compaction_options.h"
#include "tests/compaction/synthetic_table.h"

namespace cassette {
namespace {

using namespace testing_compaction;  // NOLINT: test builders

using Options = std::map<std::string, std::string>;

constexpr int64_t kMinToken = std::numeric_limits<int64_t>::min() + 1;
constexpr int64_t kMaxToken = std::numeric_limits<int64_t>::max();

std::string Error(const Options& options) {
  Result<UnifiedCompactionOptions> r = ParseUnifiedCompactionOptions(options);
  if (r.ok()) return "OK";
  EXPECT_EQ(r.status().code(), Status::Code::kConfigurationError);
  return r.status().message();
}

UnifiedCompactionOptions Parse(const Options& options) {
  Result<UnifiedCompactionOptions> r = ParseUnifiedCompactionOptions(options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : UnifiedCompactionOptions{};
}

UnifiedCompactionStrategy Strategy(const Options& options) {
  return UnifiedCompactionStrategy(Parse(options));
}

// A file over the whole token range (a flush, or a compaction output that
// was not split), written at `ts`.
FileSpec FullRange(uint64_t generation, uint64_t size, int64_t ts = 0) {
  FileSpec spec;
  spec.generation = generation;
  spec.size = size;
  spec.min_ts = spec.max_ts = ts;
  spec.first_token = kMinToken;
  spec.last_token = kMaxToken;
  spec.partitions = 100000;
  return spec;
}

FileSpec Ranged(uint64_t generation, uint64_t size, int64_t first, int64_t last, int64_t ts = 0) {
  FileSpec spec = FullRange(generation, size, ts);
  spec.first_token = first;
  spec.last_token = last;
  return spec;
}

std::vector<uint64_t> Gens(std::initializer_list<uint64_t> g) { return g; }

TEST(UnifiedCompactionOptionsTest, DefaultsAreCassandras) {
  const UnifiedCompactionOptions o = Parse({{"class", "UnifiedCompactionStrategy"}});
  EXPECT_EQ(o.scaling_parameters, std::vector<int32_t>{2});  // T4
  EXPECT_EQ(o.target_sstable_size, 1ull << 30);
  EXPECT_EQ(o.min_sstable_size, 100ull << 20);
  EXPECT_EQ(o.base_shard_count, 4);
  EXPECT_DOUBLE_EQ(o.sstable_growth, 0.333);
  EXPECT_EQ(o.flush_size_override, 0u);
  EXPECT_EQ(o.max_sstables_to_compact, 0);
  EXPECT_EQ(o.expired_sstable_check_frequency_seconds, 600);
  EXPECT_FALSE(o.unsafe_aggressive_sstable_expiration);
  EXPECT_EQ(o.overlap_inclusion_method, OverlapInclusionMethod::kTransitive);
}

TEST(UnifiedCompactionOptionsTest, ParsesEveryOption) {
  const UnifiedCompactionOptions o = Parse({{"scaling_parameters", " T4, L10 ,N,-3,+2"},
                                            {"target_sstable_size", "256MiB"},
                                            {"min_sstable_size", "10 MiB"},
                                            {"base_shard_count", "8"},
                                            {"sstable_growth", "50%"},
                                            {"flush_size_override", "1.5GiB"},
                                            {"max_sstables_to_compact", "64"},
                                            {"expired_sstable_check_frequency_seconds", "60"},
                                            {"unsafe_aggressive_sstable_expiration", "TRUE"},
                                            {"overlap_inclusion_method", "single"},
                                            {"min_threshold", "6"}});
  EXPECT_EQ(o.scaling_parameters, (std::vector<int32_t>{2, -8, 0, -3, 2}));
  EXPECT_EQ(o.target_sstable_size, 256ull << 20);
  EXPECT_EQ(o.min_sstable_size, 10ull << 20);
  EXPECT_EQ(o.base_shard_count, 8);
  EXPECT_DOUBLE_EQ(o.sstable_growth, 0.5);
  EXPECT_EQ(o.flush_size_override, 3ull << 29);
  EXPECT_EQ(o.max_sstables_to_compact, 64);
  EXPECT_EQ(o.expired_sstable_check_frequency_seconds, 60);
  EXPECT_TRUE(o.unsafe_aggressive_sstable_expiration);
  EXPECT_EQ(o.overlap_inclusion_method, OverlapInclusionMethod::kSingle);
  EXPECT_EQ(o.common.min_threshold, 6);
  // Java's split drops trailing empty pieces.
  EXPECT_EQ(Parse({{"scaling_parameters", "L10,"}}).scaling_parameters, std::vector<int32_t>{-8});
  EXPECT_EQ(Parse({{"min_sstable_size", "0B"}}).min_sstable_size, 0u);
  EXPECT_EQ(Parse({{"target_sstable_size", "1048576B"}}).target_sstable_size, 1u << 20);
}

TEST(UnifiedCompactionOptionsTest, RejectsBadValuesWithCassandrasMessages) {
  const std::string pattern = " must match N|L[0-9]+|T[0-9]+|[+-]?[0-9]+";
  EXPECT_EQ(Error({{"scaling_parameters", "X4"}}), "Scaling parameter X4" + pattern);
  EXPECT_EQ(Error({{"scaling_parameters", "T4,,L10"}}), "Scaling parameter " + pattern);
  EXPECT_EQ(Error({{"scaling_parameters", "l10"}}), "Scaling parameter l10" + pattern);
  EXPECT_EQ(Error({{"scaling_parameters", ","}}), "Scaling parameter ," + pattern);
  EXPECT_EQ(Error({{"scaling_parameters", "L1"}}), "Fan factor cannot be lower than 2 in L1");
  EXPECT_EQ(Error({{"scaling_parameters", "T4,T0"}}), "Fan factor cannot be lower than 2 in T0");
  EXPECT_EQ(Error({{"base_shard_count", "x"}}),
            "x is not a parsable int (base10) for base_shard_count");
  EXPECT_EQ(Error({{"base_shard_count", "0"}}),
            "Invalid configuration, base_shard_count should be positive: 0");
  EXPECT_EQ(Error({{"target_sstable_size", "100"}}),
            "target_sstable_size 100 is not a valid size in bytes: 100 does not end in unit B");
  EXPECT_EQ(Error({{"target_sstable_size", "bigB"}}),
            "target_sstable_size bigB is not a valid size in bytes: null");
  EXPECT_EQ(Error({{"target_sstable_size", "5XB"}}),
            "target_sstable_size 5XB is not a valid size in bytes: Unexpected characters between "
            "pos 1 and 2 in 5XB");
  EXPECT_EQ(Error({{"target_sstable_size", "512KiB"}}),
            "target_sstable_size 512KiB is not acceptable, size must be at least 1.000MiB");
  EXPECT_EQ(Error({{"flush_size_override", "1KiB"}}),
            "flush_size_override 1KiB is not acceptable, size must be at least 1.000MiB");
  EXPECT_EQ(Error({{"flush_size_override", "1K"}}),
            "flush_size_override 1K is not a valid size in bytes: 1K does not end in unit B");
  EXPECT_EQ(Error({{"max_sstables_to_compact", "many"}}),
            "many is not a parsable int (base10) for max_sstables_to_compact");
  EXPECT_EQ(Error({{"expired_sstable_check_frequency_seconds", "0"}}),
            "Invalid configuration, expired_sstable_check_frequency_seconds should be positive: 0");
  EXPECT_EQ(Error({{"expired_sstable_check_frequency_seconds", "1m"}}),
            "1m is not a parsable long (base10) for expired_sstable_check_frequency_seconds");
  EXPECT_EQ(Error({{"unsafe_aggressive_sstable_expiration", "yes"}}),
            "unsafe_aggressive_sstable_expiration should either be 'true' or 'false', not yes");
  EXPECT_EQ(Error({{"overlap_inclusion_method", "some"}}),
            "Invalid overlap inclusion method some. The valid options are [NONE, SINGLE, "
            "TRANSITIVE].");
  EXPECT_EQ(Error({{"min_sstable_size", "-1MiB"}}),
            "Invalid configuration, min_sstable_size should be greater than or equal to 0 (zero)");
  EXPECT_EQ(Error({{"min_sstable_size", "1GiB"}}),
            "Invalid configuration, min_sstable_size (1.000GiB) should be less than the target "
            "size minimum: 724.077MiB");
  EXPECT_EQ(Error({{"target_sstable_size", "100MiB"}, {"min_sstable_size", "80MiB"}}),
            "Invalid configuration, min_sstable_size (80.000MiB) should be less than the target "
            "size minimum: 70.711MiB");
  EXPECT_EQ(Error({{"min_sstable_size", "tiny"}}),
            "tiny is not a valid size in bytes for min_sstable_size");
  EXPECT_EQ(Error({{"sstable_growth", "2"}}), "sstable_growth 2 must be between 0 and 1");
  EXPECT_EQ(Error({{"sstable_growth", "-10%"}}), "sstable_growth -10% must be between 0 and 1");
  EXPECT_EQ(Error({{"sstable_growth", "half"}}),
            "sstable_growth is not a valid number between 0 and 1: For input string: \"half\"");
  EXPECT_EQ(Error({{"sstable_growth", " % "}}),
            "sstable_growth is not a valid number between 0 and 1: empty String");
  EXPECT_EQ(Error({{"sstable_size_in_mb", "160"}}),
            "Properties specified [sstable_size_in_mb] are not understood by "
            "UnifiedCompactionStrategy");
  // The common options are validated first.
  EXPECT_EQ(Error({{"min_threshold", "1"}, {"base_shard_count", "0"}}),
            "Min compaction threshold cannot be less than 2 (got 1)");
}

TEST(UnifiedCompactionOptionsTest, HumanReadableSizes) {
  const auto bytes = [](std::string_view text) {
    int64_t out = -1;
    std::string error;
    EXPECT_TRUE(ParseHumanReadableBytes(text, &out, &error)) << text << ": " << error;
    return out;
  };
  EXPECT_EQ(bytes("100MiB"), 100ll << 20);
  EXPECT_EQ(bytes("1GiB"), 1ll << 30);
  EXPECT_EQ(bytes("1 GiB"), 1ll << 30);
  EXPECT_EQ(bytes("1.5KiB"), 1536);
  EXPECT_EQ(bytes("4096B"), 4096);
  EXPECT_EQ(bytes("2*2^10B"), 2048);
  EXPECT_EQ(bytes("1e3B"), 1000);
  EXPECT_NEAR(static_cast<double>(bytes("10MB")), 1e7, 1);
  EXPECT_EQ(PrettyPrintMemory(0), "0B");
  EXPECT_EQ(PrettyPrintMemory(1023), "1023B");
  EXPECT_EQ(PrettyPrintMemory(1 << 20), "1.000MiB");
  EXPECT_EQ(PrettyPrintMemory(1536), "1.500KiB");
  // Java's %.3f rounds the shortest decimal half up: 1.0625 -> 1.063.
  EXPECT_EQ(PrettyPrintMemory(1114112), "1.063MiB");
}

TEST(UnifiedCompactionOptionsTest, FanoutThresholdAndShards) {
  EXPECT_EQ(UnifiedFanout(2), 4);  // T4
  EXPECT_EQ(UnifiedThreshold(2), 4);
  EXPECT_EQ(UnifiedFanout(-8), 10);  // L10
  EXPECT_EQ(UnifiedThreshold(-8), 2);
  EXPECT_EQ(UnifiedFanout(0), 2);  // N
  EXPECT_EQ(UnifiedThreshold(0), 2);

  const UnifiedCompactionOptions defaults;  // b=4, t=1GiB, m=100MiB, growth 0.333
  constexpr double kM = 1 << 20;
  EXPECT_EQ(UnifiedShardCount(defaults, 0), 1);
  EXPECT_EQ(UnifiedShardCount(defaults, 50 * kM), 1);
  EXPECT_EQ(UnifiedShardCount(defaults, 250 * kM), 2);
  EXPECT_EQ(UnifiedShardCount(defaults, 400 * kM), 4);
  EXPECT_EQ(UnifiedShardCount(defaults, 4096 * kM), 4);
  // 64 GiB is 16 base shards' worth of target; growth keeps 2/3 of the
  // exponent: 2^round(4 * 0.667) = 8 times the base.
  EXPECT_EQ(UnifiedShardCount(defaults, 65536 * kM), 32);

  UnifiedCompactionOptions fixed_target;
  fixed_target.sstable_growth = 0;
  fixed_target.min_sstable_size = 0;
  EXPECT_EQ(UnifiedShardCount(fixed_target, 10 * kM), 4);
  EXPECT_EQ(UnifiedShardCount(fixed_target, 4096 * kM), 4);
  EXPECT_EQ(UnifiedShardCount(fixed_target, 8192 * kM), 8);
  EXPECT_EQ(UnifiedShardCount(fixed_target, 65536 * kM), 64);

  UnifiedCompactionOptions fixed_count;
  fixed_count.sstable_growth = 1;
  EXPECT_EQ(UnifiedShardCount(fixed_count, 65536 * kM), 4);

  // A base count of 6 only splits below it into its power-of-two divisors.
  UnifiedCompactionOptions six;
  six.base_shard_count = 6;
  EXPECT_EQ(UnifiedShardCount(six, 450 * kM), 2);

  EXPECT_EQ(UnifiedShardBoundaries(1), std::vector<int64_t>{});
  EXPECT_EQ(UnifiedShardBoundaries(4),
            (std::vector<int64_t>{-(int64_t{1} << 62), 0, int64_t{1} << 62}));
  EXPECT_EQ(UnifiedShardBoundaries(2), std::vector<int64_t>{0});
}

TEST(OverlapSetsTest, SetsAndBuckets) {
  const auto key = [](int64_t t) { return DecoratedKey{t, ""}; };
  // Cassandra's example: A 0-3, B 2-7, C 6-9, D 1-8 -> ABD, BCD.
  const std::vector<KeyRange> abcd = {
      {key(0), key(3)}, {key(2), key(7)}, {key(6), key(9)}, {key(1), key(8)}};
  EXPECT_EQ(ConstructOverlapSets(abcd), (std::vector<std::vector<size_t>>{{0, 1, 3}, {1, 2, 3}}));
  EXPECT_TRUE(ConstructOverlapSets({}).empty());
  // Ends are inclusive: touching ranges overlap.
  EXPECT_EQ(ConstructOverlapSets({{key(0), key(5)}, {key(5), key(9)}}),
            (std::vector<std::vector<size_t>>{{0, 1}}));
  EXPECT_EQ(ConstructOverlapSets({{key(0), key(4)}, {key(5), key(9)}}),
            (std::vector<std::vector<size_t>>{{0}, {1}}));

  // A 0-5, B 2-9, C 6-12, D 10-12: AB, BC, CD.
  const std::vector<KeyRange> chain = {
      {key(0), key(5)}, {key(2), key(9)}, {key(6), key(12)}, {key(10), key(12)}};
  const std::vector<std::vector<size_t>> sets = ConstructOverlapSets(chain);
  ASSERT_EQ(sets.size(), 3u);
  const auto ranges = [&](OverlapInclusionMethod m) {
    std::vector<std::pair<size_t, size_t>> out;
    for (const OverlapBucket& b : AssignOverlapsIntoBuckets(2, m, sets)) {
      out.emplace_back(b.begin, b.end);
    }
    return out;
  };
  using Runs = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(ranges(OverlapInclusionMethod::kNone), (Runs{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(ranges(OverlapInclusionMethod::kSingle), (Runs{{0, 2}, {2, 3}}));
  EXPECT_EQ(ranges(OverlapInclusionMethod::kTransitive), (Runs{{0, 3}}));
  EXPECT_TRUE(AssignOverlapsIntoBuckets(3, OverlapInclusionMethod::kTransitive, sets).empty());
}

TEST(UnifiedCompactionStrategyTest, LevelsByDensity) {
  // m = 100 MiB, T4: level 0 below 77.5 MiB * 4 = 310 MiB, level 1 below
  // 1240 MiB, level 2 below 4960 MiB.
  UnifiedCompactionStrategy ucs = Strategy({{"flush_size_override", "100MiB"}});
  EXPECT_EQ(ucs.FlushSizeBytes(), 100 * kMiB);
  SyntheticTable t;
  t.Add(FullRange(1, 100 * kMiB));
  t.Add(FullRange(2, 300 * kMiB));
  t.Add(FullRange(3, 400 * kMiB));
  // 100 MiB over a quarter of the range is as dense as 400 MiB over all.
  t.Add(Ranged(4, 100 * kMiB, 0, std::numeric_limits<int64_t>::max() / 2));
  t.Add(FullRange(5, 2000 * kMiB));
  FileSpec busy = FullRange(6, 100 * kMiB);
  busy.compacting = true;
  t.Add(busy);
  const std::vector<UnifiedCompactionStrategy::Level> levels = ucs.Levels(t.Snapshot(0));
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].generations, Gens({1, 2}));
  EXPECT_DOUBLE_EQ(levels[0].max_density, std::floor(77.5 * kMiB * 4));
  EXPECT_EQ(levels[0].max_overlap, 2);
  EXPECT_EQ(levels[0].threshold, 4);
  EXPECT_EQ(levels[1].generations, Gens({3, 4}));  // equal density: by generation
  EXPECT_EQ(levels[1].max_overlap, 2);
  EXPECT_EQ(levels[2].generations, Gens({5}));
  EXPECT_DOUBLE_EQ(levels[2].min_density, levels[1].max_density);
}

TEST(UnifiedCompactionStrategyTest, TieredWaitsForThresholdOverlappingFiles) {
  UnifiedCompactionStrategy ucs = Strategy({{"flush_size_override", "100MiB"}});
  SyntheticTable t;
  // Four files on disjoint quarters do not overlap: nothing to gain.
  const int64_t q = int64_t{1} << 62;
  t.Add(Ranged(11, 25 * kMiB, kMinToken, -q - 1, 11));
  t.Add(Ranged(12, 25 * kMiB, -q, -1, 12));
  t.Add(Ranged(13, 25 * kMiB, 0, q - 1, 13));
  t.Add(Ranged(14, 25 * kMiB, q, kMaxToken, 14));
  EXPECT_FALSE(ucs.NextBackgroundTask(t.Snapshot(0)).has_value());
  // Two flushes over everything: three files cover any key, T4 waits.
  t.Add(FullRange(1, 100 * kMiB, 1));
  t.Add(FullRange(2, 100 * kMiB, 2));
  EXPECT_FALSE(ucs.NextBackgroundTask(t.Snapshot(0)).has_value());

  t.Add(FullRange(3, 100 * kMiB, 3));
  std::optional<CompactionTask> task = ucs.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  // Each quarter's overlap set chains to the next through the flushes.
  EXPECT_EQ(task->inputs, Gens({1, 2, 3, 11, 12, 13, 14}));
  EXPECT_TRUE(task->expired.empty());
  EXPECT_EQ(task->output_level, 0u);
  EXPECT_EQ(task->max_output_bytes, 0u);
  // 400 MiB over the whole range: 4 shards (min_sstable_size 100 MiB).
  EXPECT_EQ(task->shard_boundaries, UnifiedShardBoundaries(4));
  EXPECT_EQ(task->reason, "level 0 overlap 4: 7 sstables, 4 shards");

  // While they compact, nothing else is due.
  for (uint64_t g : task->inputs) t.SetCompacting(g, true);
  EXPECT_FALSE(ucs.NextBackgroundTask(t.Snapshot(0)).has_value());
}

TEST(UnifiedCompactionStrategyTest, ShardBoundariesOnlyInsideTheInputs) {
  UnifiedCompactionStrategy ucs =
      Strategy({{"flush_size_override", "100MiB"}, {"scaling_parameters", "L10"}});
  SyntheticTable t;
  // Two 300 MiB files on the upper half: density 600 MiB, both in level 0
  // (below 91 MiB * 10), so they overlap past L10's threshold of 2.
  t.Add(Ranged(1, 300 * kMiB, 0, kMaxToken, 1));
  t.Add(Ranged(2, 300 * kMiB, 0, kMaxToken, 2));
  std::optional<CompactionTask> task = ucs.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2}));
  // Combined density 1200 MiB -> 4 shards of the whole range.
  EXPECT_EQ(task->shard_boundaries, std::vector<int64_t>{int64_t{1} << 62});
}

TEST(UnifiedCompactionStrategyTest, LateBucketsTakeTheOldest) {
  SyntheticTable t;
  // 20 overlapping flushes on a T4 level: a timely hierarchy would have
  // merged 16 of them into one file two levels up, so the oldest 16 go.
  for (uint64_t g = 1; g <= 20; ++g) {
    // Generation order differs from age order: age is max timestamp.
    t.Add(FullRange(g, 10 * kMiB, static_cast<int64_t>(21 - g)));
  }
  UnifiedCompactionStrategy tiered = Strategy({{"flush_size_override", "10MiB"}});
  std::optional<CompactionTask> task = tiered.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}));

  // L4 (leveled, t=2): everything that would have reached a level, 16 too.
  UnifiedCompactionStrategy leveled =
      Strategy({{"flush_size_override", "10MiB"}, {"scaling_parameters", "L4"}});
  task = leveled.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs.size(), 16u);

  // Late but within one level's fanout squared: all of them, unless
  // max_sstables_to_compact caps it.
  SyntheticTable ten;
  for (uint64_t g = 1; g <= 10; ++g) ten.Add(FullRange(g, 10 * kMiB, static_cast<int64_t>(g)));
  task = tiered.NextBackgroundTask(ten.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs.size(), 10u);
  UnifiedCompactionStrategy capped =
      Strategy({{"flush_size_override", "10MiB"}, {"max_sstables_to_compact", "6"}});
  task = capped.NextBackgroundTask(ten.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2, 3, 4, 5, 6}));
  // A cap below the fanout is raised to it.
  UnifiedCompactionStrategy low_cap =
      Strategy({{"flush_size_override", "10MiB"}, {"max_sstables_to_compact", "2"}});
  task = low_cap.NextBackgroundTask(ten.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2, 3, 4}));
}

TEST(UnifiedCompactionStrategyTest, OverlapInclusionMethod) {
  SyntheticTable t;
  // A 0-5, B 2-9, C 6-12, D 10-12 (tokens x 2^50), 10 MiB each: densities
  // of 23 to 80 GiB, all in level 1 of an L10 hierarchy with m = 1 GiB.
  const int64_t u = int64_t{1} << 50;
  t.Add(Ranged(1, 10 * kMiB, 0, 5 * u, 1));
  t.Add(Ranged(2, 10 * kMiB, 2 * u, 9 * u, 2));
  t.Add(Ranged(3, 10 * kMiB, 6 * u, 12 * u, 3));
  t.Add(Ranged(4, 10 * kMiB, 10 * u, 12 * u, 4));
  const auto inputs = [&](const char* method) {
    UnifiedCompactionStrategy ucs = Strategy({{"flush_size_override", "1GiB"},
                                              {"scaling_parameters", "L10"},
                                              {"overlap_inclusion_method", method}});
    std::optional<CompactionTask> task = ucs.NextBackgroundTask(t.Snapshot(0));
    return task ? task->inputs : std::vector<uint64_t>{};
  };
  EXPECT_EQ(inputs("TRANSITIVE"), Gens({1, 2, 3, 4}));
  EXPECT_EQ(inputs("SINGLE"), Gens({1, 2, 3}));
  EXPECT_EQ(inputs("NONE"), Gens({1, 2}));
}

TEST(UnifiedCompactionStrategyTest, PrefersTheLevelWithTheHighestOverlap) {
  UnifiedCompactionStrategy ucs =
      Strategy({{"flush_size_override", "100MiB"}, {"scaling_parameters", "N"}});
  SyntheticTable t;
  // N: f = t = 2, level 0 below 110 MiB, level 1 below 220 MiB.
  t.Add(FullRange(1, 100 * kMiB, 1));
  t.Add(FullRange(2, 100 * kMiB, 2));
  t.Add(FullRange(3, 150 * kMiB, 3));
  t.Add(FullRange(4, 150 * kMiB, 4));
  t.Add(FullRange(5, 150 * kMiB, 5));
  std::optional<CompactionTask> task = ucs.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({3, 4, 5}));
  // With equal overlap the lower level goes first.
  t.Remove(5);
  task = ucs.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({1, 2}));
}

TEST(UnifiedCompactionStrategyTest, MixedScalingParametersNeverHideACompaction) {
  // T8 on level 0 (threshold 8), L4 above it (threshold 2): three flushes
  // in level 0 do not block the two overlapping files of level 1.
  UnifiedCompactionStrategy ucs =
      Strategy({{"flush_size_override", "100MiB"}, {"scaling_parameters", "T8,L4"}});
  SyntheticTable t;
  for (uint64_t g = 1; g <= 3; ++g) t.Add(FullRange(g, 100 * kMiB, static_cast<int64_t>(g)));
  t.Add(FullRange(4, 800 * kMiB, 4));
  t.Add(FullRange(5, 900 * kMiB, 5));
  std::optional<CompactionTask> task = ucs.NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, Gens({4, 5}));
}

TEST(UnifiedCompactionStrategyTest, FullyExpiredFilesAreDroppedOnTheCheckPeriod) {
  UnifiedCompactionStrategy ucs = Strategy(
      {{"flush_size_override", "100MiB"}, {"expired_sstable_check_frequency_seconds", "60"}});
  SyntheticTable t;
  t.AddWrite(1, 100 * kMiB, /*ts=*/100, /*ttl=*/50);
  t.AddWrite(2, 100 * kMiB, /*ts=*/1000, /*ttl=*/0);
  std::optional<CompactionTask> task = ucs.NextBackgroundTask(t.Snapshot(2000));
  ASSERT_TRUE(task.has_value());
  EXPECT_TRUE(task->inputs.empty());
  EXPECT_EQ(task->expired, Gens({1}));
  EXPECT_EQ(task->reason, "fully expired: 1 sstables");

  // Not checked again within the period.
  t.AddWrite(3, 100 * kMiB, /*ts=*/100, /*ttl=*/60);
  EXPECT_FALSE(ucs.NextBackgroundTask(t.Snapshot(2030)).has_value());
  task = ucs.NextBackgroundTask(t.Snapshot(2061));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, Gens({1, 3}));  // 1 was never removed from the table here

  // An older overlapping file blocks the drop unless expiration is unsafe.
  SyntheticTable blocked;
  blocked.AddWrite(1, 100 * kMiB, /*ts=*/10, /*ttl=*/0);
  blocked.AddWrite(2, 100 * kMiB, /*ts=*/100, /*ttl=*/50);
  EXPECT_FALSE(Strategy({}).NextBackgroundTask(blocked.Snapshot(2000)).has_value());
  task = Strategy({{"unsafe_aggressive_sstable_expiration", "true"}})
             .NextBackgroundTask(blocked.Snapshot(2000));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, Gens({2}));
}

TEST(UnifiedCompactionStrategyTest, ObservesTheFlushSize) {
  UnifiedCompactionStrategy ucs = Strategy({});
  EXPECT_EQ(ucs.FlushSizeBytes(), 0u);
  EXPECT_TRUE(ucs.FlushOutputShape().shard_boundaries.empty());
  SyntheticTable t;
  t.Add(FullRange(1, 300 * kMiB - 5));
  ucs.OnFlush(t.Snapshot(0).sstables[0]);
  EXPECT_EQ(ucs.FlushSizeBytes(), 300 * kMiB);  // rounded up to MiB
  // 300 MiB flushes split into 2 shards of at least min_sstable_size.
  EXPECT_EQ(ucs.FlushOutputShape().shard_boundaries, UnifiedShardBoundaries(2));
  // A flush split in two halves has the same density as a whole one.
  t.Add(Ranged(2, 150 * kMiB, kMinToken, -1));
  ucs.OnFlush(t.Snapshot(0).sstables[1]);
  EXPECT_EQ(ucs.FlushSizeBytes(), 300 * kMiB);
  // The override wins.
  EXPECT_EQ(Strategy({{"flush_size_override", "64MiB"}}).FlushSizeBytes(), 64 * kMiB);
}

TEST(UnifiedCompactionStrategyTest, MajorTaskTakesEverythingIdle) {
  SyntheticTable t;
  t.Add(FullRange(1, 600 * kMiB, 10 * kMicros));
  t.Add(FullRange(2, 600 * kMiB, 20 * kMicros));
  // Expired since second 35, but files 1 and 2 hold older data.
  FileSpec expired = FullRange(3, 100 * kMiB, 30 * kMicros);
  expired.max_ldt = 35;
  t.Add(expired);
  FileSpec busy = FullRange(4, 100 * kMiB, 40 * kMicros);
  busy.compacting = true;
  t.Add(busy);
  CompactionTask task = Strategy({}).MajorTask(t.Snapshot(1000));
  EXPECT_EQ(task.inputs, Gens({1, 2, 3}));
  EXPECT_TRUE(task.expired.empty());
  EXPECT_EQ(task.shard_boundaries, UnifiedShardBoundaries(4));  // 1.3 GiB
  EXPECT_EQ(task.output_level, 0u);

  task = Strategy({{"unsafe_aggressive_sstable_expiration", "true"}}).MajorTask(t.Snapshot(1000));
  EXPECT_EQ(task.inputs, Gens({1, 2}));
  EXPECT_EQ(task.expired, Gens({3}));
}

TEST(UnifiedCompactionStrategyTest, DisabledRunsNothingInTheBackground) {
  UnifiedCompactionStrategy ucs = Strategy({{"enabled", "false"}, {"scaling_parameters", "L10"}});
  SyntheticTable t;
  t.Add(FullRange(1, 10 * kMiB, 1));
  t.Add(FullRange(2, 10 * kMiB, 2));
  EXPECT_FALSE(ucs.NextBackgroundTask(t.Snapshot(0)).has_value());
  EXPECT_EQ(ucs.MajorTask(t.Snapshot(0)).inputs, Gens({1, 2}));
}

TEST(UnifiedCompactionStrategyTest, FactoryValidates) {
  Result<std::unique_ptr<CompactionStrategy>> ok =
      NewUnifiedCompactionStrategy({{"class", "UnifiedCompactionStrategy"}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)->name(), "UnifiedCompactionStrategy");
  EXPECT_EQ((*ok)->timer_period_seconds(), 600);
  EXPECT_FALSE(NewUnifiedCompactionStrategy({{"scaling_parameters", "Q"}}).ok());
}

// Replays a stream of equal flushes through a strategy, applying each task
// it proposes as the executor would: inputs replaced by outputs of the same
// total size, split at the task's shard boundaries in proportion to the
// token range each output covers.
struct Simulation {
  explicit Simulation(UnifiedCompactionStrategy* s) : strategy(s) {}

  void Flush(uint64_t size) {
    FileSpec spec = FullRange(next_generation++, size, ++clock);
    table.Add(spec);
    live.push_back(spec);
    CompactionSnapshot snapshot = table.Snapshot(0);
    strategy->OnFlush(snapshot.sstables.back());
    flushed_bytes += size;
    while (std::optional<CompactionTask> task = strategy->NextBackgroundTask(table.Snapshot(0))) {
      Apply(*task);
    }
  }

  void Apply(const CompactionTask& task) {
    ++compactions;
    log += task.reason + "\n";
    min_inputs = std::min(min_inputs, task.inputs.size());
    max_inputs = std::max(max_inputs, task.inputs.size());
    uint64_t bytes = 0;
    int64_t first = kMaxToken, last = std::numeric_limits<int64_t>::min(), ts = 0;
    for (uint64_t g : task.inputs) {
      const auto it = std::find_if(live.begin(), live.end(),
                                   [&](const FileSpec& f) { return f.generation == g; });
      EXPECT_NE(it, live.end());
      if (it == live.end()) continue;
      bytes += it->size;
      first = std::min(first, it->first_token);
      last = std::max(last, it->last_token);
      ts = std::max(ts, it->max_ts);
      table.Remove(g);
      live.erase(it);
    }
    rewritten_bytes += bytes;
    std::vector<int64_t> cuts{first};
    for (int64_t b : task.shard_boundaries) cuts.push_back(b);
    const long double span = static_cast<long double>(last) - static_cast<long double>(first);
    uint64_t left = bytes;
    for (size_t i = 0; i < cuts.size(); ++i) {
      const int64_t lo = cuts[i];
      const bool final_piece = i + 1 == cuts.size();
      const int64_t hi = final_piece ? last : cuts[i + 1] - 1;
      const long double share = (static_cast<long double>(hi) - lo) / span;
      const uint64_t size = final_piece ? left : static_cast<uint64_t>(bytes * share);
      left -= size;
      FileSpec out = Ranged(next_generation++, size, lo, hi, ts);
      table.Add(out);
      live.push_back(out);
    }
  }

  // The most files one key lookup may visit.
  size_t ReadAmplification() const {
    std::vector<KeyRange> ranges;
    for (const FileSpec& f : live) {
      ranges.push_back({DecoratedKey{f.first_token, ""}, DecoratedKey{f.last_token, ""}});
    }
    size_t most = 0;
    for (const std::vector<size_t>& set : ConstructOverlapSets(ranges)) {
      most = std::max(most, set.size());
    }
    return most;
  }

  UnifiedCompactionStrategy* strategy;
  SyntheticTable table;
  std::vector<FileSpec> live;
  uint64_t next_generation = 1;
  int64_t clock = 0;
  uint64_t flushed_bytes = 0;
  uint64_t rewritten_bytes = 0;
  int compactions = 0;
  std::string log;  // the reason of every task
  size_t min_inputs = std::numeric_limits<size_t>::max();
  size_t max_inputs = 0;
};

TEST(UnifiedCompactionStrategyTest, T4IsTieredAndL10IsLeveledOnTheSameFlushes) {
  UnifiedCompactionStrategy t4 = Strategy({{"scaling_parameters", "T4"}});
  UnifiedCompactionStrategy l10 = Strategy({{"scaling_parameters", "L10"}});
  Simulation tiered(&t4), leveled(&l10);

  // Flush by flush: T4 waits for 4 similar files, L10 merges every second.
  for (int i = 0; i < 3; ++i) {
    tiered.Flush(64 * kMiB);
    leveled.Flush(64 * kMiB);
  }
  EXPECT_EQ(tiered.compactions, 0);
  EXPECT_EQ(tiered.live.size(), 3u);
  EXPECT_EQ(leveled.compactions, 2);
  EXPECT_EQ(leveled.live.size(), 1u);
  EXPECT_EQ(leveled.max_inputs, 2u);
  tiered.Flush(64 * kMiB);
  leveled.Flush(64 * kMiB);
  EXPECT_EQ(tiered.compactions, 1);
  EXPECT_EQ(tiered.min_inputs, 4u);

  for (int i = 4; i < 30; ++i) {
    tiered.Flush(64 * kMiB);
    leveled.Flush(64 * kMiB);
  }
  // T4: 7 merges of 4 flushes (256 MiB each, split in 2 shards: level 1),
  // and at flush 16 the 4 level-1 runs merge into level 2 (1 GiB, 4 shards)
  // as two independent compactions, one per half they were split into.
  // Never fewer than 4 inputs per overlapping section.
  EXPECT_EQ(tiered.compactions, 9) << tiered.log;
  EXPECT_EQ(tiered.rewritten_bytes, (7 * 256 + 1024) * kMiB);
  // L10: each flush merges into the level-0 file until 640 MiB reaches
  // level 1 (4 shards), whose runs merge in pairs.
  // Per 10 flushes that is 9 merges of 128..640 MiB (3456 MiB); then the
  // level-1 runs merge at flushes 20 (1280 MiB) and 30 (1920 MiB), each as
  // 4 compactions, one per quarter shard.
  EXPECT_EQ(leveled.compactions, 3 * 9 + 2 * 4) << leveled.log;
  EXPECT_EQ(leveled.rewritten_bytes, (3 * 3456 + 1280 + 1920) * kMiB);
  EXPECT_GT(leveled.compactions, 3 * tiered.compactions);
  EXPECT_GT(leveled.rewritten_bytes, 3 * tiered.rewritten_bytes);
  EXPECT_EQ(leveled.min_inputs, 2u);
  // Write amplification bought read amplification.
  EXPECT_EQ(tiered.ReadAmplification(), 6u);  // 1 run in L2, 3 in L1, 2 flushes
  EXPECT_EQ(leveled.ReadAmplification(), 1u);
  EXPECT_EQ(tiered.flushed_bytes, leveled.flushed_bytes);
}

}  // namespace
}  // namespace cassette
