// BigDecimal: a decimal value as Cassandra stores it, unscaled * 10^-scale
// (serialized as [int32 scale BE][varint unscaled]), with Java's text
// forms and the normalized form comparisons and comparable keys use.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/big_integer.h"

namespace cassette {

// sign * 0.d1 d2 ... dm * 10^exponent, d1 != 0 and dm != 0 (digits empty
// and sign 0 for zero). Numerically equal decimals have equal forms.
struct NormalizedDecimal {
  int sign = 0;
  std::string digits;
  int64_t exponent = 0;
};

struct BigDecimal {
  BigInteger unscaled;
  int32_t scale = 0;

  // REQUIRES: at least 4 bytes.
  static BigDecimal FromSerialized(std::string_view bytes);
  std::string Serialize() const;

  // Java's BigDecimal(String) syntax: [sign] digits [. digits] [e [sign] digits].
  static bool FromText(std::string_view text, BigDecimal* out);
  // Java's BigDecimal.toString (also Python's str(Decimal)): plain unless
  // the scale is negative or the adjusted exponent is below -6.
  std::string ToText() const;

  NormalizedDecimal Normalize() const;
  // Rebuilds the decimal with this numeric value and scale. False when the
  // scale cannot represent the value (digits past the scale), or the
  // unscaled value would have more digits than a 65535-byte value holds.
  static bool FromNormalized(const NormalizedDecimal& n, int32_t scale, BigDecimal* out);
};

// Numeric order (1.0 == 1.00).
int CompareNormalized(const NormalizedDecimal& a, const NormalizedDecimal& b);

}  // namespace cassette
