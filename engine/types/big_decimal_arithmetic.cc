// Java BigDecimal's arithmetic over GMP integers: the exact results and
// their scales as java.math.BigDecimal defines them, and its rounding to a
// precision (MathContext) or to a scale (divide(divisor, scale, mode)).
#include <algorithm>
#include <climits>

#include "engine/types/big_decimal.h"

namespace cassette {
namespace {

Status TooManyDigits() {
  return Status::InvalidRequest("the result needs more than " + std::to_string(kMaxDecimalDigits) +
                                " digits");
}

// A decimal with this unscaled value and scale; Java's checkScale: a scale
// past int32 is "Underflow" (too large) or "Overflow" (too small), except
// for zero, whose scale is clamped.
Result<BigDecimal> Make(BigInteger unscaled, int64_t scale) {
  if (scale > INT32_MAX || scale < INT32_MIN) {
    if (!unscaled.is_zero()) {
      return Status::InvalidRequest(scale > INT32_MAX ? "Underflow" : "Overflow");
    }
    scale = std::clamp<int64_t>(scale, INT32_MIN, INT32_MAX);
  }
  BigDecimal d;
  d.unscaled = std::move(unscaled);
  d.scale = static_cast<int32_t>(scale);
  return d;
}

// The unscaled value of `d` at a scale no lower than its own.
Result<BigInteger> UnscaledAt(const BigDecimal& d, int64_t scale) {
  const int64_t shift = scale - d.scale;
  if (d.unscaled.is_zero() || shift == 0) return d.unscaled;
  if (shift > kMaxDecimalDigits ||
      d.unscaled.DecimalDigitsUpperBound() + shift > kMaxDecimalDigits) {
    return TooManyDigits();
  }
  return d.unscaled.ShiftDecimal(static_cast<uint64_t>(shift));
}

// n / d rounded to an integer. REQUIRES: d nonzero.
BigInteger DivideRounded(const BigInteger& n, const BigInteger& d, DecimalRounding rounding) {
  mpz_class q, r;
  mpz_tdiv_qr(q.get_mpz_t(), r.get_mpz_t(), n.mpz().get_mpz_t(), d.mpz().get_mpz_t());
  if (sgn(r) == 0 || rounding == DecimalRounding::kDown) return BigInteger::FromMpz(q);
  // Compare the remainder with half the divisor: 2|r| against |d|.
  mpz_class twice = abs(r) * 2;
  const int half = cmp(twice, abs(d.mpz()));
  bool away = half > 0 || (half == 0 &&
                           (rounding == DecimalRounding::kHalfUp || mpz_odd_p(q.get_mpz_t()) != 0));
  if (away) q += n.sign() * d.sign();
  return BigInteger::FromMpz(q);
}

// Java's MathContext rounding: at most `precision` digits (0: exact).
Result<BigDecimal> RoundToPrecision(BigDecimal d, int64_t precision, DecimalRounding rounding) {
  if (precision <= 0 || d.unscaled.DecimalDigitsUpperBound() <= precision) return d;
  int64_t digits = d.Precision();
  int64_t scale = d.scale;
  // A carry (999.5 -> 1000) can add a digit: round again, as Java does.
  while (digits > precision) {
    const int64_t drop = digits - precision;
    d.unscaled =
        DivideRounded(d.unscaled, BigInteger::PowerOfTen(static_cast<uint64_t>(drop)), rounding);
    scale -= drop;
    digits = d.Precision();
  }
  return Make(std::move(d.unscaled), scale);
}

BigDecimal Negated(BigDecimal d) {
  d.unscaled = -d.unscaled;
  return d;
}

BigDecimal Abs(BigDecimal d) {
  d.unscaled.set_negative(false);
  return d;
}

// Java's add when an operand is zero: the other one rounded, brought as
// near the preferred scale max(a, b) as the precision allows.
Result<BigDecimal> AddWithZero(const BigDecimal& a, const BigDecimal& b, int64_t precision) {
  const int64_t preferred = std::max(a.scale, b.scale);
  if (a.sign() == 0 && b.sign() == 0) return Make(BigInteger(), preferred);
  CASSETTE_ASSIGN_OR_RETURN(
      BigDecimal r, RoundToPrecision(a.sign() == 0 ? b : a, precision, DecimalRounding::kHalfUp));
  if (r.scale >= preferred) return r;
  int64_t pad = preferred - r.scale;
  if (precision > 0) pad = std::min(pad, std::max<int64_t>(0, precision - r.Precision()));
  CASSETTE_ASSIGN_OR_RETURN(BigInteger unscaled, UnscaledAt(r, r.scale + pad));
  return Make(std::move(unscaled), r.scale + pad);
}

}  // namespace

Result<BigDecimal> DecimalAdd(const BigDecimal& a, const BigDecimal& b, int64_t precision) {
  if (a.sign() == 0 || b.sign() == 0) return AddWithZero(a, b, precision);
  BigDecimal x = a, y = b;
  if (precision > 0 && x.scale != y.scale) {
    // An operand entirely below both the other's last digit and the
    // rounding position only decides the rounding: stand in a single unit
    // three places further down for it (the result is the same, and 1e9 +
    // 1e-9 does not build a billion digits).
    BigDecimal& big = x.scale < y.scale ? x : y;
    BigDecimal& small = x.scale < y.scale ? y : x;
    const int64_t result_ulp_scale = int64_t{big.scale} - big.Precision() + precision;
    const int64_t small_high_scale = int64_t{small.scale} - small.Precision() + 1;
    if (small_high_scale > int64_t{big.scale} + 2 && small_high_scale > result_ulp_scale + 2) {
      CASSETTE_ASSIGN_OR_RETURN(small, Make(BigInteger::FromInt64(small.sign()),
                                            std::max<int64_t>(big.scale, result_ulp_scale) + 3));
    }
  }
  const int64_t scale = std::max(x.scale, y.scale);
  CASSETTE_ASSIGN_OR_RETURN(BigInteger ux, UnscaledAt(x, scale));
  CASSETTE_ASSIGN_OR_RETURN(BigInteger uy, UnscaledAt(y, scale));
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal sum, Make(ux + uy, scale));
  return RoundToPrecision(std::move(sum), precision, DecimalRounding::kHalfUp);
}

