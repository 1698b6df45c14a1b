#include "engine/compaction/time_window_options.h"

#include <limits>
#include <optional>
#include <utility>

#include "engine/compaction/compaction_option_parsing.h"

namespace cassette {
namespace {

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

int64_t SaturatingMultiply(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? kMin : kMax;
  return r;
}

}  // namespace

std::string_view TimeWindowUnitName(TimeWindowUnit unit) {
  switch (unit) {
    case TimeWindowUnit::kMinutes:
      return "MINUTES";
    case TimeWindowUnit::kHours:
      return "HOURS";
    case TimeWindowUnit::kDays:
      return "DAYS";
  }
  return "DAYS";
}

std::string_view TimestampResolutionName(TimestampResolution resolution) {
  switch (resolution) {
    case TimestampResolution::kSeconds:
      return "SECONDS";
    case TimestampResolution::kMilliseconds:
      return "MILLISECONDS";
    case TimestampResolution::kMicroseconds:
      return "MICROSECONDS";
    case TimestampResolution::kNanoseconds:
      return "NANOSECONDS";
  }
  return "MICROSECONDS";
}

int64_t TimeWindowOptions::window_seconds() const {
  const int64_t unit = window_unit == TimeWindowUnit::kMinutes ? 60
                       : window_unit == TimeWindowUnit::kHours ? 3600
                                                               : 86400;
  return unit * window_size;
}

int64_t TimeWindowOptions::window_in_timestamp_units() const {
  int64_t per_second = 1000000;
  switch (timestamp_resolution) {
    case TimestampResolution::kSeconds:
      per_second = 1;
      break;
    case TimestampResolution::kMilliseconds:
      per_second = 1000;
      break;
    case TimestampResolution::kMicroseconds:
      per_second = 1000000;
      break;
    case TimestampResolution::kNanoseconds:
      per_second = 1000000000;
      break;
  }
  int64_t r;
  if (__builtin_mul_overflow(window_seconds(), per_second, &r)) return 0;
  return r;
}

int64_t TimeWindowOptions::WindowStartSeconds(int64_t timestamp) const {
  int64_t millis = timestamp;
  switch (timestamp_resolution) {
    case TimestampResolution::kSeconds:
      millis = SaturatingMultiply(timestamp, 1000);  // TimeUnit.convert saturates
      break;
    case TimestampResolution::kMilliseconds:
      break;
    case TimestampResolution::kMicroseconds:
      millis = timestamp / 1000;
      break;
    case TimestampResolution::kNanoseconds:
      millis = timestamp / 1000000;
      break;
  }
  const int64_t seconds = millis / 1000;
  return seconds - seconds % window_seconds();
}

Result<TimeWindowOptions> ParseTimeWindowOptions(const std::map<std::string, std::string>& options,
                                                 std::set<std::string>* unconsumed) {
  TimeWindowOptions out;
  if (std::optional<std::string> v = FindOption(options, "timestamp_resolution")) {
    if (*v == "SECONDS") {
      out.timestamp_resolution = TimestampResolution::kSeconds;
    } else if (*v == "MILLISECONDS") {
      out.timestamp_resolution = TimestampResolution::kMilliseconds;
    } else if (*v == "MICROSECONDS") {
      out.timestamp_resolution = TimestampResolution::kMicroseconds;
    } else if (*v == "NANOSECONDS") {
      out.timestamp_resolution = TimestampResolution::kNanoseconds;
    } else {
      return Config(*v + " is not valid for timestamp_resolution");
    }
  }
  if (std::optional<std::string> v = FindOption(options, "compaction_window_unit")) {
    if (*v == "MINUTES") {
      out.window_unit = TimeWindowUnit::kMinutes;
    } else if (*v == "HOURS") {
      out.window_unit = TimeWindowUnit::kHours;
    } else if (*v == "DAYS") {
      out.window_unit = TimeWindowUnit::kDays;
    } else {
      // Other TimeUnit names (SECONDS, ...) fail like non-names: valueOf
      // is case-sensitive and only three units are windows.
      return Config(*v + " is not valid for compaction_window_unit");
    }
  }
  if (std::optional<std::string> v = FindOption(options, "compaction_window_size")) {
    if (!ParseJavaInt(*v, &out.window_size)) {
      return Config(*v + " is not a parsable int (base10) for compaction_window_size");
    }
    if (out.window_size < 1) {
      return Config(std::to_string(out.window_size) +
                    " must be greater than 1 for compaction_window_size");
    }
  }
  if (std::optional<std::string> v =
          FindOption(options, "expired_sstable_check_frequency_seconds")) {
    if (!ParseJavaLong(*v, &out.expired_sstable_check_frequency_seconds)) {
      return Config(*v +
                    " is not a parsable int (base10) for expired_sstable_check_frequency_seconds");
    }
    if (out.expired_sstable_check_frequency_seconds < 0) {
      return Config("expired_sstable_check_frequency_seconds must not be negative, but was " +
                    std::to_string(out.expired_sstable_check_frequency_seconds));
    }
  }
  if (std::optional<std::string> v = FindOption(options, "unsafe_aggressive_sstable_expiration")) {
    if (!IsJavaBooleanLiteral(*v)) {
      return Config("unsafe_aggressive_sstable_expiration is not 'true' or 'false' (" + *v + ")");
    }
    out.unsafe_aggressive_sstable_expiration = EqualsIgnoreCase(*v, "true");
  }
  if (std::optional<std::string> v = FindOption(options, "split_output_by_window")) {
    if (!IsJavaBooleanLiteral(*v)) {
      return Config("split_output_by_window should either be 'true' or 'false', not " + *v);
    }
    out.split_output_by_window = EqualsIgnoreCase(*v, "true");
  }
  if (unconsumed != nullptr) {
    for (const char* key : {"timestamp_resolution", "compaction_window_unit",
                            "compaction_window_size", "expired_sstable_check_frequency_seconds",
                            "unsafe_aggressive_sstable_expiration", "split_output_by_window"}) {
      unconsumed->erase(key);
    }
  }
  return out;
}

}  // namespace cassette
