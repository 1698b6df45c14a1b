// Sentinels shared by every layer. Write timestamps are int64 microseconds;
// local deletion and expiry times are int64 seconds (no 2038/2106 cap).
#pragma once

#include <cstdint>
#include <limits>

namespace cassette {

// "No timestamp": absent liveness, live deletion time. Not a valid write timestamp.
inline constexpr int64_t kNoTimestamp = std::numeric_limits<int64_t>::min();
// Local deletion time of live, non-expiring data.
inline constexpr int64_t kNoDeletionTime = std::numeric_limits<int64_t>::max();

// nowInSec as Cassandra derives it from the wall clock.
inline constexpr int64_t NowInSeconds(int64_t now_micros) {
  return now_micros >= 0 ? now_micros / 1000000 : -((-now_micros + 999999) / 1000000);
}

}  // namespace cassette
