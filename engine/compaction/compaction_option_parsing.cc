#include "engine/compaction/compaction_option_parsing.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace cassette {
namespace {

bool ParseJavaInteger(std::string_view s, int64_t min, int64_t max, int64_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return false;
  // Accumulate negatively so that the minimum value parses without overflow.
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    const int digit = s[i] - '0';
    if (v < (std::numeric_limits<int64_t>::min() + digit) / 10) return false;
    v = v * 10 - digit;
  }
  if (!negative) {
    if (v == std::numeric_limits<int64_t>::min()) return false;
    v = -v;
  }
  if (v < min || v > max) return false;
  *out = v;
  return true;
}

bool IsDigits(std::string_view s, size_t* i) {
  const size_t start = *i;
  while (*i < s.size() && s[*i] >= '0' && s[*i] <= '9') ++*i;
  return *i > start;
}

}  // namespace

bool ParseJavaInt(std::string_view s, int32_t* out) {
  int64_t v;
  if (!ParseJavaInteger(s, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                        &v)) {
    return false;
  }
  *out = static_cast<int32_t>(v);
  return true;
}

bool ParseJavaLong(std::string_view s, int64_t* out) {
  return ParseJavaInteger(s, std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max(), out);
}

bool ParseJavaDouble(std::string_view s, double* out) {
  // Java trims every character <= ' ' before parsing.
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  const std::string_view rest = s.substr(i);
  if (rest == "NaN") {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (rest == "Infinity") {
    *out = negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
    return true;
  }
  // digits [. digits] | . digits, then an optional exponent and suffix.
  const size_t number_start = i;
  const bool int_digits = IsDigits(s, &i);
  bool frac_digits = false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    frac_digits = IsDigits(s, &i);
  }
  if (!int_digits && !frac_digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!IsDigits(s, &i)) return false;
  }
  const size_t number_end = i;
  if (i < s.size() && (s[i] == 'f' || s[i] == 'F' || s[i] == 'd' || s[i] == 'D')) ++i;
  if (i != s.size()) return false;
  const std::string text(s.substr(number_start, number_end - number_start));
  const double v = std::strtod(text.c_str(), nullptr);  // overflow gives inf, as in Java
  *out = negative ? -v : v;
  return true;
}

bool ParseJavaFloat(std::string_view s, double* out) {
  double v;
  if (!ParseJavaDouble(s, &v)) return false;
  *out = static_cast<double>(static_cast<float>(v));
  return true;
}

bool IsJavaNumeric(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsJavaBooleanLiteral(std::string_view s) {
  return EqualsIgnoreCase(s, "true") || EqualsIgnoreCase(s, "false");
}

std::string FormatJavaPercentF(double v) {
  if (v != v) return "NaN";
  if (v == std::numeric_limits<double>::infinity()) return "Infinity";
  if (v == -std::numeric_limits<double>::infinity()) return "-Infinity";
  char buf[400];
  std::snprintf(buf, sizeof(buf), "%.6f", v);
  return buf;
}

std::optional<std::string> FindOption(const std::map<std::string, std::string>& options,
                                      std::string_view key) {
  auto it = options.find(std::string(key));
  if (it == options.end()) return std::nullopt;
  return it->second;
}

}  // namespace cassette
