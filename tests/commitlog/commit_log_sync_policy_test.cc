#include "engine/commitlog/commit_log_sync_policy.h"

#include <array>

#include <gtest/gtest.h>

namespace cassette {
namespace {

constexpr int64_t kMs = 1000000;

struct Case {
  const char* name;
  CommitLogSync mode;
  int64_t since_last_sync_ms;
  bool unsynced;
  bool requested;
  bool waiting;
  SyncDecision want;
};

constexpr CommitLogSync P = CommitLogSync::kPeriodic;
constexpr CommitLogSync B = CommitLogSync::kBatch;
constexpr CommitLogSync G = CommitLogSync::kGroup;
constexpr SyncDecision kNone = SyncDecision::kNone;
constexpr SyncDecision kSync = SyncDecision::kSync;
constexpr SyncDecision kAbsorb = SyncDecision::kAbsorb;

// Period 100 ms, group window 50 ms.
constexpr std::array kCases = {
    Case{"nothing to sync", B, 1000, false, true, true, kNone},
    Case{"periodic within period", P, 99, true, false, false, kNone},
    Case{"periodic period elapsed", P, 100, true, false, false, kSync},
    Case{"periodic requested", P, 0, true, true, false, kSync},
    Case{"periodic waiting writers do not matter", P, 10, true, false, true, kNone},
    Case{"batch always", B, 0, true, false, true, kSync},
    Case{"batch alone", B, 0, true, false, false, kSync},
    Case{"group alone syncs at once", G, 0, true, false, false, kSync},
    Case{"group window open, writers waiting", G, 49, true, false, true, kAbsorb},
    Case{"group window elapsed", G, 50, true, false, true, kSync},
    Case{"group requested", G, 0, true, true, true, kSync},
    Case{"group clock went backwards", G, -5, true, false, true, kAbsorb},
};

TEST(CommitLogSyncPolicyTest, Table) {
  for (const Case& c : kCases) {
    SyncFacts f;
    f.mode = c.mode;
    f.sync_period_ms = 100;
    f.group_window_ms = 50;
    f.last_sync_nanos = 1000 * kMs;
    f.now_nanos = f.last_sync_nanos + c.since_last_sync_ms * kMs;
    f.unsynced = c.unsynced;
    f.sync_requested = c.requested;
    f.writers_waiting = c.waiting;
    EXPECT_EQ(DecideSync(f), c.want) << c.name;
  }
}

TEST(CommitLogSyncPolicyTest, ZeroPeriodSyncsEveryTime) {
  SyncFacts f;
  f.mode = CommitLogSync::kPeriodic;
  f.sync_period_ms = 0;
  f.unsynced = true;
  EXPECT_EQ(DecideSync(f), SyncDecision::kSync);
}

TEST(CommitLogSyncPolicyTest, HugeIntervalsDoNotOverflow) {
  SyncFacts f;
  f.mode = CommitLogSync::kPeriodic;
  f.sync_period_ms = INT64_MAX;
  f.unsynced = true;
  f.last_sync_nanos = INT64_MIN;
  f.now_nanos = INT64_MAX;
  EXPECT_EQ(DecideSync(f), SyncDecision::kNone);
}

}  // namespace
}  // namespace cassette
