// Text forms of the CQL temporal types: the literal syntaxes Cassandra
// accepts for timestamp, date and time, and the renderings cqlsh and
// SELECT JSON print. All times are UTC.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cassette {

constexpr int64_t kNanosPerDay = 86400LL * 1000 * 1000 * 1000;

// "yyyy-mm-dd" (the year may carry a sign), optionally followed by ' ' or 'T' and
// "HH:MM[:SS[.f{1,9}]]", optionally followed by a zone ("Z", "UTC", "GMT", "+hh", "+hhmm",
// "+hh:mm", with an optional space before it). A missing zone means UTC. Fractions beyond
// milliseconds are truncated. False when the text does not match or the instant does not fit int64
// milliseconds.
bool ParseTimestampText(std::string_view text, int64_t* millis_since_epoch);

// "[-]yyyy-mm-dd" to days since the epoch. False on a malformed or impossible date.
bool ParseDateText(std::string_view text, int64_t* days_since_epoch);

// "HH:MM:SS[.f{1,9}]" to nanoseconds since midnight. False on mismatch.
bool ParseTimeText(std::string_view text, int64_t* nanos);

// "2024-01-15 10:15:00.000000+0000" (cqlsh); the millisecond count itself
// when the year is outside 1..9999, as cqlsh falls back to.
std::string FormatTimestampCqlsh(int64_t millis);
// "2024-01-15 10:15:00.000Z" (SELECT JSON).
std::string FormatTimestampJson(int64_t millis);
// "2024-01-15"; cqlsh prints the day number when the year is outside 1..9999.
std::string FormatDateCqlsh(int64_t days_since_epoch);
std::string FormatDateIso(int64_t days_since_epoch);
// "10:15:00.000000000". REQUIRES: 0 <= nanos < kNanosPerDay.
std::string FormatTime(int64_t nanos);

}  // namespace cassette
