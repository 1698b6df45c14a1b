// A randomized model test: random writes (Mutations of every kind and
// InsertBatches), updates, TTLs, every deletion kind and explicit
// timestamps (with deliberate ties), checked against ReferenceModel, an
// obviously-correct map that re-derives visibility from first principles.
// Flushes, clock advances, reopens and compactions (each strategy) happen
// at random points. After every step each partition is read whole, and a
// random query (partition keys or a token range, clustering slices with
// open or closed ends, reversed, LIMIT, PER PARTITION LIMIT, a column
// subset) is checked against the model's evaluation of it (model_query.h);
// a paged query is read a page at a time, its pages interleaved with the
// steps, and each page checked against Cassandra's paging contract
// (model_query.h states the rule). model_crash_test.cc adds power losses.
//
// The seed is printed; CASSETTE_SEED replays one, CASSETTE_MODEL_STEPS
// sets the steps (scripts/model-test.sh runs many seeds with many steps).
#include <gtest/gtest.h>

#include "tests/db/model_harness.h"

namespace cassette::testing {
namespace {

// The strategy whose compactions run at random points; none of them may
// change what a read returns.
const char* const kStrategies[] = {"SizeTieredCompactionStrategy", "LeveledCompactionStrategy",
                                   "TimeWindowCompactionStrategy", "UnifiedCompactionStrategy"};

class ModelTest : public ::testing::TestWithParam<int> {};

TEST_P(ModelTest, RandomOperationsMatchTheModel) {
  const uint64_t seed = ModelSeed(0x5eed0000u + static_cast<uint64_t>(GetParam()));
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  // Seeds 0-3 never compact. Seeds 4-11 compact at random points with each
  // strategy in turn; there, explicit timestamps carry no TTL: compaction
  // rewrites an expired cell as a tombstone at the same timestamp, and a
  // tombstone beats an expiring cell of equal timestamp where the expired
  // cell lost to it on expiry time (Cassandra behaves the same; the model
  // does not know when compactions ran).
  const bool compacting = GetParam() >= 4;
  ModelHarness h(seed, compacting);
  Options options = h.t().MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  options.memtable_flush_threshold = 16 << 10;  // small: background flushes happen too
  options.auto_compaction = compacting;
  h.Open(options);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  ASSERT_OK(h.t().db->CreateKeyspace({.name = "ks"}));
  TableSchema table = SimpleTable();
  const char* strategy = kStrategies[GetParam() % 4];
  if (compacting) {
    table.mutable_options().compaction = {{"class", strategy}};
    if (GetParam() % 4 == 2)
      table.mutable_options().compaction["compaction_window_unit"] = "MINUTES";
  }
  SCOPED_TRACE(compacting ? strategy : "no compaction");
  ASSERT_OK(h.t().db->CreateTable(table));

  const int steps = ModelSteps(400);
  for (int step = 0; step < steps; ++step) {
    h.Note("step " + std::to_string(step));
    for (auto action : {&ModelHarness::RandomWrite, &ModelHarness::RandomMaintenance,
                        &ModelHarness::CheckPartitions, &ModelHarness::CheckRandomQuery}) {
      (h.*action)();
      if (::testing::Test::HasFatalFailure()) return;
    }
    if (h.random().OneIn(2)) h.NextPage();
    if (::testing::Test::HasFatalFailure()) return;
  }
  h.counts().Print(std::string("query/") + (compacting ? strategy : "none"), seed);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelTest, ::testing::Range(0, 12));

}  // namespace
}  // namespace cassette::testing
