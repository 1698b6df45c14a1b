// Time arithmetic behind the native time functions: version-1 uuids from
// a clock (unique and ordered within the process), the bounds
// minTimeuuid/maxTimeuuid use, the time a timeuuid embeds, and Cassandra's
// floor of a timestamp or time to a duration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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
// The same, InvalidRequest for a time a timeuuid cannot hold (its 60-bit
// count of 100 ns since 1582-10-15 ends in the year 5236): a clock set
// that far ahead, which Cassandra's clock never is.
Result<UuidBytes> TimeuuidAt(int64_t now_micros);

// The date (days since the epoch) of Unix milliseconds, or InvalidRequest
// with Cassandra's message (SimpleDateSerializer.timeInMillisToDay) past
// the days a date holds (-5877641-06-23 to 5881580-07-11).
Result<int32_t> DateOfMillis(int64_t millis);
// Unix milliseconds as java.time.Instant.toString() writes them
// ("2021-03-04T05:06:07.089Z", years past 9999 with a '+').
std::string InstantText(int64_t millis);

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
// The same for any input: nullopt when the result does not fit an int64_t
// of milliseconds (|months| below 2^40).
std::optional<int64_t> AddMonthsChecked(int64_t millis, int64_t months);

}  // namespace cassette::cql
