// The expiry and purge rules, each written once (docs/SEMANTICS.md §1-§3).
// Every layer asks these instead of comparing seconds itself: the write
// path when it stamps expiring data (Cell::Expiring, db/ converters), the
// liveness questions of Cell, LivenessInfo and the encoded-row views, reads
// (read/live_view.cc, read/range_tombstone_tracker.cc) and compaction
// (compaction_controller.h, compaction_iterator.cc,
// fully_expired_sstables.cc, twcs_window_report.cc).
//
// Seconds are int64 throughout. Each rule saturates instead of
// overflowing: a clock at the ends of int64, or a time decoded from a
// damaged file, gets one defined answer, the same in every layer.
#pragma once

#include <cstdint>
#include <limits>

#include "engine/mutation/timestamps.h"

namespace cassette {

// The latest expiry second an expiring value can carry: one below
// kNoDeletionTime, so expiring data never reads as data that never
// expires (Cassandra's MAX_DELETION_TIME is one below NO_DELETION_TIME
// too).
inline constexpr int64_t kMaxExpiryTime = kNoDeletionTime - 1;

// A gc_before under which nothing is purgeable: no local deletion time is
// below it (a flush, a table with SSTables out of its view).
inline constexpr int64_t kPurgeNothing = std::numeric_limits<int64_t>::min();

// The second data written at now_sec with `ttl` expires: now_sec + ttl,
// saturating at kMaxExpiryTime. ttl <= 0 writes data that never expires
// (kNoDeletionTime); the write paths have refused negative TTLs before
// (CheckTtl, schema/ttl_limit.h).
constexpr int64_t ExpiryTime(int64_t now_sec, int64_t ttl) {
  if (ttl <= 0) return kNoDeletionTime;
  int64_t expiry = 0;
  if (__builtin_add_overflow(now_sec, ttl, &expiry) || expiry > kMaxExpiryTime) {
    return kMaxExpiryTime;
  }
  return expiry;
}

// Whether data expiring at `expiry` has expired at now_sec: from the
// expiry second on (live while now_sec < expiry). Only asked of expiring
// data (ttl > 0); the callers tell it from data that never expires.
constexpr bool IsExpiredAt(int64_t expiry, int64_t now_sec) { return now_sec >= expiry; }

// An expired cell is a tombstone issued when it was written: its local
// deletion time is expiry - ttl (Cassandra's Cell.purge), saturating at
// the ends of int64 (a damaged file may pair any expiry with any ttl).
constexpr int64_t DeletionTimeOfExpired(int64_t expiry, int64_t ttl) {
  int64_t written = 0;
  if (__builtin_sub_overflow(expiry, ttl, &written)) {
    return ttl > 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return written;
}

// gcBefore = nowInSec - gc_grace_seconds, saturating at kPurgeNothing.
constexpr int64_t GcBefore(int64_t now_sec, int64_t gc_grace_seconds) {
  int64_t gc_before = 0;
  if (__builtin_sub_overflow(now_sec, gc_grace_seconds, &gc_before)) {
    return gc_grace_seconds > 0 ? kPurgeNothing : std::numeric_limits<int64_t>::max();
  }
  return gc_before;
}

// The gc_grace rule: a deletion with local deletion time `ldt` is past
// gc_grace at gc_before when ldt < gc_before, strictly. Data that never
// expires (kNoDeletionTime) never is. Whether it may then be dropped also
// depends on overlapping data (CompactionController); reads ignore that.
constexpr bool CanPurge(int64_t local_deletion_time, int64_t gc_before) {
  return local_deletion_time < gc_before;
}

}  // namespace cassette
