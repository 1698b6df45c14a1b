// Java BigDecimal's arithmetic and printing on the GMP-backed BigDecimal.
// Expected values are what java.math.BigDecimal (JDK 17) returns for the
// same calls Cassandra 5.0 makes: DecimalType.add/substract/multiply with
// MathContext(10000), DecimalType.divide's scale rule (mirrored from
// test/unit/org/apache/cassandra/cql3/functions/OperationFctsTest.java's
// decimal rows), BigDecimal.remainder, and BigDecimal.toString.
#include <gtest/gtest.h>

#include <string>

#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"

namespace cassette {
namespace {

BigDecimal D(const char* text) {
  BigDecimal d;
  EXPECT_TRUE(BigDecimal::FromText(text, &d)) << text;
  return d;
}

std::string Text(const Result<BigDecimal>& r) {
  return r.ok() ? r->ToText() : "ERR " + r.status().message();
}

// DecimalType.divide: a scale of at least 32 significant digits (32..1000)
// rounding half up, trailing zeros stripped.
Result<BigDecimal> CassandraDivide(const BigDecimal& a, const BigDecimal& b) {
  const int64_t first = (a.Precision() - a.scale) - (b.Precision() - b.scale);
  int64_t scale = std::max<int64_t>({32 - first, a.scale, b.scale, 32});
  scale = std::min<int64_t>(scale, 1000);
  Result<BigDecimal> r = DecimalDivide(a, b, static_cast<int32_t>(scale), DecimalRounding::kHalfUp);
  if (!r.ok()) return r;
  return r->StripTrailingZeros();
}

TEST(BigDecimalText, JavaToString) {
  const struct {
    const char* in;
    const char* out;
  } cases[] = {{"0", "0"},
               {"0.00", "0.00"},
               {"-0.0", "0.0"},
               {"1E+3", "1E+3"},
               {"123E-2", "1.23"},
               {"-1.23E-10", "-1.23E-10"},
               {"0.000001", "0.000001"},
               {"0.0000001", "1E-7"},
               {"1E-6", "0.000001"},
               {"12345678901234567890.5", "12345678901234567890.5"},
               {"1.0E10", "1.0E+10"},
               {"-5E-1", "-0.5"},
               {"100E+2", "1.00E+4"},
               {"0E+3", "0E+3"},
               {"0E-8", "0E-8"}};
  for (const auto& c : cases) EXPECT_EQ(D(c.in).ToText(), c.out) << c.in;
}

TEST(BigDecimalText, ValueOfDouble) {
  // BigDecimal.valueOf(double): Double.toString's digits.
  EXPECT_EQ(BigDecimal::FromDouble(3).ToText(), "3.0");
  EXPECT_EQ(BigDecimal::FromDouble(1e10).ToText(), "1.0E+10");
  EXPECT_EQ(BigDecimal::FromDouble(1e-5).ToText(), "0.000010");
  EXPECT_EQ(BigDecimal::FromDouble(static_cast<float>(1.1)).ToText(), "1.100000023841858");
  EXPECT_EQ(BigDecimal::FromDouble(123456789.0).ToText(), "123456789");
  EXPECT_EQ(BigDecimal::FromDouble(1e7).ToText(), "1.0E+7");
}

TEST(BigDecimalArithmetic, MatchesJava) {
  const struct {
    const char *a, *b, *add, *sub, *mul, *div, *rem;
  } cases[] = {
      {"1.5", "1.50", "3.00", "0.00", "2.250", "1", "0.00"},
      {"1E+3", "1", "1001", "999", "1E+3", "1E+3", "0E+3"},
      {"8.5", "3.0", "11.5", "5.5", "25.50", "2.83333333333333333333333333333333", "2.5"},
      {"1", "3", "4", "-2", "3", "0.33333333333333333333333333333333", "1"},
      {"10", "4", "14", "6", "40", "2.5", "2"},
      {"1E+10", "3", "10000000003", "9999999997", "3E+10",
       "3333333333.33333333333333333333333333333333", "1"},
      {"0.0001", "7", "7.0001", "-6.9999", "0.0007", "0.000014285714285714285714285714285714",
       "0.0001"},
      {"123456789012345678901234567890", "7", "123456789012345678901234567897",
       "123456789012345678901234567883", "864197523086419752308641975230",
       "1.763668414462081127160493827E+28", "0"},
      {"23.5", "5", "28.5", "18.5", "117.5", "4.7", "3.5"},
      {"1E+3", "1E+1", "1.01E+3", "9.9E+2", "1E+4", "1E+2", "0E+3"},
      {"-7.5", "2", "-5.5", "-9.5", "-15.0", "-3.75", "-1.5"},
      {"7", "-2.5", "4.5", "9.5", "-17.5", "-2.8", "2.0"},
      {"100", "3E+1", "130", "70", "3.00E+3", "3.33333333333333333333333333333333", "10"},
      {"1.000", "0.3", "1.300", "0.700", "0.3000", "3.33333333333333333333333333333333", "0.100"},
      {"12345", "1E-2", "12345.01", "12344.99", "123.45", "1.2345E+6", "0"},
      {"2", "8.5", "10.5", "-6.5", "17.0", "0.23529411764705882352941176470588", "2"},
      {"0", "5.00", "5.00", "-5.00", "0.00", "0", "0"},
      {"0.000", "5", "5.000", "-5.000", "0.000", "0", "0.000"},
      {"-1", "0.5", "-0.5", "-1.5", "-0.5", "-2", "0.0"},
      {"5E+2", "2E+1", "5.2E+2", "4.8E+2", "1.0E+4", "25", "0E+1"},
      {"1E+5", "3", "100003", "99997", "3E+5", "33333.33333333333333333333333333333333", "1"},
  };
  for (const auto& c : cases) {
    const BigDecimal a = D(c.a), b = D(c.b);
    SCOPED_TRACE(std::string(c.a) + " op " + c.b);
    EXPECT_EQ(Text(DecimalAdd(a, b, 10000)), c.add);
    EXPECT_EQ(Text(DecimalSubtract(a, b, 10000)), c.sub);
    EXPECT_EQ(Text(DecimalMultiply(a, b, 10000)), c.mul);
    EXPECT_EQ(Text(CassandraDivide(a, b)), c.div);
    EXPECT_EQ(Text(DecimalRemainder(a, b)), c.rem);
  }
}

// divide(divisor, scale, mode) by zero has no check of its own: the long
// division says "/ by zero", MutableBigInteger's "BigInteger divide by
// zero". At DecimalType's scales the dividend never stays a long
// (OperationFctsTest.testWithDivisionByZero: 'decimal / tinyint' failed:
// BigInteger divide by zero). remainder goes through divide(MathContext),
// which checks first.
TEST(BigDecimalArithmetic, DivisionByZero) {
  EXPECT_EQ(Text(CassandraDivide(D("8.5"), D("0.0"))), "ERR BigInteger divide by zero");
  EXPECT_EQ(Text(CassandraDivide(D("1.5"), D("0.00"))), "ERR BigInteger divide by zero");
  EXPECT_EQ(Text(CassandraDivide(D("0"), D("0"))), "ERR BigInteger divide by zero");
  // new BigDecimal("1").divide(BigDecimal.ZERO, 0, HALF_UP): a long division.
  EXPECT_EQ(Text(DecimalDivide(D("1"), D("0"), 0, DecimalRounding::kHalfUp)), "ERR / by zero");
  EXPECT_EQ(Text(DecimalDivide(D("1.5"), D("0"), 3, DecimalRounding::kHalfUp)), "ERR / by zero");
  // 15 * 10^19 is past a long; a dividend past a long always is.
  EXPECT_EQ(Text(DecimalDivide(D("1.5"), D("0"), 20, DecimalRounding::kHalfUp)),
            "ERR BigInteger divide by zero");
  EXPECT_EQ(Text(DecimalDivide(D("12345678901234567890"), D("0"), 0, DecimalRounding::kHalfUp)),
            "ERR BigInteger divide by zero");
  EXPECT_EQ(Text(DecimalRemainder(D("3"), D("0"))), "ERR Division by zero");
  EXPECT_EQ(Text(DecimalRemainder(D("0"), D("0"))), "ERR Division undefined");
}

TEST(BigDecimalArithmetic, TenThousandDigitsRoundHalfUp) {
  // 1E+20000 + 1E-5 in MathContext(10000): 10000 digits, scale -10001.
  Result<BigDecimal> r = DecimalAdd(D("1E+20000"), D("1E-5"), 10000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Precision(), 10000);
  EXPECT_EQ(r->scale, -10001);
  // 5E+20000 - 1E-5 is 4999...9.99999 and rounds half up back to 5000...0.
  r = DecimalAdd(D("5E+20000"), D("-1E-5"), 10000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Precision(), 10000);
  EXPECT_EQ(r->scale, -10001);
  EXPECT_EQ(r->unscaled.ToDecimal().substr(0, 3), "500");
  // An operand of zero: the other, padded toward the preferred scale as
  // far as the precision allows (scale -20000 + 9999).
  r = DecimalAdd(D("0.000"), D("1E+20000"), 10000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scale, -10001);
  // Far-apart exponents do not build a billion digits: 1E+1000000000 + 1
  // has 10000 digits (Java prints it in 10013 characters).
  r = DecimalAdd(D("1E+1000000000"), D("1"), 10000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ToText().size(), 10013u);
}

TEST(BigDecimalArithmetic, ExactAddRefusesHugeResults) {
  // Without a MathContext the exact sum would need two billion digits.
  Result<BigDecimal> r = DecimalAdd(D("1E+1000000000"), D("1E-1000000000"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("digits"), std::string::npos);
  // A scale past int32 is Java's "Underflow".
  EXPECT_EQ(Text(DecimalMultiply(D("1E-2000000000"), D("1E-2000000000"))), "ERR Underflow");
  EXPECT_EQ(Text(DecimalMultiply(D("1E+2000000000"), D("1E+2000000000"))), "ERR Overflow");
}

TEST(BigDecimalArithmetic, TinyQuotientRoundsToZeroWithoutHugePowers) {
  // 1E-2000000000 / 3 at scale 1000 rounds to zero.
  Result<BigDecimal> r = CassandraDivide(D("1E-2000000000"), D("3"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ToText(), "0");
}

TEST(BigDecimalArithmetic, RoundingModes) {
  // divide(divisor, scale, mode) at scale 0.
  const auto div0 = [](const char* a, const char* b, DecimalRounding m) {
    return Text(DecimalDivide(D(a), D(b), 0, m));
  };
  EXPECT_EQ(div0("5", "2", DecimalRounding::kHalfUp), "3");
  EXPECT_EQ(div0("5", "2", DecimalRounding::kHalfEven), "2");
  EXPECT_EQ(div0("7", "2", DecimalRounding::kHalfEven), "4");
  EXPECT_EQ(div0("-5", "2", DecimalRounding::kHalfUp), "-3");
  EXPECT_EQ(div0("-5", "2", DecimalRounding::kDown), "-2");
  EXPECT_EQ(div0("-5", "2", DecimalRounding::kHalfEven), "-2");
}

TEST(BigDecimalCompare, NumericOrder) {
  EXPECT_EQ(CompareDecimals(D("1.0"), D("1.00")), 0);
  EXPECT_LT(CompareDecimals(D("-1E+3"), D("-999.9")), 0);
  EXPECT_GT(CompareDecimals(D("0.001"), D("0")), 0);
  EXPECT_LT(CompareDecimals(D("1E-2000000000"), D("1E-1999999999")), 0);
}

TEST(BigDecimal, StripTrailingZeros) {
  EXPECT_EQ(D("1.2300").StripTrailingZeros().ToText(), "1.23");
  EXPECT_EQ(D("1200").StripTrailingZeros().ToText(), "1.2E+3");
  EXPECT_EQ(D("0.000").StripTrailingZeros().ToText(), "0");
}

TEST(BigInteger, ArithmeticPast64Bits) {
  BigInteger a, b;
  ASSERT_TRUE(BigInteger::FromDecimal("9223372036854775807", &a));
  ASSERT_TRUE(BigInteger::FromDecimal("-18446744073709551617", &b));
  EXPECT_EQ((a + a).ToDecimal(), "18446744073709551614");
  EXPECT_EQ((a * a).ToDecimal(), "85070591730234615847396907784232501249");
  EXPECT_EQ((b - a).ToDecimal(), "-27670116110564327424");
  // Java's BigInteger.divide/remainder truncate: -7 / 2 = -3 rem -1.
  EXPECT_EQ(BigInteger::FromInt64(-7).DivideTruncated(BigInteger::FromInt64(2)).ToDecimal(), "-3");
  EXPECT_EQ(BigInteger::FromInt64(-7).RemainderTruncated(BigInteger::FromInt64(2)).ToDecimal(),
            "-1");
  // longValue: the low 64 bits (Java: -18446744073709551617 -> -1).
  EXPECT_EQ(b.LowBits64(), -1);
  EXPECT_FALSE(b.FitsInt64());
  EXPECT_TRUE(a.FitsInt64());
  EXPECT_EQ(BigInteger::FromInt64(INT64_MIN).ToDecimal(), "-9223372036854775808");
  EXPECT_EQ(BigInteger::FromInt64(INT64_MIN).LowBits64(), INT64_MIN);
  EXPECT_EQ(BigInteger::FromInt64(-1).ToTwosComplement(), std::string("\xff", 1));
  EXPECT_EQ(BigInteger().DecimalDigits(), 1);
  EXPECT_EQ(BigInteger::PowerOfTen(40).DecimalDigits(), 41);
  EXPECT_EQ((BigInteger::PowerOfTen(40) - BigInteger::FromInt64(1)).DecimalDigits(), 40);
}

TEST(BigInteger, Int64FastPathsMeetGmpAtTheBoundary) {
  // Texts of 18 digits and fewer, and values of 8 bytes and fewer, skip GMP's
  // conversions: the results must not change at the seams.
  const char* texts[] = {"999999999999999999",
                         "-999999999999999999",
                         "1000000000000000000",
                         "9223372036854775807",
                         "-9223372036854775808",
                         "9223372036854775808",
                         "-9223372036854775809",
                         "-128",
                         "128",
                         "-1",
                         "0",
                         "+17"};
  for (const char* text : texts) {
    BigInteger v;
    ASSERT_TRUE(BigInteger::FromDecimal(text, &v)) << text;
    const std::string canonical = text[0] == '+' ? std::string(text + 1) : std::string(text);
    EXPECT_EQ(v.ToDecimal(), canonical);
    const std::string bytes = v.ToTwosComplement();
    EXPECT_TRUE(IsMinimalVarint(bytes)) << text;
    EXPECT_EQ(BigInteger::FromTwosComplement(bytes).ToDecimal(), canonical);
    EXPECT_EQ(v.MagnitudeDigits(), canonical[0] == '-' ? canonical.substr(1) : canonical);
  }
  EXPECT_EQ(BigInteger::FromTwosComplement(std::string("\x80\0\0\0\0\0\0\0", 8)).ToDecimal(),
            "-9223372036854775808");
  EXPECT_EQ(BigInteger::FromTwosComplement(std::string("\0\x80\0\0\0\0\0\0\0", 9)).ToDecimal(),
            "9223372036854775808");
  EXPECT_EQ(BigInteger::FromTwosComplement(std::string("\xff\x7f\xff\xff\xff\xff\xff\xff\xff", 9))
                .ToDecimal(),
            "-9223372036854775809");
}

}  // namespace
}  // namespace cassette
