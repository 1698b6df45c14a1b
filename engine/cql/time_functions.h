// Time arithmetic behind the native time functions: version-1 uuids from
// a clock (unique and ordered within the process), the bounds
// minTimeuuid/maxTimeuuid use, the time a timeuuid embeds, and Cassandra's
// floor of a timestamp or time to a duration.
#pragma once

#include <cstdint>

#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/types/cql_duration.h"

namespace cassette::cql {

// 100-nanosecond intervals between the uuid epoch (1582-10-15) and the
// Unix epoch.
constexpr int64_t kUuidEpochOffsetTicks = 0x01B21DD213814000LL;

// A version-1 uuid at `now_micros` (Unix microseconds). Successive calls
// never return the same uuid and compare (as timeuuids) in call order, even
// within one microsecond: the clock-sequence-and-node half is a process-wide
// counter, so the embedded time stays exactly `now_micros`.
UuidBytes NextTimeuuid(int64_t now_micros);

// The smallest and largest timeuuids of a Unix millisecond, as Cassandra's
// minTimeuuid() and maxTimeuuid() build them.
UuidBytes MinTimeuuid(int64_t millis);
UuidBytes MaxTimeuuid(int64_t millis);

// The Unix milliseconds a version-1 uuid embeds (floor division).
int64_t TimeuuidMillis(const UuidBytes& uuid);

// A random (version 4) uuid.
UuidBytes RandomUuid();

// `millis` rounded down to `start_millis` plus a whole number of
// `duration`s (Cassandra's Duration.floorTimestamp, month arithmetic
// included). InvalidRequest for a start after the time or a negative
// duration, with Cassandra's messages.
Result<int64_t> FloorTimestamp(int64_t millis, const CqlDuration& duration, int64_t start_millis);

// A time of day (nanoseconds) rounded down to a duration of less than a day.
Result<int64_t> FloorTime(int64_t nanos, const CqlDuration& duration);

// `millis` plus `months` calendar months (the day of month clamped to the
// target month's length, as java.util.Calendar does).
int64_t AddMonths(int64_t millis, int64_t months);

}  // namespace cassette::cql
