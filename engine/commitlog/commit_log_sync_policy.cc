#include "engine/commitlog/commit_log_sync_policy.h"

#include "engine/util/coding.h"

namespace cassette {
namespace {

bool Elapsed(const SyncFacts& f, int64_t ms) {
  // A clock that went backwards (it must not, but a wrapping difference is
  // cheap) counts as "not elapsed" rather than as a huge interval.
  const int64_t since = WrappingSub(f.now_nanos, f.last_sync_nanos);
  return since >= 0 && since / 1000000 >= ms;
}

}  // namespace

SyncDecision DecideSync(const SyncFacts& f) {
  if (!f.unsynced) return SyncDecision::kNone;
  if (f.sync_requested) return SyncDecision::kSync;
  switch (f.mode) {
    case CommitLogSync::kPeriodic:
      return Elapsed(f, f.sync_period_ms) ? SyncDecision::kSync : SyncDecision::kNone;
    case CommitLogSync::kBatch:
      return SyncDecision::kSync;
    case CommitLogSync::kGroup:
      if (!f.writers_waiting || Elapsed(f, f.group_window_ms)) return SyncDecision::kSync;
      return SyncDecision::kAbsorb;
  }
  return SyncDecision::kSync;
}

}  // namespace cassette
