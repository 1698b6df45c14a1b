#include "engine/compaction/unified_compaction_options.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "engine/compaction/compaction_option_parsing.h"

namespace cassette {
namespace {

constexpr std::string_view kStrategy = "UnifiedCompactionStrategy";
constexpr int64_t kMinTargetSSTableSize = 1 << 20;
constexpr int kMaxShardShift = 20;
const double kInverseSqrt2 = std::sqrt(0.5);

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

// Java's String.trim: strips every character <= ' ' at both ends.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

// Java's String.split(","): trailing empty pieces are dropped, but an
// empty input still yields one (empty) piece.
std::vector<std::string> JavaSplitComma(std::string_view s) {
  std::vector<std::string> pieces;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    pieces.emplace_back(s.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (s.empty()) return pieces;
  while (!pieces.empty() && pieces.back().empty()) pieces.pop_back();
  return pieces;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Integer.parseInt's complaint about a digit string that overflows an int.
Status NotAnInt(std::string_view digits) {
  return Config("For input string: \"" + std::string(digits) + "\"");
}

// One entry of scaling_parameters: N, L<f>, T<f> or a signed integer w.
Result<int32_t> ParseScalingParameter(std::string_view value) {
  const auto mismatch = [&] {
    return Config("Scaling parameter " + std::string(value) +
                  " must match N|L[0-9]+|T[0-9]+|[+-]?[0-9]+");
  };
  if (value == "N") return 0;
  if (value.size() >= 2 && (value[0] == 'L' || value[0] == 'T')) {
    const std::string_view digits = value.substr(1);
    if (!AllDigits(digits)) return mismatch();
    int32_t f;
    if (!ParseJavaInt(digits, &f)) return NotAnInt(digits);
    if (f < 2) return Config("Fan factor cannot be lower than 2 in " + std::string(value));
    return value[0] == 'L' ? 2 - f : f - 2;
  }
  std::string_view digits = value;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
  if (!AllDigits(digits)) return mismatch();
  int32_t w;
  if (!ParseJavaInt(value, &w)) return NotAnInt(value);
  return w;
}

Result<std::vector<int32_t>> ParseScalingParameters(std::string_view text) {
  std::vector<int32_t> ws;
  for (const std::string& piece : JavaSplitComma(text)) {
    CASSETTE_ASSIGN_OR_RETURN(int32_t w, ParseScalingParameter(JavaTrim(piece)));
    ws.push_back(w);
  }
  // Cassandra accepts "," (no parameter at all) and then fails at its first
  // compaction; cassette rejects it up front with the pattern message.
  if (ws.empty()) {
    return Config("Scaling parameter " + std::string(text) +
                  " must match N|L[0-9]+|T[0-9]+|[+-]?[0-9]+");
  }
  return ws;
}

// Java's (long) of a double: saturating, NaN to 0.
int64_t JavaDoubleToLong(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (v <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

// Java's (int) of a double.
int64_t JavaDoubleToInt(double v) {
  if (std::isnan(v)) return 0;
  return static_cast<int64_t>(std::clamp(v, -2147483648.0, 2147483647.0));
}

// Java's %.3f: the shortest decimal that round-trips the double, rounded
// half up (printf would round the exact binary value half to even).
std::string FormatJavaFixed3(double v) {
  char buf[400];
  const auto result = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
  std::string s(buf, result.ptr);
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.erase(0, 1);
  size_t dot = s.find('.');
  if (dot == std::string::npos) {
    s += '.';
    dot = s.size() - 1;
  }
  std::string digits = s.substr(0, dot) + s.substr(dot + 1);
  const size_t keep = dot + 3;
  const bool round_up = digits.size() > keep && digits[keep] >= '5';
  digits.resize(keep, '0');
  if (round_up) {
    size_t i = keep;
    while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
    if (i == 0) {
      digits.insert(digits.begin(), '1');
    } else {
      ++digits[i - 1];
    }
  }
  const size_t new_int_len = digits.size() - 3;
  return (negative ? "-" : "") + digits.substr(0, new_int_len) + "." + digits.substr(new_int_len);
}

bool IsJavaWhitespace(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

// Length of the regex match NaN|[+-]?Infinity|[+-]?\d+(\.\d+)?([eE][+-]?\d+)?
// at the start of `s` (0 if none); *has_exponent tells whether the decimal
// exponent group matched.
size_t MatchBaseNumber(std::string_view s, bool* has_exponent) {
  *has_exponent = false;
  if (s.substr(0, 3) == "NaN") return 3;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (s.substr(i, 8) == "Infinity") return i + 8;
  const size_t digits_start = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == digits_start) return 0;
  if (i + 1 < s.size() && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
    i += 2;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    const size_t exp_digits = j;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j > exp_digits) {
      i = j;
      *has_exponent = true;
    }
  }
  return i;
}

// A size option: the value in bytes, or Cassandra's messages for an
// unparsable or too small one.
Result<int64_t> ParseSizeOption(std::string_view key, const std::string& value, int64_t min) {
  int64_t bytes;
  std::string error;
  if (!ParseHumanReadableBytes(value, &bytes, &error)) {
    return Config(std::string(key) + " " + value + " is not a valid size in bytes: " + error);
  }
  if (bytes < min) {
    return Config(std::string(key) + " " + value + " is not acceptable, size must be at least " +
                  PrettyPrintMemory(min));
  }
  return bytes;
}

// FBUtilities.parsePercent: "0.5" or "50%".
bool ParsePercent(std::string_view text, double* out, std::string* error) {
  std::string_view s = JavaTrim(text);
  const bool percent = !s.empty() && s.back() == '%';
  if (percent) s = JavaTrim(s.substr(0, s.size() - 1));
  if (!ParseJavaDouble(s, out)) {
    *error = s.empty() ? "empty String" : "For input string: \"" + std::string(s) + "\"";
    return false;
  }
  if (percent) *out /= 100.0;
  return true;
}

}  // namespace

int32_t UnifiedCompactionOptions::ScalingParameter(size_t index) const {
  return index < scaling_parameters.size() ? scaling_parameters[index] : scaling_parameters.back();
}

int64_t UnifiedFanout(int32_t w) { return 2 + std::abs(static_cast<int64_t>(w)); }

int64_t UnifiedThreshold(int32_t w) { return w <= 0 ? 2 : 2 + static_cast<int64_t>(w); }

int32_t UnifiedShardCount(const UnifiedCompactionOptions& options, double density) {
  const int64_t base = options.base_shard_count;
  const auto clamp_int = [](int64_t v) {
    return static_cast<int32_t>(std::min<int64_t>(v, std::numeric_limits<int32_t>::max()));
  };
  if (options.min_sstable_size > 0) {
    const double count = density / static_cast<double>(options.min_sstable_size);
    if (count < static_cast<double>(base)) {
      // Round down to a power of two (so shards stay above the minimum),
      // and only to divisors of the base count so boundaries line up.
      const uint64_t whole = static_cast<uint64_t>(JavaDoubleToInt(count)) | 1;
      const int64_t lowest_base_bit = base & -base;
      return clamp_int(
          std::min<int64_t>(static_cast<int64_t>(std::bit_floor(whole)), lowest_base_bit));
    }
  }
  const double growth = options.sstable_growth;
  const double target = static_cast<double>(options.target_sstable_size);
  if (growth == 1) return clamp_int(base);
  if (growth == 0) {
    // sqrt(0.5) compensates the rounding down of the power of two, so that
    // shards land between target/sqrt(2) and target*sqrt(2).
    double count = density / (target * kInverseSqrt2 * static_cast<double>(base));
    count = std::min(count, std::ldexp(1.0, kMaxShardShift));
    const uint64_t whole = static_cast<uint64_t>(std::max<int64_t>(0, JavaDoubleToInt(count))) | 1;
    return clamp_int(base * static_cast<int64_t>(std::bit_floor(whole)));
  }
  const double count = density / (target * static_cast<double>(base));
  const double pow = std::log(count) / std::log(2.0) * (1 - growth) + 0.5;
  if (pow >= kMaxShardShift) return clamp_int(base << kMaxShardShift);
  if (pow >= 0) return clamp_int(base << static_cast<int>(pow));
  return clamp_int(base);  // also when pow is NaN
}

bool ParseHumanReadableBytes(std::string_view text, int64_t* out, std::string* error) {
  const std::string datum(text);
  if (text.empty() || text.back() != 'B') {
    *error = datum + " does not end in unit B";
    return false;
  }
  const std::string_view body = text.substr(0, text.size() - 1);
  bool has_exponent;
  size_t pos = MatchBaseNumber(body, &has_exponent);
  if (pos == 0) {
    *error = "null";
    return false;
  }
  double v;
  {
    const std::string number(body.substr(0, pos));
    if (!ParseJavaDouble(number, &v)) {
      *error = "For input string: \"" + number + "\"";
      return false;
    }
  }
  if (!has_exponent && body.substr(pos, 3) == "*2^") {
    size_t j = pos + 3;
    const size_t sign = j;
    if (j < body.size() && (body[j] == '+' || body[j] == '-')) ++j;
    const size_t digits = j;
    while (j < body.size() && body[j] >= '0' && body[j] <= '9') ++j;
    if (j > digits) {
      int32_t power;
      if (!ParseJavaInt(body.substr(sign, j - sign), &power)) {
        *error = "For input string: \"" + std::string(body.substr(sign, j - sign)) + "\"";
        return false;
      }
      v = std::ldexp(v, power);
      pos = j;
    }
  }
  while (pos < body.size() && IsJavaWhitespace(body[pos])) ++pos;
  if (pos < body.size()) {
    static constexpr std::string_view kPrefixes = "qryzafpnum KMGTPEZYRQ";
    static constexpr int kPrefixBase = 10;  // the index of ' '
    const size_t index = kPrefixes.find(body[pos]);
    if (index != std::string_view::npos) {
      const int prefix = static_cast<int>(index) - kPrefixBase;
      ++pos;
      if (pos < body.size() && body[pos] == 'i') {
        ++pos;
        v = std::ldexp(v, prefix * 10);
      } else {
        v *= std::exp(std::log(1000.0) * prefix);
      }
    }
  }
  if (pos != body.size()) {
    *error = "Unexpected characters between pos " + std::to_string(pos) + " and " +
             std::to_string(body.size()) + " in " + datum;
    return false;
  }
  *out = JavaDoubleToLong(v);
  return true;
}

std::string PrettyPrintMemory(int64_t size) {
  const uint64_t magnitude =
      size < 0 ? uint64_t{0} - static_cast<uint64_t>(size) : static_cast<uint64_t>(size);
  const int prefix = magnitude == 0 ? 0 : (63 - std::countl_zero(magnitude)) / 10;
  if (prefix == 0) return std::to_string(size) + "B";
  static constexpr std::string_view kPrefixes = " KMGTPE";
  return FormatJavaFixed3(std::ldexp(static_cast<double>(size), -prefix * 10)) +
         kPrefixes[static_cast<size_t>(prefix)] + "iB";
}

Result<UnifiedCompactionOptions> ParseUnifiedCompactionOptions(
    const std::map<std::string, std::string>& options) {
  UnifiedCompactionOptions out;
  std::set<std::string> unconsumed;
  for (const auto& [key, value] : options) unconsumed.insert(key);
  unconsumed.erase("class");
  CASSETTE_ASSIGN_OR_RETURN(out.common, ParseCompactionCommonOptions(options, &unconsumed));

  const auto take = [&](std::string_view key) {
    unconsumed.erase(std::string(key));
    return FindOption(options, key);
  };

  if (std::optional<std::string> v = take("scaling_parameters")) {
    CASSETTE_ASSIGN_OR_RETURN(out.scaling_parameters, ParseScalingParameters(*v));
  }
  if (std::optional<std::string> v = take("base_shard_count")) {
    if (!ParseJavaInt(*v, &out.base_shard_count)) {
      return Config(*v + " is not a parsable int (base10) for base_shard_count");
    }
    if (out.base_shard_count <= 0) {
      return Config("Invalid configuration, base_shard_count should be positive: " +
                    std::to_string(out.base_shard_count));
    }
  }
  if (std::optional<std::string> v = take("target_sstable_size")) {
    CASSETTE_ASSIGN_OR_RETURN(int64_t size,
                              ParseSizeOption("target_sstable_size", *v, kMinTargetSSTableSize));
    out.target_sstable_size = static_cast<uint64_t>(size);
  }
  if (std::optional<std::string> v = take("flush_size_override")) {
    CASSETTE_ASSIGN_OR_RETURN(int64_t size,
                              ParseSizeOption("flush_size_override", *v, kMinTargetSSTableSize));
    out.flush_size_override = static_cast<uint64_t>(size);
  }
  if (std::optional<std::string> v = take("max_sstables_to_compact")) {
    if (!ParseJavaInt(*v, &out.max_sstables_to_compact)) {
      return Config(*v + " is not a parsable int (base10) for max_sstables_to_compact");
    }
  }
  if (std::optional<std::string> v = take("expired_sstable_check_frequency_seconds")) {
    if (!ParseJavaLong(*v, &out.expired_sstable_check_frequency_seconds)) {
      return Config(*v +
                    " is not a parsable long (base10) for expired_sstable_check_frequency_seconds");
    }
    if (out.expired_sstable_check_frequency_seconds <= 0) {
      return Config(
          "Invalid configuration, expired_sstable_check_frequency_seconds should be positive: " +
          std::to_string(out.expired_sstable_check_frequency_seconds));
    }
  }
  if (std::optional<std::string> v = take("unsafe_aggressive_sstable_expiration")) {
    if (!IsJavaBooleanLiteral(*v)) {
      return Config(
          "unsafe_aggressive_sstable_expiration should either be 'true' or 'false', not " + *v);
    }
    out.unsafe_aggressive_sstable_expiration = EqualsIgnoreCase(*v, "true");
  }
  if (std::optional<std::string> v = take("overlap_inclusion_method")) {
    if (EqualsIgnoreCase(*v, "NONE")) {
      out.overlap_inclusion_method = OverlapInclusionMethod::kNone;
    } else if (EqualsIgnoreCase(*v, "SINGLE")) {
      out.overlap_inclusion_method = OverlapInclusionMethod::kSingle;
    } else if (EqualsIgnoreCase(*v, "TRANSITIVE")) {
      out.overlap_inclusion_method = OverlapInclusionMethod::kTransitive;
    } else {
      return Config("Invalid overlap inclusion method " + *v +
                    ". The valid options are [NONE, SINGLE, TRANSITIVE].");
    }
  }
  if (std::optional<std::string> v = take("min_sstable_size")) {
    int64_t size;
    std::string error;
    if (!ParseHumanReadableBytes(*v, &size, &error)) {
      return Config(*v + " is not a valid size in bytes for min_sstable_size");
    }
    if (size < 0) {
      return Config(
          "Invalid configuration, min_sstable_size should be greater than or equal to 0 (zero)");
    }
    // The smallest SSTable the target size aims for; Cassandra keeps it in
    // an int.
    const int64_t limit =
        JavaDoubleToInt(std::ceil(static_cast<double>(out.target_sstable_size) * kInverseSqrt2));
    if (size >= limit) {
      return Config("Invalid configuration, min_sstable_size (" + PrettyPrintMemory(size) +
                    ") should be less than the target size minimum: " + PrettyPrintMemory(limit));
    }
    out.min_sstable_size = static_cast<uint64_t>(size);
  }
  if (std::optional<std::string> v = take("sstable_growth")) {
    double growth;
    std::string error;
    if (!ParsePercent(*v, &growth, &error)) {
      return Config("sstable_growth is not a valid number between 0 and 1: " + error);
    }
    // NaN passes Cassandra's range check; it then means the base count.
    if (growth < 0 || growth > 1)
      return Config("sstable_growth " + *v + " must be between 0 and 1");
    out.sstable_growth = growth;
  }
  CASSETTE_RETURN_IF_ERROR(RejectUnknownCompactionOptions(unconsumed, kStrategy));
  return out;
}

}  // namespace cassette
