// LivenessInfo: the row marker INSERT writes (primary-key liveness). A row
// whose marker is live is visible even when every column is null.
#pragma once

#include <cstdint>

#include "engine/mutation/expiry.h"
#include "engine/mutation/timestamps.h"

namespace cassette {

struct LivenessInfo {
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;
  // Second at which an expiring marker expires; kNoDeletionTime otherwise.
  int64_t local_expiration_time = kNoDeletionTime;

  bool IsEmpty() const { return timestamp == kNoTimestamp; }
  bool IsExpiring() const { return ttl > 0; }
  bool IsLive(int64_t now_sec) const {
    return !IsEmpty() && (!IsExpiring() || !IsExpiredAt(local_expiration_time, now_sec));
  }
  friend bool operator==(const LivenessInfo&, const LivenessInfo&) = default;
};

}  // namespace cassette
