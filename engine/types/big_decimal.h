// BigDecimal: a decimal value as Cassandra stores it, unscaled * 10^-scale
// (serialized as [int32 scale BE][varint unscaled]), with Java's text
// forms, Java BigDecimal's arithmetic rules (scales of results, rounding
// to a precision or a scale), and the normalized form comparisons and
// comparable keys use. The unscaled value is a GMP integer (BigInteger).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"
#include "engine/types/big_integer.h"

namespace cassette {

// sign * 0.d1 d2 ... dm * 10^exponent, d1 != 0 and dm != 0 (digits empty
// and sign 0 for zero). Numerically equal decimals have equal forms.
struct NormalizedDecimal {
  int sign = 0;
  std::string digits;
  int64_t exponent = 0;
};

// Java's RoundingMode values cassette uses.
enum class DecimalRounding { kHalfUp, kHalfEven, kDown };

struct BigDecimal {
  BigInteger unscaled;
  int32_t scale = 0;

  // REQUIRES: at least 4 bytes.
  static BigDecimal FromSerialized(std::string_view bytes);
  std::string Serialize() const;

  // Java's BigDecimal(String) syntax: [sign] digits [. digits] [e [sign] digits].
  static bool FromText(std::string_view text, BigDecimal* out);
  // Java's BigDecimal.valueOf(double): the digits of Double.toString, so
  // 3.0 has scale 1 and 1e10 is 1.0E+10. REQUIRES: finite.
  static BigDecimal FromDouble(double v);
  // Java's BigDecimal.toString (also Python's str(Decimal)): plain unless
  // the scale is negative or the adjusted exponent is below -6.
  std::string ToText() const;
  // The nearest double (Java's doubleValue).
  double ToDouble() const;

  int sign() const { return unscaled.sign(); }
  // Digits of the unscaled value (Java's precision(): 1 for zero).
  int64_t Precision() const { return unscaled.DecimalDigits(); }
  // Java's stripTrailingZeros: zero becomes 0 with scale 0.
  BigDecimal StripTrailingZeros() const;

  NormalizedDecimal Normalize() const;
  // Rebuilds the decimal with this numeric value and scale. False when the
  // scale cannot represent the value (digits past the scale), or the
  // unscaled value would have more digits than a 65535-byte value holds.
  static bool FromNormalized(const NormalizedDecimal& n, int32_t scale, BigDecimal* out);
};

// Numeric order (1.0 == 1.00).
int CompareNormalized(const NormalizedDecimal& a, const NormalizedDecimal& b);
// Numeric order of two decimals.
int CompareDecimals(const BigDecimal& a, const BigDecimal& b);

// Java BigDecimal arithmetic. `precision` 0 is exact (add/subtract: scale
// max(a, b); multiply: scale a + b); a positive precision is a MathContext
// of that many digits rounding half up, as Cassandra's DecimalType uses
// (10000). Errors carry Java's ArithmeticException message ("Division by
// zero", "Division undefined", "Overflow", "Underflow"); a result of more
// than kMaxDecimalDigits digits is refused rather than built.
constexpr int64_t kMaxDecimalDigits = 1'000'000;
Result<BigDecimal> DecimalAdd(const BigDecimal& a, const BigDecimal& b, int64_t precision = 0);
Result<BigDecimal> DecimalSubtract(const BigDecimal& a, const BigDecimal& b, int64_t precision = 0);
Result<BigDecimal> DecimalMultiply(const BigDecimal& a, const BigDecimal& b, int64_t precision = 0);
// a / b rounded to `scale` fractional digits (Java's divide(divisor, scale, mode)).
Result<BigDecimal> DecimalDivide(const BigDecimal& a, const BigDecimal& b, int32_t scale,
                                 DecimalRounding rounding);
// Java's remainder: a - b * (a / b truncated), with Java's result scale.
Result<BigDecimal> DecimalRemainder(const BigDecimal& a, const BigDecimal& b);
// Java's round(MathContext(precision, rounding)): at most `precision`
// significant digits; a value that has no more keeps its digits and scale.
Result<BigDecimal> DecimalRound(const BigDecimal& d, int64_t precision, DecimalRounding rounding);
// Java's toBigInteger: the integral part (truncated toward zero).
Result<BigInteger> DecimalToBigInteger(const BigDecimal& d);

}  // namespace cassette
