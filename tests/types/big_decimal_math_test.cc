// exp, log and log10 of a BigDecimal with Cassandra 5.0's digits
// (db/marshal/DecimalType.java exp/log/log10 through big-math's
// BigDecimalMath at MathContext(max(32, precision), HALF_EVEN)). The
// 32-digit values are those of cql3/functions/MathFctsTest (testExp,
// testLog, testLog10 on decimal 5, 1 and -1); the others are e, ln 2 and
// ln 10 to the digits such a MathContext keeps, rounded half even.
#include "engine/types/big_decimal_math.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/types/big_decimal.h"

namespace cassette {
namespace {

BigDecimal D(const char* text) {
  BigDecimal d;
  EXPECT_TRUE(BigDecimal::FromText(text, &d)) << text;
  return d;
}

std::string Exp(const char* x) {
  Result<BigDecimal> r = DecimalExp(D(x));
  return r.ok() ? r->ToText() : "error: " + r.status().message();
}

std::string Log(const char* x) {
  Result<BigDecimal> r = DecimalLog(D(x));
  return r.ok() ? r->ToText() : "error: " + r.status().message();
}

std::string Log10(const char* x) {
  Result<BigDecimal> r = DecimalLog10(D(x));
  return r.ok() ? r->ToText() : "error: " + r.status().message();
}

TEST(BigDecimalMathTest, PrecisionIsAtLeast32AndAtMost10000) {
  EXPECT_EQ(DecimalMathPrecision(D("5")), 32);
  EXPECT_EQ(DecimalMathPrecision(D("1.2345678901234567890123456789012345")), 35);
  EXPECT_EQ(DecimalMathPrecision(D("1E+20000")), 32);
}

// MathFctsTest.testExp on decimals.
TEST(BigDecimalMathTest, ExpToThirtyTwoDigits) {
  EXPECT_EQ(Exp("5"), "148.41315910257660342111558004055");
  EXPECT_EQ(Exp("1"), "2.7182818284590452353602874713527");
  EXPECT_EQ(Exp("-1"), "0.36787944117144232159552377016146");
  EXPECT_EQ(Exp("0"), "1");
  EXPECT_EQ(Exp("0.000"), "1");
}

TEST(BigDecimalMathTest, ExpCarriesTheArgumentsPrecision) {
  // 35 digits in, 35 digits out: e^1 to 35 digits is
  // 2.7182818284590452353602874713526624|977... -> ...66250.
  EXPECT_EQ(Exp("1.0000000000000000000000000000000000"), "2.7182818284590452353602874713526625");
}

TEST(BigDecimalMathTest, ExpOfLargeValuesKeepsAllDigitsWithAnExponent) {
  // e^100 = 2.68811714181613544841262555158001358...E+43.
  EXPECT_EQ(Exp("100"), "2.6881171418161354484126255515800E+43");
  // Far beyond a double: e^1000000 = 3.0332153968...E+434294.
  const std::string big = Exp("1000000");
  EXPECT_EQ(big.substr(0, 12), "3.0332153968") << big;
  EXPECT_EQ(big.substr(big.size() - 8), "E+434294") << big;
  // e^-1000000 is its reciprocal, 3.296831478...E-434295.
  const std::string small = Exp("-1000000");
  EXPECT_EQ(small.substr(0, 11), "3.296831478") << small;
  EXPECT_EQ(small.substr(small.size() - 8), "E-434295") << small;
}

TEST(BigDecimalMathTest, ExpOfAnIntegralPartPastAnIntOverflows) {
  // big-math's intValueExact on the integral part, as Cassandra reports it.
  EXPECT_EQ(Exp("2147483648"), "error: Overflow");
  EXPECT_EQ(Exp("-2147483649.5"), "error: Overflow");
}

// MathFctsTest.testLog on decimals.
TEST(BigDecimalMathTest, LogToThirtyTwoDigits) {
  EXPECT_EQ(Log("5"), "1.6094379124341003746007593332262");
  // ln 2 = 0.69314718055994530941723212145817|65680...: half even keeps 7.
  EXPECT_EQ(Log("2"), "0.69314718055994530941723212145818");
  EXPECT_EQ(Log("10"), "2.3025850929940456840179914546844");
  EXPECT_EQ(Log("1"), "0");
  EXPECT_EQ(Log("1.000"), "0");
  EXPECT_EQ(Log("0.1"), "-2.3025850929940456840179914546844");
}

TEST(BigDecimalMathTest, LogNearOneKeepsItsSignificantDigits) {
  // ln(1 + 10^-40) = 10^-40 - 10^-80/2 + ...: the argument's 41 significant
  // digits of a value whose first digit is 40 places down.
  EXPECT_EQ(Log("1.0000000000000000000000000000000000000001"),
            "9.9999999999999999999999999999999999999995E-41");
}

TEST(BigDecimalMathTest, LogOfHugeAndTinyValues) {
  // ln(10^1000000) = 1000000 ln 10 = 2302585.0929940456840179914546844
  EXPECT_EQ(Log("1E+1000000"), "2302585.0929940456840179914546844");
  EXPECT_EQ(Log("1E-1000000"), "-2302585.0929940456840179914546844");
}

TEST(BigDecimalMathTest, LogOfZeroOrLessIsRefused) {
  EXPECT_EQ(Log("0"), "error: Natural log of number zero or less");
  EXPECT_EQ(Log("-1"), "error: Natural log of number zero or less");
  EXPECT_EQ(Log10("0.00"), "error: Log10 of number zero or less");
  EXPECT_EQ(Log10("-5"), "error: Log10 of number zero or less");
}

// MathFctsTest.testLog10 on decimals.
TEST(BigDecimalMathTest, Log10ToThirtyTwoDigits) {
  EXPECT_EQ(Log10("5"), "0.69897000433601880478626110527551");
  EXPECT_EQ(Log10("2"), "0.30102999566398119521373889472449");
}

TEST(BigDecimalMathTest, Log10OfPowersOfTenFollowsBigMathsRounding) {
  // log(1) is ZERO, divided by ln 10 at 34 digits (scale 33): 0E+33.
  EXPECT_EQ(Log10("1"), "0E+33");
  // log(10) is ln 10 itself: the quotient is exactly 1.
  EXPECT_EQ(Log10("10"), "1");
  // 2 ln10 at 38 digits rounds to twice ln10 at 34: exactly 2.
  EXPECT_EQ(Log10("100"), "2");
  // 3 ln10 rounds to ...093 at 34 digits where 3 * ...364 is ...092: the
  // quotient is not exact and keeps its 32 digits.
  EXPECT_EQ(Log10("1000"), "3.0000000000000000000000000000000");
  // 10 ln10 is exact too, and Java's divide strips the quotient 10 to the
  // preferred scale 32 - 33 = -1.
  EXPECT_EQ(Log10("1E+10"), "1E+1");
  EXPECT_EQ(Log10("0.01"), "-2.0000000000000000000000000000000");
}

}  // namespace
}  // namespace cassette
