#include "engine/types/big_decimal.h"

#include <climits>
#include <cstdlib>

#include "engine/types/float_format.h"
#include "engine/util/coding.h"

namespace cassette {

BigDecimal BigDecimal::FromSerialized(std::string_view bytes) {
  BigDecimal d;
  d.scale = static_cast<int32_t>(DecodeBigEndian32(bytes.data()));
  d.unscaled = BigInteger::FromTwosComplement(bytes.substr(4));
  return d;
}

std::string BigDecimal::Serialize() const {
  std::string out;
  PutBigEndian32(&out, static_cast<uint32_t>(scale));
  out += unscaled.ToTwosComplement();
  return out;
}

bool BigDecimal::FromText(std::string_view text, BigDecimal* out) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::string digits;
  int64_t fraction_digits = 0;
  bool seen_point = false;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      if (seen_point) ++fraction_digits;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return false;
  int64_t exponent = 0;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return false;
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      exp_negative = s[i] == '-';
      ++i;
    }
    if (i == s.size()) return false;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      exponent = exponent * 10 + (s[i] - '0');
      if (exponent > INT64_MAX / 100) return false;
    }
    if (exp_negative) exponent = -exponent;
  }
  int64_t scale = fraction_digits - exponent;
  if (scale < INT32_MIN || scale > INT32_MAX) return false;
  BigDecimal d;
  if (!BigInteger::FromDecimal(digits, &d.unscaled)) return false;
  d.unscaled.set_negative(negative);
  d.scale = static_cast<int32_t>(scale);
  *out = std::move(d);
  return true;
}

std::string BigDecimal::ToText() const {
  std::string digits = unscaled.MagnitudeDigits();
  std::string sign = unscaled.negative() ? "-" : "";
  int64_t len = static_cast<int64_t>(digits.size());
  int64_t adjusted = -static_cast<int64_t>(scale) + (len - 1);
  if (scale >= 0 && adjusted >= -6) {
    if (scale == 0) return sign + digits;
    if (len > scale) return sign + digits.substr(0, len - scale) + "." + digits.substr(len - scale);
    return sign + "0." + std::string(scale - len, '0') + digits;
  }
  std::string out = sign + digits.substr(0, 1);
  if (len > 1) out += "." + digits.substr(1);
  out += adjusted >= 0 ? "E+" : "E";
  return out + std::to_string(adjusted);
}

BigDecimal BigDecimal::FromDouble(double v) {
  BigDecimal d;
  FromText(FormatDoubleJava(v), &d);
  return d;
}

double BigDecimal::ToDouble() const {
  // strtod rounds correctly to nearest, as Java's doubleValue does.
  return std::strtod(ToText().c_str(), nullptr);
}

BigDecimal BigDecimal::StripTrailingZeros() const {
  BigDecimal d;
  if (unscaled.is_zero()) return d;
  d.unscaled = unscaled;
  const uint64_t zeros = d.unscaled.RemoveTrailingDecimalZeros();
  int64_t new_scale = static_cast<int64_t>(scale) - static_cast<int64_t>(zeros);
  if (new_scale < INT32_MIN) {
    // The scale cannot go lower: put back the zeros it cannot absorb.
    d.unscaled = d.unscaled.ShiftDecimal(static_cast<uint64_t>(INT32_MIN - new_scale));
    new_scale = INT32_MIN;
  }
  d.scale = static_cast<int32_t>(new_scale);
  return d;
}

NormalizedDecimal BigDecimal::Normalize() const {
  NormalizedDecimal n;
  if (unscaled.is_zero()) return n;
  n.sign = unscaled.negative() ? -1 : 1;
  n.digits = unscaled.MagnitudeDigits();
  n.exponent = static_cast<int64_t>(n.digits.size()) - scale;
  while (n.digits.back() == '0') n.digits.pop_back();
  return n;
}

// A decimal rebuilt from its comparable form is a clustering component or
// a collection element, at most 65535 bytes serialized (Cassandra's limit
// for both) of which 4 are the scale, so its unscaled value is below
// 2^(65531 * 8 - 1) and has at most 157,814 digits. The bound keeps a few
// damaged bytes (an exponent of 10^10) from asking for billions of digits.
constexpr int64_t kMaxNormalizedDigits = 157'814;

bool BigDecimal::FromNormalized(const NormalizedDecimal& n, int32_t scale, BigDecimal* out) {
  BigDecimal d;
  d.scale = scale;
  if (n.sign == 0) {
    *out = d;
    return true;
  }
  // |unscaled| has exponent + scale digits: the significant ones, then zeros.
  // The exponent comes from stored bytes: any int64, so the sum may overflow.
  int64_t total = 0;
  if (__builtin_add_overflow(n.exponent, int64_t{scale}, &total) || total < 0 ||
      total > kMaxNormalizedDigits) {
    return false;
  }
  const int64_t zeros = total - static_cast<int64_t>(n.digits.size());
  if (zeros < 0) return false;
  if (!BigInteger::FromDecimal(n.digits + std::string(zeros, '0'), &d.unscaled)) return false;
  d.unscaled.set_negative(n.sign < 0);
  *out = std::move(d);
  return true;
}

int CompareNormalized(const NormalizedDecimal& a, const NormalizedDecimal& b) {
  if (a.sign != b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign == 0) return 0;
  int magnitude;
  if (a.exponent != b.exponent) {
    magnitude = a.exponent < b.exponent ? -1 : 1;
  } else {
    int c = a.digits.compare(b.digits);
    magnitude = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return a.sign > 0 ? magnitude : -magnitude;
}

int CompareDecimals(const BigDecimal& a, const BigDecimal& b) {
  if (a.sign() != b.sign()) return a.sign() < b.sign() ? -1 : 1;
  // Equal scales (the common case) compare their unscaled values directly.
  if (a.scale == b.scale) return a.unscaled.Compare(b.unscaled);
  return CompareNormalized(a.Normalize(), b.Normalize());
}

}  // namespace cassette
