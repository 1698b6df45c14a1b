#include "engine/types/cql_duration.h"

#include <cctype>
#include <climits>

#include "engine/util/coding.h"

namespace cassette {

void PutCassandraVint(std::string* out, uint64_t v) {
  int bits = 64 - __builtin_clzll(v | 1);
  int size = bits > 56 ? 9 : (bits - 1) / 7 + 1;
  if (size == 1) {
    out->push_back(static_cast<char>(v));
    return;
  }
  int extra = size - 1;
  char buf[9];
  if (size == 9) {
    buf[0] = static_cast<char>(0xFF);
    for (int i = 0; i < 8; ++i) buf[1 + i] = static_cast<char>(v >> (8 * (7 - i)));
  } else {
    for (int i = 0; i < size; ++i) buf[i] = static_cast<char>(v >> (8 * (size - 1 - i)));
    buf[0] = static_cast<char>(static_cast<uint8_t>(buf[0]) | (~(0xFFu >> extra) & 0xFF));
  }
  out->append(buf, size);
}

bool GetCassandraVint(std::string_view* in, uint64_t* v) {
  if (in->empty()) return false;
  uint8_t first = static_cast<uint8_t>((*in)[0]);
  // The number of leading one bits is the number of extra bytes.
  int extra = first == 0xFF ? 8 : __builtin_clz(static_cast<unsigned>(~first) & 0xFF) - 24;
  if (in->size() < static_cast<size_t>(1 + extra)) return false;
  uint64_t r = extra == 8 ? 0 : (first & (0xFFu >> extra));
  for (int i = 1; i <= extra; ++i) r = (r << 8) | static_cast<uint8_t>((*in)[i]);
  in->remove_prefix(1 + extra);
  *v = r;
  return true;
}

std::string SerializeDuration(int32_t months, int32_t days, int64_t nanos) {
  std::string out;
  PutCassandraVint(&out, ZigZagEncode(months));
  PutCassandraVint(&out, ZigZagEncode(days));
  PutCassandraVint(&out, ZigZagEncode(nanos));
  return out;
}

Status DeserializeDuration(std::string_view bytes, CqlDuration* out) {
  if (bytes.size() < 3) {
    return Status::InvalidRequest("Expected at least 3 bytes for a duration (" +
                                  std::to_string(bytes.size()) + ")");
  }
  uint64_t m, d, n;
  std::string_view in = bytes;
  if (!GetCassandraVint(&in, &m) || !GetCassandraVint(&in, &d) || !GetCassandraVint(&in, &n)) {
    return Status::InvalidRequest("Invalid duration: truncated value");
  }
  if (!in.empty()) return Status::InvalidRequest("Invalid duration: unexpected trailing bytes");
  int64_t months = ZigZagDecode(m), days = ZigZagDecode(d), nanos = ZigZagDecode(n);
  if (months < INT32_MIN || months > INT32_MAX) {
    return Status::InvalidRequest("The duration months must be a 32 bits integer but was: " +
                                  std::to_string(months));
  }
  if (days < INT32_MIN || days > INT32_MAX) {
    return Status::InvalidRequest("The duration days must be a 32 bits integer but was: " +
                                  std::to_string(days));
  }
  if (!((months >= 0 && days >= 0 && nanos >= 0) || (months <= 0 && days <= 0 && nanos <= 0))) {
    return Status::InvalidRequest(
        "The duration months, days and nanoseconds must be all of the same sign (" +
        std::to_string(months) + ", " + std::to_string(days) + ", " + std::to_string(nanos) + ")");
  }
  *out = CqlDuration{months, days, nanos};
  return Status::OK();
}

namespace {

constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerMilli = 1000 * kNanosPerMicro;
constexpr int64_t kNanosPerSecond = 1000 * kNanosPerMilli;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;

// Units in the order a literal must list them.
enum Unit { kYears, kMonths, kWeeks, kDays, kHours, kMinutes, kSeconds, kMillis, kMicros, kNanos };
constexpr const char* kUnitNames[] = {"years",        "months",     "weeks",   "days",
                                      "hours",        "minutes",    "seconds", "milliseconds",
                                      "microseconds", "nanoseconds"};

// Accumulates components with Cassandra's overflow and ordering rules.
class DurationBuilder {
 public:
  Status Add(Unit unit, __int128 amount) {
    if (last_ >= 0 && unit == last_) {
      return Status::InvalidRequest(std::string("Invalid duration. The ") + kUnitNames[unit] +
                                    " are specified multiple times");
    }
    if (last_ >= 0 && unit < last_) {
      // Cassandra names the earlier-written unit first: "12s3m" gives "The
      // seconds should be after minutes" (DurationTest.testInvalidDurations).
      return Status::InvalidRequest(std::string("Invalid duration. The ") + kUnitNames[last_] +
                                    " should be after " + kUnitNames[unit]);
    }
    last_ = unit;
    switch (unit) {
      case kYears:
        months_ += amount * 12;
        break;
      case kMonths:
        months_ += amount;
        break;
      case kWeeks:
        days_ += amount * 7;
        break;
      case kDays:
        days_ += amount;
        break;
      case kHours:
        nanos_ += amount * kNanosPerHour;
        break;
      case kMinutes:
        nanos_ += amount * kNanosPerMinute;
        break;
      case kSeconds:
        nanos_ += amount * kNanosPerSecond;
        break;
      case kMillis:
        nanos_ += amount * kNanosPerMilli;
        break;
      case kMicros:
        nanos_ += amount * kNanosPerMicro;
        break;
      case kNanos:
        nanos_ += amount;
        break;
    }
    if (months_ > INT32_MAX) {
      return Status::InvalidRequest(
          "Invalid duration. The total number of months must be less or equal to 2147483647");
    }
    if (days_ > INT32_MAX) {
      return Status::InvalidRequest(
          "Invalid duration. The total number of days must be less or equal to 2147483647");
    }
    if (nanos_ > INT64_MAX) {
      return Status::InvalidRequest(
          "Invalid duration. The total number of nanoseconds must be less or equal to "
          "9223372036854775807");
    }
    return Status::OK();
  }
  CqlDuration Build(bool negative) const {
    int64_t sign = negative ? -1 : 1;
    return CqlDuration{sign * static_cast<int64_t>(months_), sign * static_cast<int64_t>(days_),
                       sign * static_cast<int64_t>(nanos_)};
  }

