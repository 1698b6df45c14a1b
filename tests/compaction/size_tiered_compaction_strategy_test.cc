#include "engine/compaction/size_tiered_compaction_strategy.h"

#include <gtest/gtest.h>

#include "engine/compaction/size_tiered_buckets.h"
#include "tests/compaction/synthetic_table.h"

namespace cassette {
namespace {

using namespace testing_compaction;  // NOLINT: test builders

using Options = std::map<std::string, std::string>;

std::vector<uint64_t> Gens(const std::vector<const CompactionCandidate*>& files) {
  std::vector<uint64_t> out;
  for (const CompactionCandidate* f : files) out.push_back(f->generation);
  return out;
}

std::vector<const CompactionCandidate*> All(const CompactionSnapshot& s) {
  std::vector<const CompactionCandidate*> out;
  for (const CompactionCandidate& c : s.sstables) out.push_back(&c);
  return out;
}

std::unique_ptr<CompactionStrategy> Stcs(const Options& options = {}) {
  Options with_class = options;
  with_class["class"] = "SizeTieredCompactionStrategy";
  auto r = NewSizeTieredCompactionStrategy(with_class);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : nullptr;
}

std::string Error(const Options& options) {
  auto r = NewSizeTieredCompactionStrategy(options);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kConfigurationError);
  return r.ok() ? "" : r.status().message();
}

TEST(SizeTieredOptionsTest, Defaults) {
  std::set<std::string> unconsumed = {"min_sstable_size", "other"};
  Result<SizeTieredOptions> r = ParseSizeTieredOptions({{"min_sstable_size", "100"}}, &unconsumed);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->min_sstable_size, 100u);
  EXPECT_DOUBLE_EQ(r->bucket_low, 0.5);
  EXPECT_DOUBLE_EQ(r->bucket_high, 1.5);
  EXPECT_EQ(unconsumed, std::set<std::string>{"other"});
  EXPECT_EQ(SizeTieredOptions{}.min_sstable_size, 52428800u);
}

TEST(SizeTieredOptionsTest, BadValuesGetCassandrasMessages) {
  EXPECT_EQ(Error({{"min_sstable_size", "big"}}),
            "big is not a parsable int (base10) for min_sstable_size");
  EXPECT_EQ(Error({{"min_sstable_size", "-1"}}), "min_sstable_size must be non negative: -1");
  EXPECT_EQ(Error({{"bucket_low", "low"}}), "low is not a parsable float for bucket_low");
  EXPECT_EQ(Error({{"bucket_high", "x"}}), "x is not a parsable float for bucket_high");
  EXPECT_EQ(Error({{"bucket_low", "1"}, {"bucket_high", "1"}}),
            "bucket_high value (1.0) is less than or equal to the bucket_low value (1.0)");
  EXPECT_EQ(Error({{"bucket_high", "0.25"}}),
            "bucket_high value (0.25) is less than or equal to the bucket_low value (0.5)");
  EXPECT_EQ(Error({{"class", "SizeTieredCompactionStrategy"}, {"sstable_size_in_mb", "160"}}),
            "Properties specified [sstable_size_in_mb] are not understood by "
            "SizeTieredCompactionStrategy");
  // The common options are validated too.
  EXPECT_EQ(Error({{"min_threshold", "1"}}),
            "Min compaction threshold cannot be less than 2 (got 1)");
}

TEST(SizeTieredBucketsTest, SimilarSizesGroupAroundTheAverage) {
  SyntheticTable t;
  uint64_t gen = 1;
  for (uint64_t size : {1000, 300, 100, 110, 120, 310, 1400})
    t.Add({.generation = gen++, .size = size});
  SizeTieredOptions o;
  o.min_sstable_size = 0;
  CompactionSnapshot s = t.Snapshot(0);
  auto buckets = SizeTieredBuckets(All(s), o);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(Gens(buckets[0]), (std::vector<uint64_t>{3, 4, 5}));  // 100,110,120: smallest first
  EXPECT_EQ(Gens(buckets[1]), (std::vector<uint64_t>{2, 6}));     // 300,310
  EXPECT_EQ(Gens(buckets[2]), (std::vector<uint64_t>{1, 7}));     // 1000,1400 (< 1.5 x 1000)
}

