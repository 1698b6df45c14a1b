// The model test with power losses: random writes (Mutations and
// InsertBatches), maintenance and reads as in model_test.cc, and at random
// points a crash clone of the in-memory file system (unsynced bytes
// dropped, or a random share kept as torn writes) that the database
// reopens. ModelHarness::CrashAndCheck checks the promise of each sync
// mode (commit_log_sync_policy.h, docs/RELIABILITY.md): batch and group
// mode keep every acknowledged write; periodic mode keeps every write up
// to its last fsync and may lose a suffix of the later ones, each write
// whole or not at all; nothing never written appears. The model is then
// rewound to what survived, and the run goes on.
//
// CASSETTE_SEED replays one seed; CASSETTE_MODEL_STEPS sets the steps.
#include <gtest/gtest.h>

#include <tuple>

#include "tests/db/model_harness.h"

namespace cassette::testing {
namespace {

using CrashParam = std::tuple<CommitLogSync, bool /*compacting*/>;

class ModelCrashTest : public ::testing::TestWithParam<CrashParam> {};

const char* ModeName(CommitLogSync mode) {
  switch (mode) {
    case CommitLogSync::kBatch:
      return "batch";
    case CommitLogSync::kGroup:
      return "group";
    case CommitLogSync::kPeriodic:
      return "periodic";
  }
  return "?";
}

TEST_P(ModelCrashTest, RecoveredStateIsWhatTheSyncModePromises) {
  const auto [mode, compacting] = GetParam();
  const uint64_t seed =
      ModelSeed(0xc4a50000u + 2 * static_cast<uint64_t>(mode) + (compacting ? 1 : 0));
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  ModelHarness h(seed, compacting);
  Options options = h.t().MakeOptions();
  options.commitlog_sync = mode;
  options.commitlog_sync_period_ms = 10'000;  // clock advances of 10-19 s pass a period
  options.memtable_flush_threshold = 16 << 10;
  options.auto_compaction = compacting;
  h.Open(options);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  ASSERT_OK(h.t().db->CreateKeyspace({.name = "ks"}));
  TableSchema table = SimpleTable();
  if (compacting) table.mutable_options().compaction = {{"class", "SizeTieredCompactionStrategy"}};
  ASSERT_OK(h.t().db->CreateTable(table));
  // The schema is durable once CreateTable returns; so is nothing else yet.

  const int steps = ModelSteps(300);
  for (int step = 0; step < steps; ++step) {
    h.Note("step " + std::to_string(step));
    for (auto action : {&ModelHarness::RandomWrite, &ModelHarness::RandomMaintenance}) {
      (h.*action)();
      if (::testing::Test::HasFatalFailure()) return;
    }
    if (h.random().OneIn(15)) h.CrashAndCheck();
    if (::testing::Test::HasFatalFailure()) return;
    if (h.random().OneIn(4)) h.CheckPartitions();
    if (h.random().OneIn(4)) h.CheckRandomQuery();
    if (h.random().OneIn(3)) h.NextPage();
    if (::testing::Test::HasFatalFailure()) return;
  }
  h.CrashAndCheck();
  h.counts().Print(std::string("crash/") + ModeName(mode) + (compacting ? "/compacting" : ""),
                   seed);
}

INSTANTIATE_TEST_SUITE_P(Modes, ModelCrashTest,
                         ::testing::Combine(::testing::Values(CommitLogSync::kBatch,
                                                              CommitLogSync::kGroup,
                                                              CommitLogSync::kPeriodic),
                                            ::testing::Bool()));

}  // namespace
}  // namespace cassette::testing
