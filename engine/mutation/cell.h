// Cell: one column value (or one element of a non-frozen collection) with
// its write timestamp, TTL and local deletion time. Three kinds:
//   live       ttl == 0, local_deletion_time == kNoDeletionTime
//   expiring   ttl > 0,  local_deletion_time == expiry second
//   tombstone  ttl == 0, local_deletion_time == second the delete was issued
#pragma once

#include <cstdint>
#include <string>

#include "engine/mutation/expiry.h"
#include "engine/mutation/timestamps.h"

namespace cassette {

struct Cell {
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;
  int64_t local_deletion_time = kNoDeletionTime;
  // Serialized value; empty for tombstones.
  std::string value;
  // Collection element key in comparable encoding (types/comparable.h):
  // the set element, the map key, or the list element's timeuuid. Empty for
  // simple columns.
  std::string path;

  static Cell Live(int64_t ts, std::string value, std::string path = {}) {
    return Cell{ts, 0, kNoDeletionTime, std::move(value), std::move(path)};
  }
  static Cell Expiring(int64_t ts, int32_t ttl, int64_t now_sec, std::string value,
                       std::string path = {}) {
    return Cell{ts, ttl, ExpiryTime(now_sec, ttl), std::move(value), std::move(path)};
  }
  static Cell Tombstone(int64_t ts, int64_t now_sec, std::string path = {}) {
    return Cell{ts, 0, now_sec, {}, std::move(path)};
  }

  bool IsTombstone() const { return ttl == 0 && local_deletion_time != kNoDeletionTime; }
  bool IsExpiring() const { return ttl > 0; }
  // Live at now_sec: not a tombstone and not expired (IsExpiredAt).
  bool IsLive(int64_t now_sec) const {
    return local_deletion_time == kNoDeletionTime ||
           (ttl > 0 && !IsExpiredAt(local_deletion_time, now_sec));
  }
  friend bool operator==(const Cell&, const Cell&) = default;
};

}  // namespace cassette