TEST(SizeTieredBucketsTest, BoundsAreStrict) {
  SyntheticTable t;
  t.Add({.generation = 1, .size = 100});
  t.Add({.generation = 2, .size = 150});  // 150 is not < 1.5 x 100
  SizeTieredOptions o;
  o.min_sstable_size = 0;
  EXPECT_EQ(SizeTieredBuckets(All(t.Snapshot(0)), o).size(), 2u);
  o.bucket_high = 1.51;
  EXPECT_EQ(SizeTieredBuckets(All(t.Snapshot(0)), o).size(), 1u);
}

TEST(SizeTieredBucketsTest, SmallFilesShareOneBucket) {
  SyntheticTable t;
  t.Add({.generation = 1, .size = 1});
  t.Add({.generation = 2, .size = 10 * kMiB});
  t.Add({.generation = 3, .size = 49 * kMiB});
  t.Add({.generation = 4, .size = 500 * kMiB});
  const CompactionSnapshot s = t.Snapshot(0);
  auto buckets = SizeTieredBuckets(All(s), SizeTieredOptions{});
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(Gens(buckets[0]), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(Gens(buckets[1]), std::vector<uint64_t>{4});
}

TEST(SizeTieredBucketsTest, MostInterestingBucketTrimsAndPrefersSmallFiles) {
  SyntheticTable t;
  // Bucket A: 5 files around 100 MiB; bucket B: 4 files around 1 GiB.
  uint64_t gen = 1;
  for (uint64_t mib : {100, 101, 102, 103, 104}) t.Add({.generation = gen++, .size = mib * kMiB});
  for (uint64_t mib : {1000, 1001, 1002, 1003}) t.Add({.generation = gen++, .size = mib * kMiB});
  CompactionSnapshot s = t.Snapshot(0);
  auto buckets = SizeTieredBuckets(All(s), SizeTieredOptions{});
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(Gens(MostInterestingBucket(buckets, 4, 32)), (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  // Trimmed to max_threshold, keeping the smallest.
  EXPECT_EQ(Gens(MostInterestingBucket(buckets, 2, 3)), (std::vector<uint64_t>{1, 2, 3}));
  // Buckets below min_threshold drop out.
  EXPECT_EQ(Gens(MostInterestingBucket(buckets, 5, 32)), (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_TRUE(MostInterestingBucket(buckets, 6, 32).empty());
  EXPECT_TRUE(MostInterestingBucket({}, 4, 32).empty());
}

TEST(SizeTieredCompactionStrategyTest, CompactsABucketOfMinThresholdFiles) {
  auto stcs = Stcs();
  EXPECT_EQ(stcs->name(), "SizeTieredCompactionStrategy");
  SyntheticTable t;
  for (uint64_t g = 1; g <= 3; ++g) t.Add({.generation = g, .size = 10 * kMiB});
  EXPECT_FALSE(stcs->NextBackgroundTask(t.Snapshot(1000)).has_value());
  t.Add({.generation = 4, .size = 12 * kMiB});
  std::optional<CompactionTask> task = stcs->NextBackgroundTask(t.Snapshot(1000));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(task->expired.empty());
  EXPECT_FALSE(task->tombstone_compaction);
  EXPECT_EQ(task->split_window_micros, 0);
  EXPECT_NE(task->reason.find("size-tiered bucket of 4"), std::string::npos) << task->reason;
}

TEST(SizeTieredCompactionStrategyTest, CompactingFilesAreNotPicked) {
  auto stcs = Stcs();
  SyntheticTable t;
  for (uint64_t g = 1; g <= 4; ++g) t.Add({.generation = g, .size = kMiB});
  t.SetCompacting(2, true);
  EXPECT_FALSE(stcs->NextBackgroundTask(t.Snapshot(1000)).has_value());
  t.Add({.generation = 5, .size = kMiB});
  std::optional<CompactionTask> task = stcs->NextBackgroundTask(t.Snapshot(1000));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{1, 3, 4, 5}));
}

TEST(SizeTieredCompactionStrategyTest, ThresholdOptionsApply) {
  auto stcs = Stcs({{"min_threshold", "2"}, {"max_threshold", "2"}});
  SyntheticTable t;
  t.Add({.generation = 1, .size = 3 * kMiB});
  t.Add({.generation = 2, .size = 1 * kMiB});
  t.Add({.generation = 3, .size = 2 * kMiB});
  std::optional<CompactionTask> task = stcs->NextBackgroundTask(t.Snapshot(0));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{2, 3}));
}

TEST(SizeTieredCompactionStrategyTest, DisabledProposesNothingInTheBackground) {
  auto stcs = Stcs({{"enabled", "false"}});
  SyntheticTable t;
  for (uint64_t g = 1; g <= 4; ++g) t.Add({.generation = g});
  EXPECT_FALSE(stcs->NextBackgroundTask(t.Snapshot(0)).has_value());
  EXPECT_EQ(stcs->MajorTask(t.Snapshot(0)).inputs.size(), 4u);
}

TEST(SizeTieredCompactionStrategyTest, LargestFileWorthDroppingTombstonesAlone) {
  auto stcs = Stcs({{"tombstone_compaction_interval", "0"}});
  SyntheticTable t;
  // Different sizes, disjoint keys: no bucket of 4.
  AddTombstones(&t.Add({.generation = 1, .size = 1 * kMiB, .first_token = 0, .last_token = 9}), 500,
                60);
  AddTombstones(&t.Add({.generation = 2, .size = 100 * kMiB, .first_token = 10, .last_token = 19}),
                500, 60);
  AddTombstones(&t.Add({.generation = 3, .size = 400 * kMiB, .first_token = 20, .last_token = 29}),
                100, 60);
  std::optional<CompactionTask> task = stcs->NextBackgroundTask(t.Snapshot(60));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, std::vector<uint64_t>{2});  // 3's ratio 0.1 is below 0.2
  EXPECT_TRUE(task->tombstone_compaction);
  EXPECT_NE(task->reason.find("tombstone compaction of sstable 2"), std::string::npos)
      << task->reason;
  // Before the drop time nothing qualifies.
  EXPECT_FALSE(stcs->NextBackgroundTask(t.Snapshot(59)).has_value());
}