Result<BigDecimal> DecimalSubtract(const BigDecimal& a, const BigDecimal& b, int64_t precision) {
  return DecimalAdd(a, Negated(b), precision);
}

Result<BigDecimal> DecimalMultiply(const BigDecimal& a, const BigDecimal& b, int64_t precision) {
  if (a.unscaled.DecimalDigitsUpperBound() + b.unscaled.DecimalDigitsUpperBound() >
      kMaxDecimalDigits + 1) {
    return TooManyDigits();
  }
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal product,
                            Make(a.unscaled * b.unscaled, int64_t{a.scale} + b.scale));
  return RoundToPrecision(std::move(product), precision, DecimalRounding::kHalfUp);
}

// The message of Java's divide(divisor, scale, mode) by zero, which has no
// zero check of its own: the exception comes from the long division
// ("/ by zero") when the dividend is a compact long and its rescaling
// stays within a long, from MutableBigInteger otherwise.
Status DivideByZero(const BigDecimal& a, const BigDecimal& b, int32_t scale) {
  // BigDecimal's LONG_TEN_POWERS_TABLE: 10^0 .. 10^18.
  constexpr int64_t kLongPowers = 19;
  const Status big = Status::InvalidRequest("BigInteger divide by zero");
  const Status small = Status::InvalidRequest("/ by zero");
  if (!a.unscaled.FitsInt64() || a.unscaled.LowBits64() == INT64_MIN) return big;
  const int64_t new_scale = int64_t{scale} + b.scale;
  if (new_scale > a.scale) {
    // The dividend is raised by 10^raise, which must stay a long.
    const int64_t raise = new_scale - a.scale;
    if (raise >= kLongPowers) return big;
    const int64_t digits = a.Precision() + raise;
    if (a.sign() == 0 || digits < 19) return small;
    BigInteger raised = a.unscaled.ShiftDecimal(static_cast<uint64_t>(raise));
    return raised.FitsInt64() && raised.LowBits64() != INT64_MIN ? small : big;
  }
  // The divisor (zero) is raised instead: a long while the power is one.
  return int64_t{a.scale} - scale - b.scale < kLongPowers ? small : big;
}

