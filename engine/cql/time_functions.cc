#include "engine/cql/time_functions.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <random>

#include "engine/types/calendar.h"

namespace cassette::cql {
namespace {

constexpr int64_t kMillisPerDay = 86400LL * 1000;
constexpr int64_t kNanosPerMilli = 1000 * 1000;

UuidBytes TimeuuidFromTicks(int64_t ticks, uint64_t clock_seq_and_node) {
  const uint64_t t = static_cast<uint64_t>(ticks);
  const uint64_t msb = (t << 32) | ((t >> 16) & 0xFFFF0000ULL) | 0x1000 | ((t >> 48) & 0x0FFF);
  UuidBytes out;
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(msb >> (56 - 8 * i));
    out[8 + i] = static_cast<uint8_t>(clock_seq_and_node >> (56 - 8 * i));
  }
  return out;
}

// Days since the epoch and the milliseconds into the day. Truncation then
// a correction: FloorDiv's days * kMillisPerDay overflows for the
// earliest milliseconds.
void SplitMillis(int64_t millis, int64_t* days, int64_t* time_of_day) {
  *days = millis / kMillisPerDay;
  *time_of_day = millis % kMillisPerDay;
  if (*time_of_day < 0) {
    *time_of_day += kMillisPerDay;
    --*days;
  }
}

std::mt19937_64& Generator() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return generator;
}

}  // namespace

UuidBytes NextTimeuuid(int64_t now_micros) {
  // Timeuuids compare their low 8 bytes as signed bytes. Byte 8 stays 0x80
  // (the RFC 4122 variant, and the least such byte); the counter's bytes
  // are stored with their top bit flipped so signed order is counter order.
  static std::atomic<uint64_t> counter{1};
  const uint64_t n = counter.fetch_add(1, std::memory_order_relaxed) & 0x00FFFFFFFFFFFFFFULL;
  const uint64_t low = 0x8000000000000000ULL | (n ^ 0x0080808080808080ULL);
  return TimeuuidFromTicks(now_micros * 10 + kUuidEpochOffsetTicks, low);
}

Result<UuidBytes> TimeuuidAt(int64_t now_micros) {
  // The largest tick count the 60 bits hold, as Unix microseconds.
  constexpr int64_t kMaxMicros = ((int64_t{1} << 60) - 1 - kUuidEpochOffsetTicks) / 10;
  constexpr int64_t kMinMicros = -kUuidEpochOffsetTicks / 10;
  if (now_micros > kMaxMicros || now_micros < kMinMicros) {
    return Status::InvalidRequest(
        "Cannot make a timeuuid at " + InstantText(FloorDiv(now_micros, 1000)) +
        ": a timeuuid holds times from 1582-10-15T00:00:00Z to " + InstantText(kMaxMicros / 1000));
  }
  return NextTimeuuid(now_micros);
}

// Ticks in unsigned arithmetic: a millisecond far from now wraps as Java's
// long arithmetic does in TimeUUID, where signed overflow would be
// undefined here.
UuidBytes MinTimeuuid(int64_t millis) {
  const uint64_t ticks = static_cast<uint64_t>(millis) * 10000 + kUuidEpochOffsetTicks;
  return TimeuuidFromTicks(static_cast<int64_t>(ticks), 0x8080808080808080ULL);
}

UuidBytes MaxTimeuuid(int64_t millis) {
  const uint64_t ticks = (static_cast<uint64_t>(millis) + 1) * 10000 + kUuidEpochOffsetTicks - 1;
  return TimeuuidFromTicks(static_cast<int64_t>(ticks), 0x7F7F7F7F7F7F7F7FULL);
}

Result<int32_t> DateOfMillis(int64_t millis) {
  constexpr int64_t kMaxMillis = int64_t{INT32_MAX} * kMillisPerDay;
  constexpr int64_t kMinMillis = int64_t{INT32_MIN} * kMillisPerDay;
  if (millis > kMaxMillis) {
    return Status::InvalidRequest("Input date " + InstantText(millis) +
                                  " is greater than max supported date 5881580-07-11");
  }
  if (millis < kMinMillis) {
    return Status::InvalidRequest("Input date " + InstantText(millis) +
                                  " is less than min supported date -5877641-06-23");
  }
  return static_cast<int32_t>(FloorDiv(millis, kMillisPerDay));
}

std::string InstantText(int64_t millis) {
  int64_t days, ms;
  SplitMillis(millis, &days, &ms);
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  // Room for every field at its widest type: g++ at -O0 cannot see that
  // the hours, minutes and seconds are two digits, and warns.
  char buffer[128];
  const char* sign = y > 9999 ? "+" : "";
  const int64_t h = ms / 3600000;
  ms %= 3600000;
  const int64_t min = ms / 60000;
  ms %= 60000;
  const int64_t sec = ms / 1000;
  ms %= 1000;
  // Instant.toString pads the year to four digits (a minus sign apart).
  std::snprintf(buffer, sizeof(buffer), "%s%s%04lld-%02u-%02uT%02lld:%02lld:%02lld", sign,
                y < 0 ? "-" : "", static_cast<long long>(y < 0 ? -y : y), m, d,
                static_cast<long long>(h), static_cast<long long>(min),
                static_cast<long long>(sec));
  std::string text = buffer;
  if (ms != 0) {
    std::snprintf(buffer, sizeof(buffer), ".%03lld", static_cast<long long>(ms));
    text += buffer;
  }
  return text + "Z";
}

