#include "engine/compaction/compaction_controller.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/compaction/compaction_data_test_util.h"

namespace cassette {
namespace {

using namespace compaction_data_test;  // NOLINT: test builders

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

class CompactionControllerTest : public ::testing::Test {
 protected:
  // An SSTable holding `keys`, every cell written at `ts`.
  std::shared_ptr<const SSTableReader> Holding(const std::vector<std::string>& keys, int64_t ts) {
    std::vector<PartitionUpdate> partitions;
    for (const std::string& k : keys) {
      partitions.push_back(Partition(k, {MakeRow(1, {Simple(1, Cell::Live(ts, "v"))})}));
    }
    auto r = WriteSSTable(fs_.get(), "/t" + std::to_string(next_++) + ".sst", partitions);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  int next_ = 1;
};

TEST_F(CompactionControllerTest, NothingOutsideMeansEverythingIsPurgeablePastGcBefore) {
  CompactionController c(1000, {});
  EXPECT_EQ(c.gc_before(), 1000);
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("k")), kMax);
  EXPECT_TRUE(c.IsPurgeable(Key("k"), 123, 999));
  EXPECT_FALSE(c.IsPurgeable(Key("k"), 123, 1000));  // strictly before gc_before
  EXPECT_FALSE(c.IsPurgeable(Key("k"), 123, kNoDeletionTime));
  EXPECT_FALSE(c.IsPurgeable(DeletionTime::Live(), kMax));
  EXPECT_TRUE(c.IsPurgeable(Del(5, 10), kMax));
}

TEST_F(CompactionControllerTest, MinTimestampOfSSTablesThatMayHoldTheKey) {
  auto old_k = Holding({"k"}, 50);
  auto older_j = Holding({"j"}, 10);  // older, but cannot hold k
  auto newer_k = Holding({"k", "j"}, 70);
  CompactionController c(1000, {newer_k, older_j, old_k});
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("k")), 50);
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("j")), 10);
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("absent")), kMax);
  EXPECT_TRUE(c.IsPurgeable(Key("k"), 49, 0));
  EXPECT_FALSE(c.IsPurgeable(Key("k"), 50, 0));  // strict: equal timestamps block
  EXPECT_TRUE(c.IsPurgeable(Key("absent"), 1'000'000, 0));
}

TEST_F(CompactionControllerTest, BloomFilterRulesOutKeysInsideTheKeyRange) {
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("key" + std::to_string(i));
  auto sstable = Holding(keys, 1);
  const DecoratedKey probe = Key("probe");
  ASSERT_TRUE(sstable->stats().first_key < probe && probe < sstable->stats().last_key);
  ASSERT_FALSE(sstable->MayContainKey(probe));
  CompactionController c(1000, {sstable});
  EXPECT_EQ(c.MaxPurgeableTimestamp(probe), kMax);
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("key7")), 1);
}

TEST_F(CompactionControllerTest, MemtableCallbackLowersTheBound) {
  auto sstable = Holding({"k"}, 50);
  CompactionController c(1000, {sstable}, [](const DecoratedKey& key) -> std::optional<int64_t> {
    if (key.key == "k") return 30;
    if (key.key == "m") return 80;
    return std::nullopt;
  });
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("k")), 30);
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("m")), 80);
  EXPECT_EQ(c.MaxPurgeableTimestamp(Key("n")), kMax);
}

TEST_F(CompactionControllerTest, NoPurgeNeverPurges) {
  CompactionController c = CompactionController::NoPurge();
  EXPECT_FALSE(c.MayPurgeByTime(std::numeric_limits<int64_t>::min()));
  EXPECT_FALSE(c.IsPurgeable(Key("k"), std::numeric_limits<int64_t>::min() + 1, 0));
}

}  // namespace
}  // namespace cassette
