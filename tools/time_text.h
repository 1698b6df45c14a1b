// ISO-8601 instants as the shell reads them (--clock manual:<time>, CLOCK
// SET) and prints them (stats windows, expiry times).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette::tools {

// Any timestamp literal CQL accepts ("2024-01-15T00:00:00Z",
// "2024-01-15 10:15:00+0000", "2024-01-15"), to microseconds since the
// epoch. InvalidArgument names the text when it is not one.
Result<int64_t> ParseIsoMicros(std::string_view text);

// "2024-01-15T10:15:00Z" (milliseconds shown only when not zero), the form
// the database uses for window starts.
std::string FormatIsoMicros(int64_t micros);

// A manual clock counts monotonic time in int64 nanoseconds (its wall
// microseconds x 1000): past these bounds (2262-04-11 and 1677-09-21) that
// product would overflow, so the shell refuses to set its clock there.
// `what` names the request ("--clock", "CLOCK SET", ...) in the message.
Status CheckManualClockMicros(int64_t micros, const std::string& what);

}  // namespace cassette::tools