 private:
  int last_ = -1;
  __int128 months_ = 0, days_ = 0, nanos_ = 0;
};

// Reads digits; false when there are none. Amounts beyond 2^64 saturate
// so the builder's range checks reject them.
bool ReadAmount(std::string_view* s, __int128* amount) {
  size_t n = 0;
  __int128 v = 0;
  while (n < s->size() && (*s)[n] >= '0' && (*s)[n] <= '9') {
    if (v < (static_cast<__int128>(1) << 70)) v = v * 10 + ((*s)[n] - '0');
    ++n;
  }
  if (n == 0) return false;
  s->remove_prefix(n);
  *amount = v;
  return true;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    // Compared as unsigned bytes: the UTF-8 bytes of µ are negative as char.
    if (std::tolower(static_cast<unsigned char>(s[i])) != static_cast<unsigned char>(prefix[i])) {
      return false;
    }
  }
  return true;
}

// Longest unit spelling first: "ms" and "mo" before "m".
bool ReadStandardUnit(std::string_view* s, Unit* unit) {
  static constexpr struct {
    const char* text;
    Unit unit;
  } kUnits[] = {{"mo", kMonths},        {"ms", kMillis}, {"us", kMicros}, {"\xc2\xb5s", kMicros},
                {"\xce\xbcs", kMicros}, {"ns", kNanos},  {"y", kYears},   {"w", kWeeks},
                {"d", kDays},           {"h", kHours},   {"m", kMinutes}, {"s", kSeconds}};
  for (const auto& u : kUnits) {
    std::string_view t = u.text;
    if (StartsWithNoCase(*s, t)) {
      s->remove_prefix(t.size());
      *unit = u.unit;
      return true;
    }
  }
  return false;
}

Status ConvertError(std::string_view text) {
  return Status::InvalidRequest("Unable to convert '" + std::string(text) + "' to a duration");
}

}  // namespace

