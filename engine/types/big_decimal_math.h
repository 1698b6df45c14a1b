// exp, log and log10 of a BigDecimal with the digits Cassandra 5.0's
// DecimalType gives: big-math's BigDecimalMath at a MathContext of
// max(32, precision of the argument) significant digits (at most 10000),
// rounding half even. A result keeps all of its significant digits,
// trailing zeros included, as BigDecimal.round(MathContext) leaves them.
// Computed with MPFR at enough guard precision, then rounded as Java does.
#pragma once

#include <cstdint>

#include "cassette/status.h"
#include "engine/types/big_decimal.h"

namespace cassette {

// DecimalType's MathContext precision for an argument of exp/log/log10.
int64_t DecimalMathPrecision(const BigDecimal& x);

// e^x. exp(0) is 1. Fails with Java's "Overflow" when the integral part
// of x does not fit an int (big-math's intValueExact), as in Cassandra.
Result<BigDecimal> DecimalExp(const BigDecimal& x);
// ln x. log(1) is 0. Fails with "Natural log of number zero or less" for
// x <= 0 (DecimalType's ArithmeticException).
Result<BigDecimal> DecimalLog(const BigDecimal& x);
// log10 x, as big-math computes it: ln x / ln 10 at two guard digits. An
// exact power of ten follows that path's rounding: log10(1) is zero with
// the scale of the quotient (0E+33 at 32 digits), 10^k for k >= 1 is the
// plain integer k when the two rounded logarithms divide exactly (10 and
// 100 give 1 and 2) and k with all its digits otherwise
// (3.0000000000000000000000000000000 for 1000). Fails with "Log10 of
// number zero or less" for x <= 0.
Result<BigDecimal> DecimalLog10(const BigDecimal& x);

}  // namespace cassette
