// DecimalType's exp/log/log10 (Cassandra 5.0, db/marshal/DecimalType.java,
// through ch.obermuhlner big-math's BigDecimalMath): MPFR computes the
// value with guard digits beyond the MathContext, and Java's half-even
// rounding to the MathContext precision makes the digits Cassandra prints.
// Values far outside a double's range go through a decimal exponent
// (x = m * 10^k) so that MPFR's exponent range never limits them.
#include "engine/types/big_decimal_math.h"

#include <mpfr.h>

#include <algorithm>
#include <climits>
#include <string>

namespace cassette {
namespace {

// DecimalType's MIN_SIGNIFICANT_DIGITS and MAX_PRECISION.
constexpr int64_t kMinSignificantDigits = 32;
constexpr int64_t kMaxPrecision = 10000;
// Decimal digits computed past the MathContext before Java's rounding.
constexpr int64_t kGuardDigits = 10;

// An MPFR number that frees itself.
class Real {
 public:
  explicit Real(mpfr_prec_t bits) { mpfr_init2(value_, bits); }
  ~Real() { mpfr_clear(value_); }
  Real(const Real&) = delete;
  Real& operator=(const Real&) = delete;
  mpfr_ptr get() { return value_; }

 private:
  mpfr_t value_;
};

// Bits that carry `digits` decimal digits, with a margin for the
// operations' own rounding errors.
mpfr_prec_t BitsFor(int64_t digits) { return static_cast<mpfr_prec_t>(digits * 3322 / 1000 + 64); }

BigDecimal One() { return BigDecimal{BigInteger::FromInt64(1), 0}; }

// `value` (finite, nonzero) times 10^exponent10 as a decimal of `digits`
// significant digits, rounded to nearest by MPFR; Java's rounding to the
// MathContext happens afterwards on these digits.
Result<BigDecimal> DigitsOf(mpfr_ptr value, int64_t exponent10, int64_t digits) {
  mpfr_exp_t exponent = 0;
  char* text = mpfr_get_str(nullptr, &exponent, 10, static_cast<size_t>(digits), value, MPFR_RNDN);
  if (text == nullptr) return Status::InvalidRequest("the result cannot be represented");
  BigInteger unscaled;
  const bool parsed = BigInteger::FromDecimal(text, &unscaled);
  mpfr_free_str(text);
  if (!parsed) return Status::InvalidRequest("the result cannot be represented");
  // value = 0.DIGITS * 10^exponent, so its unscaled digits have scale
  // digits - exponent, less the decimal exponent applied on top.
  const int64_t scale = digits - static_cast<int64_t>(exponent) - exponent10;
  if (scale > INT32_MAX || scale < INT32_MIN) {
    return Status::InvalidRequest(scale > INT32_MAX ? "Underflow" : "Overflow");
  }
  return BigDecimal{std::move(unscaled), static_cast<int32_t>(scale)};
}

// Rounds a computed value the way BigDecimalMath's final round(mc) does.
Result<BigDecimal> ToMathContext(mpfr_ptr value, int64_t exponent10, int64_t precision) {
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal digits,
                            DigitsOf(value, exponent10, precision + kGuardDigits));
  return DecimalRound(digits, precision, DecimalRounding::kHalfEven);
}

// x as m * 10^adjusted with m in [1, 10), m at `bits` precision.
int64_t SetMantissa(const BigDecimal& x, mpfr_ptr m, mpfr_prec_t bits) {
  const int64_t digits = x.Precision();
  mpfr_set_z(m, x.unscaled.mpz().get_mpz_t(), MPFR_RNDN);
  Real power(bits);
  mpfr_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(digits - 1), MPFR_RNDN);
  mpfr_div(m, m, power.get(), MPFR_RNDN);
  return digits - 1 - x.scale;
}

// ln x or log10 x of a positive x: log(m) + adjusted * log(10). The bits
// cover the digits of x too, since for x near 1 the two terms cancel
// down to about 10^-digits.
Result<BigDecimal> Logarithm(const BigDecimal& x, bool base10, int64_t precision) {
  const mpfr_prec_t bits = BitsFor(precision + kGuardDigits + x.Precision() + 20);
  Real m(bits), result(bits), term(bits);
  const int64_t adjusted = SetMantissa(x, m.get(), bits);
  if (base10) {
    mpfr_log10(result.get(), m.get(), MPFR_RNDN);
    mpfr_add_si(result.get(), result.get(), static_cast<long>(adjusted), MPFR_RNDN);
  } else {
    mpfr_log(result.get(), m.get(), MPFR_RNDN);
    mpfr_log_ui(term.get(), 10, MPFR_RNDN);
    mpfr_mul_si(term.get(), term.get(), static_cast<long>(adjusted), MPFR_RNDN);
    mpfr_add(result.get(), result.get(), term.get(), MPFR_RNDN);
  }
  return ToMathContext(result.get(), 0, precision);
}

// ln 10 to `digits` significant digits, rounded half even.
Result<BigDecimal> LogTen(int64_t digits) {
  Real ten(BitsFor(digits + kGuardDigits + 20));
  mpfr_log_ui(ten.get(), 10, MPFR_RNDN);
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal many, DigitsOf(ten.get(), 0, digits + kGuardDigits));
  return DecimalRound(many, digits, DecimalRounding::kHalfEven);
}

