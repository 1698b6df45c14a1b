// How Cassandra reads the string values of a `compaction = {...}` map, so
// that cassette accepts and rejects exactly the values Cassandra does:
// Integer.parseInt / Long.parseLong (optional sign, ASCII digits, no
// blanks), Float/Double.parseFloat (blanks trimmed, an optional f/d
// suffix, NaN and Infinity spelled as Java spells them), commons-lang's
// StringUtils.isNumeric, and case-insensitive 'true'/'false'.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/util/ascii.h"

namespace cassette {

bool ParseJavaInt(std::string_view s, int32_t* out);
bool ParseJavaLong(std::string_view s, int64_t* out);
// Float.parseFloat and Double.parseDouble accept the same text; the float
// variant rounds the value to float precision.
bool ParseJavaDouble(std::string_view s, double* out);
bool ParseJavaFloat(std::string_view s, double* out);
// Non-empty and every character an ASCII digit (no sign).
bool IsJavaNumeric(std::string_view s);
// "true" or "false", in any case.
bool IsJavaBooleanLiteral(std::string_view s);
// Java's %f: six fractional digits.
std::string FormatJavaPercentF(double v);

// The value of `key` in `options`, or nullopt.
std::optional<std::string> FindOption(const std::map<std::string, std::string>& options,
                                      std::string_view key);

}  // namespace cassette
