// DeletionTime: a deletion's write timestamp and the second it was issued.
// It shadows everything written at or before marked_for_delete_at (ties: the
// deletion wins).
#pragma once

#include <cstdint>

#include "engine/mutation/timestamps.h"

namespace cassette {

struct DeletionTime {
  int64_t marked_for_delete_at = kNoTimestamp;
  int64_t local_deletion_time = kNoDeletionTime;

  static DeletionTime Live() { return {}; }
  bool IsLive() const { return marked_for_delete_at == kNoTimestamp; }
  // True when data written at `timestamp` is shadowed by this deletion.
  bool Deletes(int64_t timestamp) const { return !IsLive() && timestamp <= marked_for_delete_at; }
  // Larger timestamp wins, then larger local deletion time.
  bool Supersedes(const DeletionTime& other) const {
    return marked_for_delete_at > other.marked_for_delete_at ||
           (marked_for_delete_at == other.marked_for_delete_at &&
            local_deletion_time > other.local_deletion_time);
  }
  friend bool operator==(const DeletionTime&, const DeletionTime&) = default;
};

}  // namespace cassette