// log10 of 10^k, k >= 1, along big-math's path: log(10^k) at P + 2 digits
// is k * ln10 (at 2(P + 2) digits) rounded to P + 6 then P + 2 digits, and
// is divided by ln 10 at P + 2 digits. When that quotient is exact, Java's
// divide returns k at the preferred scale (the two scales' difference);
// otherwise the quotient rounds to P + 2, then P digits.
Result<BigDecimal> Log10OfPowerOfTen(int64_t k, int64_t precision) {
  const BigDecimal power{BigInteger::FromInt64(k), 0};
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal wide, LogTen(2 * (precision + 2)));
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal product, DecimalMultiply(power, wide));
  CASSETTE_ASSIGN_OR_RETURN(product,
                            DecimalRound(product, precision + 6, DecimalRounding::kHalfEven));
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal log,
                            DecimalRound(product, precision + 2, DecimalRounding::kHalfEven));
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal ten, LogTen(precision + 2));
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal exact, DecimalMultiply(power, ten));
  const int order = CompareDecimals(log, exact);
  if (order == 0) {
    BigDecimal quotient = power;
    const int64_t preferred = int64_t{log.scale} - ten.scale;
    BigInteger ten_unit = BigInteger::FromInt64(10);
    while (quotient.scale > preferred && quotient.unscaled.RemainderTruncated(ten_unit).is_zero()) {
      quotient.unscaled = quotient.unscaled.DivideTruncated(ten_unit);
      --quotient.scale;
    }
    return quotient;
  }
  // The quotient is just below or above k: its integral digits are those
  // of k - 1 or k, which fixes the scale of P + 2 significant digits.
  const int64_t integral = order < 0 ? k - 1 : k;
  const int64_t integral_digits =
      integral == 0 ? 0 : static_cast<int64_t>(std::to_string(integral).size());
  CASSETTE_ASSIGN_OR_RETURN(
      BigDecimal quotient,
      DecimalDivide(log, ten, static_cast<int32_t>(precision + 2 - integral_digits),
                    DecimalRounding::kHalfEven));
  return DecimalRound(quotient, precision, DecimalRounding::kHalfEven);
}

}  // namespace

int64_t DecimalMathPrecision(const BigDecimal& x) {
  return std::min(kMaxPrecision, std::max(kMinSignificantDigits, x.Precision()));
}

Result<BigDecimal> DecimalExp(const BigDecimal& x) {
  if (x.sign() == 0) return One();
  // big-math raises e^(1 + f/i) to the integral part i as an int.
  CASSETTE_ASSIGN_OR_RETURN(BigInteger integral, DecimalToBigInteger(x));
  if (!integral.FitsInt64() || integral.LowBits64() > INT32_MAX ||
      integral.LowBits64() < INT32_MIN) {
    return Status::InvalidRequest("Overflow");
  }
  const int64_t precision = DecimalMathPrecision(x);
  // e^x = 10^(x / ln10) = 10^f * 10^k: k the floor of x / ln10 (at most
  // about 10^9, so 40 more bits keep f's digits), and 10^f in [1, 10).
  const mpfr_prec_t bits = BitsFor(precision + kGuardDigits + 20) + 40;
  Real value(bits), ten(bits), scaled(bits);
  const std::string text = x.ToText();
  mpfr_set_str(value.get(), text.c_str(), 10, MPFR_RNDN);
  mpfr_log_ui(ten.get(), 10, MPFR_RNDN);
  mpfr_div(scaled.get(), value.get(), ten.get(), MPFR_RNDN);
  Real floor(bits);
  mpfr_floor(floor.get(), scaled.get());
  const int64_t k = mpfr_get_si(floor.get(), MPFR_RNDN);
  mpfr_sub(scaled.get(), scaled.get(), floor.get(), MPFR_RNDN);
  mpfr_exp10(value.get(), scaled.get(), MPFR_RNDN);
  return ToMathContext(value.get(), k, precision);
}

Result<BigDecimal> DecimalLog(const BigDecimal& x) {
  if (x.sign() <= 0) return Status::InvalidRequest("Natural log of number zero or less");
  // big-math returns BigDecimal.ZERO for 1 (1.000 too).
  if (CompareDecimals(x, One()) == 0) return BigDecimal();
  return Logarithm(x, /*base10=*/false, DecimalMathPrecision(x));
}

Result<BigDecimal> DecimalLog10(const BigDecimal& x) {
  if (x.sign() <= 0) return Status::InvalidRequest("Log10 of number zero or less");
  const int64_t precision = DecimalMathPrecision(x);
  const BigDecimal stripped = x.StripTrailingZeros();
  if (stripped.unscaled == BigInteger::FromInt64(1)) {
    const int64_t k = -int64_t{stripped.scale};
    // log(1) is ZERO, and ZERO divided by ln10 at P + 2 digits (scale
    // P + 1) has Java's preferred scale 0 - (P + 1).
    if (k == 0) return BigDecimal{BigInteger(), static_cast<int32_t>(-(precision + 1))};
    if (k == 1) return One();
    if (k > 1) return Log10OfPowerOfTen(k, precision);
  }
  return Logarithm(x, /*base10=*/true, precision);
}

}  // namespace cassette
