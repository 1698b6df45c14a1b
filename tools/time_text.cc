#include "tools/time_text.h"

#include <algorithm>

#include "engine/types/calendar.h"
#include "engine/types/temporal_text.h"

namespace cassette::tools {

Result<int64_t> ParseIsoMicros(std::string_view text) {
  int64_t millis = 0;
  if (!ParseTimestampText(text, &millis) || millis > INT64_MAX / 1000 ||
      millis < INT64_MIN / 1000) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not an ISO-8601 time (e.g. 2024-01-15T00:00:00Z)");
  }
  return millis * 1000;
}

std::string FormatIsoMicros(int64_t micros) {
  std::string text = FormatTimestampJson(FloorDiv(micros, 1000));
  std::replace(text.begin(), text.end(), ' ', 'T');
  const size_t fraction = text.find('.');
  if (fraction != std::string::npos && text.compare(fraction, 4, ".000") == 0) {
    text.erase(fraction, 4);
  }
  return text;
}

Status CheckManualClockMicros(int64_t micros, const std::string& what) {
  constexpr int64_t kLatest = INT64_MAX / 1000;
  constexpr int64_t kEarliest = INT64_MIN / 1000;
  if (micros >= kEarliest && micros <= kLatest) return Status::OK();
  return Status::InvalidRequest(
      what + " " + FormatIsoMicros(micros) + " is outside the manual clock's range (" +
      FormatIsoMicros(kEarliest) + " to " + FormatIsoMicros(kLatest) + ")");
}

}  // namespace cassette::tools