int64_t TimeuuidMillis(const UuidBytes& uuid) {
  uint64_t msb = 0;
  for (int i = 0; i < 8; ++i) msb = (msb << 8) | uuid[i];
  const uint64_t ticks = ((msb & 0x0FFF) << 48) | (((msb >> 16) & 0xFFFF) << 32) | (msb >> 32);
  return FloorDiv(static_cast<int64_t>(ticks) - kUuidEpochOffsetTicks, 10000);
}

UuidBytes RandomUuid() {
  UuidBytes out;
  const uint64_t hi = Generator()(), lo = Generator()();
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
    out[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
  }
  out[6] = static_cast<uint8_t>((out[6] & 0x0F) | 0x40);  // version 4
  out[8] = static_cast<uint8_t>((out[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return out;
}

std::optional<int64_t> AddMonthsChecked(int64_t millis, int64_t months) {
  int64_t days, time_of_day;
  SplitMillis(millis, &days, &time_of_day);
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  const int64_t month_index = y * 12 + (m - 1) + months;
  const int64_t new_year = FloorDiv(month_index, 12);
  const unsigned new_month = static_cast<unsigned>(FloorMod(month_index, 12)) + 1;
  const unsigned new_day = std::min(d, DaysInMonth(new_year, new_month));
  int64_t result;
  if (__builtin_mul_overflow(DaysFromCivil(new_year, new_month, new_day), kMillisPerDay, &result) ||
      __builtin_add_overflow(result, time_of_day, &result)) {
    return std::nullopt;
  }
  return result;
}

int64_t AddMonths(int64_t millis, int64_t months) {
  const int64_t days = FloorDiv(millis, kMillisPerDay);
  const int64_t time_of_day = millis - days * kMillisPerDay;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  const int64_t month_index = y * 12 + (m - 1) + months;
  const int64_t new_year = FloorDiv(month_index, 12);
  const unsigned new_month = static_cast<unsigned>(FloorMod(month_index, 12)) + 1;
  const unsigned new_day = std::min(d, DaysInMonth(new_year, new_month));
  return DaysFromCivil(new_year, new_month, new_day) * kMillisPerDay + time_of_day;
}

Result<int64_t> FloorTimestamp(int64_t millis, const CqlDuration& duration, int64_t start_millis) {
  if (start_millis > millis) {
    return Status::InvalidRequest(
        "The floor function starting time is greater than the provided time");
  }
  if (duration.months < 0 || duration.days < 0 || duration.nanos < 0) {
    return Status::InvalidRequest("Negative durations are not supported by the floor function");
  }
  const int64_t duration_millis = duration.days * kMillisPerDay + duration.nanos / kNanosPerMilli;
  if (duration.months == 0) {
    if (duration_millis == 0) return millis;
    // The span in unsigned arithmetic: from a start far in the past it may
    // not fit an int64_t, and the floor lies between start and time.
    const uint64_t span = static_cast<uint64_t>(millis) - static_cast<uint64_t>(start_millis);
    return static_cast<int64_t>(static_cast<uint64_t>(millis) -
                                span % static_cast<uint64_t>(duration_millis));
  }
  // Estimate the multiplier from the months between start and time, then
  // step back while the days and nanoseconds overshoot.
  int64_t y, start_y;
  unsigned m, d, start_m, start_d;
  CivilFromDays(FloorDiv(millis, kMillisPerDay), &y, &m, &d);
  CivilFromDays(FloorDiv(start_millis, kMillisPerDay), &start_y, &start_m, &start_d);
  const int64_t months_between =
      (y - start_y) * 12 + (static_cast<int64_t>(m) - static_cast<int64_t>(start_m));
  int64_t multiplier = months_between / duration.months;
  int64_t floor_months = multiplier * duration.months;
  if (duration.days == 0 && duration.nanos == 0) return AddMonths(start_millis, floor_months);
  int64_t floor = AddMonths(start_millis, floor_months) + multiplier * duration_millis;
  while (floor > millis) {
    --multiplier;
    floor_months -= duration.months;
    floor = AddMonths(start_millis, floor_months) + multiplier * duration_millis;
  }
  return std::max(start_millis, floor);
}

Result<int64_t> FloorTime(int64_t nanos, const CqlDuration& duration) {
  if (duration.months < 0 || duration.days < 0 || duration.nanos < 0) {
    return Status::InvalidRequest("Negative durations are not supported by the floor function");
  }
  if (duration.months != 0 || duration.days != 0 || duration.nanos > 24 * 3600 * 1000000000LL) {
    return Status::InvalidRequest(
        "For time values, the floor can only be computed for durations smaller that a day");
  }
  if (duration.nanos == 0) return nanos;
  return nanos - nanos % duration.nanos;
}

}  // namespace cassette::cql
