// TimeWindowCompactionStrategy's own options (Cassandra's
// TimeWindowCompactionStrategyOptions; docs/COMPACTION.md) plus cassette's
// split_output_by_window, and the window arithmetic they define.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette {

enum class TimeWindowUnit { kMinutes, kHours, kDays };
enum class TimestampResolution { kSeconds, kMilliseconds, kMicroseconds, kNanoseconds };

struct TimeWindowOptions {
  TimeWindowUnit window_unit = TimeWindowUnit::kDays;
  int32_t window_size = 1;
  // The unit of the cells' write timestamps (USING TIMESTAMP).
  TimestampResolution timestamp_resolution = TimestampResolution::kMicroseconds;
  int64_t expired_sstable_check_frequency_seconds = 600;
  // Cassandra also wants a JVM flag for it; cassette has none, the option
  // alone turns it on.
  bool unsafe_aggressive_sstable_expiration = false;
  // cassette (as ScyllaDB): flushes and compactions split their output at
  // window boundaries. false = Cassandra's one output per task.
  bool split_output_by_window = true;

  // The window width in seconds: window_size minutes, hours or days.
  int64_t window_seconds() const;
  // The window width in the table's timestamp unit (what a flush or
  // compaction splits its output by); 0 when it does not fit in int64.
  int64_t window_in_timestamp_units() const;
  // Lower bound, in seconds since the epoch, of the window holding a cell
  // timestamp (in timestamp_resolution units), computed as Cassandra does:
  // to milliseconds, to seconds (truncating divisions), then down to a
  // multiple of the window width.
  int64_t WindowStartSeconds(int64_t timestamp) const;
};

// Parses the options above (erasing them from `*unconsumed`) with
// Cassandra's messages, in Cassandra's order.
Result<TimeWindowOptions> ParseTimeWindowOptions(const std::map<std::string, std::string>& options,
                                                 std::set<std::string>* unconsumed);

// "MINUTES", "HOURS", "DAYS"; and "SECONDS" ... "NANOSECONDS".
std::string_view TimeWindowUnitName(TimeWindowUnit unit);
std::string_view TimestampResolutionName(TimestampResolution resolution);

}  // namespace cassette