Result<BigDecimal> DecimalDivide(const BigDecimal& a, const BigDecimal& b, int32_t scale,
                                 DecimalRounding rounding) {
  if (b.sign() == 0) return DivideByZero(a, b, scale);
  if (a.sign() == 0) return Make(BigInteger(), scale);
  // |a / b| < 10^(first + 1), where `first` is the position of the
  // quotient's first digit as Cassandra's DecimalType predicts it.
  const int64_t first = (a.Precision() - int64_t{a.scale}) - (b.Precision() - int64_t{b.scale});
  if (first + scale + 2 <= 0) return Make(BigInteger(), scale);  // below half a unit
  if (first + scale + 1 > kMaxDecimalDigits) return TooManyDigits();
  // a / b * 10^scale = (ua * 10^shift) / ub with shift = scale - sa + sb;
  // a negative shift scales the divisor up instead.
  const int64_t shift = int64_t{scale} - a.scale + b.scale;
  const BigInteger n =
      shift > 0 ? a.unscaled.ShiftDecimal(static_cast<uint64_t>(shift)) : a.unscaled;
  const BigInteger d =
      shift < 0 ? b.unscaled.ShiftDecimal(static_cast<uint64_t>(-shift)) : b.unscaled;
  return Make(DivideRounded(n, d, rounding), scale);
}

Result<BigDecimal> DecimalRemainder(const BigDecimal& a, const BigDecimal& b) {
  if (b.sign() == 0) {
    return Status::InvalidRequest(a.sign() == 0 ? "Division undefined" : "Division by zero");
  }
  if (a.sign() == 0 || CompareDecimals(Abs(a), Abs(b)) < 0) return a;
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal quotient, DecimalDivide(a, b, 0, DecimalRounding::kDown));
  BigDecimal multiple;
  multiple.unscaled = quotient.unscaled * b.unscaled;
  multiple.scale = b.scale;
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal r, DecimalSubtract(a, multiple));
  // Java's scale: a's, or the multiple's with the integral quotient's
  // trailing zeros taken off (divideToIntegralValue's preferred scale).
  BigInteger stripped = quotient.unscaled;
  const int64_t zeros = static_cast<int64_t>(stripped.RemoveTrailingDecimalZeros());
  const int64_t target = std::max<int64_t>(a.scale, int64_t{b.scale} - zeros);
  if (target < r.scale) {
    r.unscaled = r.unscaled.DivideTruncated(
        BigInteger::PowerOfTen(static_cast<uint64_t>(int64_t{r.scale} - target)));
    r.scale = static_cast<int32_t>(target);
  }
  return r;
}

Result<BigDecimal> DecimalRound(const BigDecimal& d, int64_t precision, DecimalRounding rounding) {
  return RoundToPrecision(d, precision, rounding);
}

Result<BigInteger> DecimalToBigInteger(const BigDecimal& d) {
  if (d.scale <= 0) return UnscaledAt(d, 0);
  // Every digit is fractional: no power of ten as large as the scale is built.
  if (d.scale >= d.unscaled.DecimalDigitsUpperBound()) return BigInteger();
  return d.unscaled.DivideTruncated(BigInteger::PowerOfTen(static_cast<uint64_t>(d.scale)));
}

}  // namespace cassette
