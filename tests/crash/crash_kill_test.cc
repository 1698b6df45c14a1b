// The kill test on a real directory: per sync mode, crash_worker runs the
// mixed workload (crash_workload.h) and is SIGKILLed at seeded random
// moments; after each kill the directory is reopened and checked against
// every write the worker saw acknowledged (kill_checker.h), then the next
// worker continues on it. A killed process keeps every page the OS took,
// so every mode, periodic included, must lose nothing.
//
// Environment (scripts/crash-test sets them for long runs):
//   CASSETTE_CRASH_CYCLES    kill cycles per mode (default 25)
//   CASSETTE_CRASH_SEED      the first seed (default 1); a failure names its seed
//   CASSETTE_CRASH_DIR       where the databases go (default: a temp dir, removed)
//   CASSETTE_CRASH_CONTINUE  1: after a failure go on with a fresh database
//   CASSETTE_CRASH_VERBOSE   1: a line per cycle on stderr
//   CASSETTE_CRASH_MAX_KILL_MS  the longest wait before a kill (default 500)
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/crash/kill_checker.h"
#include "tests/support/temp_dir.h"

namespace cassette::crash {
namespace {

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoll(value, nullptr, 10) : fallback;
}

class CrashKillTest : public ::testing::TestWithParam<CommitLogSync> {};

TEST_P(CrashKillTest, KilledWorkerLosesNoAcknowledgedWriteAndTearsNoBatch) {
  TempDir temp;
  KillRunConfig config;
  config.worker = CASSETTE_CRASH_WORKER;
  const char* dir = std::getenv("CASSETTE_CRASH_DIR");
  config.dir = dir != nullptr && *dir != '\0' ? std::string(dir) : temp.path();
  config.mode = GetParam();
  config.cycles = static_cast<int>(EnvInt("CASSETTE_CRASH_CYCLES", 25));
  config.seed = static_cast<uint64_t>(EnvInt("CASSETTE_CRASH_SEED", 1));
  config.continue_after_failure = EnvInt("CASSETTE_CRASH_CONTINUE", 0) != 0;
  config.verbose = EnvInt("CASSETTE_CRASH_VERBOSE", 0) != 0;
  config.max_kill_ms = static_cast<int>(EnvInt("CASSETTE_CRASH_MAX_KILL_MS", config.max_kill_ms));

  const KillRunTotals totals = RunKillCycles(config);
  // One line for scripts/crash-test to collect.
  printf(
      "crash-test mode=%s cycles=%d early_kills=%d acknowledged_writes=%lld writes_checked=%lld "
      "failed_cycles=%d torn_batches=%d lost_partitions=%d in_flight_applied=%d "
      "in_flight_dropped=%d\n",
      SyncModeName(config.mode), totals.cycles, totals.early_kills,
      static_cast<long long>(totals.acknowledged_writes),
      static_cast<long long>(totals.writes_checked), totals.failed_cycles, totals.torn_batches,
      totals.lost_partitions, totals.in_flight_applied, totals.in_flight_dropped);
  fflush(stdout);
  EXPECT_EQ(totals.failed_cycles, 0) << totals.failures;
  EXPECT_EQ(totals.cycles, config.cycles);
  // The kills must land while writes happen, or the test proves nothing.
  EXPECT_GT(totals.acknowledged_writes, 10 * config.cycles);
}

INSTANTIATE_TEST_SUITE_P(SyncModes, CrashKillTest,
                         ::testing::Values(CommitLogSync::kBatch, CommitLogSync::kGroup,
                                           CommitLogSync::kPeriodic),
                         [](const ::testing::TestParamInfo<CommitLogSync>& info) {
                           return std::string(SyncModeName(info.param));
                         });

}  // namespace
}  // namespace cassette::crash