TEST(SizeTieredCompactionStrategyTest, FullyExpiredInputsAreDroppedNotRewritten) {
  auto stcs = Stcs();
  SyntheticTable t;
  t.AddWrite(1, kMiB, 100, 10);  // expires at 110
  t.AddWrite(2, kMiB, 200, 0);
  t.AddWrite(3, kMiB, 300, 0);
  t.AddWrite(4, kMiB, 400, 0);
  std::optional<CompactionTask> task = stcs->NextBackgroundTask(t.Snapshot(500));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{2, 3, 4}));
  EXPECT_EQ(task->expired, std::vector<uint64_t>{1});
}

TEST(SizeTieredCompactionStrategyTest, MajorTaskTakesEveryNonCompactingFile) {
  auto stcs = Stcs();
  SyntheticTable t;
  t.AddWrite(1, 5 * kMiB, 100, 10);
  t.AddWrite(2, 900 * kMiB, 200, 0);
  t.AddWrite(3, 1, 300, 0);
  t.SetCompacting(3, true);
  CompactionTask task = stcs->MajorTask(t.Snapshot(500));
  EXPECT_EQ(task.inputs, std::vector<uint64_t>{2});
  EXPECT_EQ(task.expired, std::vector<uint64_t>{1});
  EXPECT_TRUE(stcs->MajorTask(SyntheticTable().Snapshot(0)).empty());
}

}  // namespace
}  // namespace cassette