Result<CqlDuration> ParseDurationText(std::string_view text) {
  std::string_view s = text;
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  DurationBuilder b;
  __int128 amount;
  if (!s.empty() && s[0] == 'P') {
    s.remove_prefix(1);
    if (!s.empty() && s.back() == 'W') {  // PnW
      std::string_view w = s.substr(0, s.size() - 1);
      if (!ReadAmount(&w, &amount) || !w.empty()) return ConvertError(text);
      CASSETTE_RETURN_IF_ERROR(b.Add(kWeeks, amount));
      return b.Build(negative);
    }
    if (s.find('-') != std::string_view::npos) {  // PYYYY-MM-DDThh:mm:ss
      static constexpr struct {
        size_t width;
        char after;
        Unit unit;
      } kFields[] = {{4, '-', kYears}, {2, '-', kMonths},  {2, 'T', kDays},
                     {2, ':', kHours}, {2, ':', kMinutes}, {2, '\0', kSeconds}};
      for (const auto& f : kFields) {
        std::string_view digits = s.substr(0, f.width);
        if (digits.size() != f.width || !ReadAmount(&digits, &amount) || !digits.empty()) {
          return ConvertError(text);
        }
        s.remove_prefix(f.width);
        if (f.after != '\0') {
          if (s.empty() || s[0] != f.after) return ConvertError(text);
          s.remove_prefix(1);
        }
        CASSETTE_RETURN_IF_ERROR(b.Add(f.unit, amount));
      }
      if (!s.empty()) return ConvertError(text);
      return b.Build(negative);
    }
    // P[nY][nM][nD][T[nH][nM][nS]]
    bool in_time = false, any = false;
    while (!s.empty()) {
      if (s[0] == 'T' && !in_time) {
        in_time = true;
        s.remove_prefix(1);
        if (s.empty()) return ConvertError(text);
        continue;
      }
      if (!ReadAmount(&s, &amount) || s.empty()) return ConvertError(text);
      char designator = s[0];
      s.remove_prefix(1);
      Unit unit;
      if (!in_time && designator == 'Y') {
        unit = kYears;
      } else if (!in_time && designator == 'M') {
        unit = kMonths;
      } else if (!in_time && designator == 'D') {
        unit = kDays;
      } else if (in_time && designator == 'H') {
        unit = kHours;
      } else if (in_time && designator == 'M') {
        unit = kMinutes;
      } else if (in_time && designator == 'S') {
        unit = kSeconds;
      } else {
        return ConvertError(text);
      }
      CASSETTE_RETURN_IF_ERROR(b.Add(unit, amount));
      any = true;
    }
    if (!any) return ConvertError(text);
    return b.Build(negative);
  }
  if (s.empty()) return ConvertError(text);
  while (!s.empty()) {
    Unit unit;
    if (!ReadAmount(&s, &amount) || !ReadStandardUnit(&s, &unit)) return ConvertError(text);
    CASSETTE_RETURN_IF_ERROR(b.Add(unit, amount));
  }
  return b.Build(negative);
}

namespace {

uint64_t Append(std::string* out, uint64_t dividend, uint64_t divisor, const char* unit) {
  if (dividend == 0 || dividend < divisor) return dividend;
  *out += std::to_string(dividend / divisor);
  *out += unit;
  return dividend % divisor;
}

uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

}  // namespace

std::string FormatDuration(const CqlDuration& d) {
  std::string out;
  if (d.months < 0 || d.days < 0 || d.nanos < 0) out.push_back('-');
  uint64_t rem = Append(&out, Magnitude(d.months), 12, "y");
  Append(&out, rem, 1, "mo");
  Append(&out, Magnitude(d.days), 1, "d");
  if (d.nanos != 0) {
    rem = Append(&out, Magnitude(d.nanos), kNanosPerHour, "h");
    rem = Append(&out, rem, kNanosPerMinute, "m");
    rem = Append(&out, rem, kNanosPerSecond, "s");
    rem = Append(&out, rem, kNanosPerMilli, "ms");
    rem = Append(&out, rem, kNanosPerMicro, "us");
    Append(&out, rem, 1, "ns");
  }
  return out;
}

}  // namespace cassette
