// CommitLogSyncPolicy: when the group-commit leader fsyncs, per sync mode.
// A pure function of the facts the leader sees once its writers' records
// are in the OS, so every mode's rule is unit-tested without threads.
//
// The rules (and the durability promise each keeps):
// - periodic: acknowledge at once; fsync when sync_period_ms has passed
//   since the last fsync (by the injected Clock) or when asked (Sync(),
//   Close(), the background thread). A crash loses at most the records
//   acknowledged since the last fsync.
// - batch: fsync before acknowledging, every time. Writers that queue up
//   while a leader is in fsync form the next leader's group, so concurrent
//   writers share fsyncs.
// - group: fsync before acknowledging, but at most once per group_window_ms
//   while other writers are waiting: if the window has not elapsed since
//   the last fsync and writers are queued behind the group, the leader
//   absorbs them into its group (writes their records too) and decides
//   again. It fsyncs once the window has elapsed OR no other writer is
//   queued. Why the second condition: waiting for the window to pass needs
//   time to pass, and with a ManualClock that does not move it never would;
//   a lone writer gains nothing from waiting anyway (no one would share its
//   fsync). So acknowledged => synced holds in group mode exactly as in
//   batch mode, and under load fsyncs are capped at one per window.
#pragma once

#include <cstdint>

#include "cassette/options.h"

namespace cassette {

enum class SyncDecision : uint8_t {
  kNone,    // acknowledge without an fsync (periodic only, or nothing to sync)
  kSync,    // fsync, then acknowledge the group
  kAbsorb,  // group mode: take the queued writers into the group first
};

struct SyncFacts {
  CommitLogSync mode = CommitLogSync::kPeriodic;
  int64_t sync_period_ms = 0;
  int64_t group_window_ms = 0;
  // Monotonic clock readings.
  int64_t now_nanos = 0;
  int64_t last_sync_nanos = 0;
  // Bytes reached the OS since the last fsync.
  bool unsynced = false;
  // Someone in the group called Sync() or Close(), or the background timer fired.
  bool sync_requested = false;
  // Writers are queued behind the group.
  bool writers_waiting = false;
};

SyncDecision DecideSync(const SyncFacts& facts);

}  // namespace cassette
