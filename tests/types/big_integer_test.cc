#include "engine/types/big_integer.h"

#include <gtest/gtest.h>

#include <cstdint>

#include <random>

#include "engine/types/big_decimal.h"

namespace cassette {
namespace {

std::string Hex(const std::string& s) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

TEST(BigInteger, MinimalTwosComplement) {
  struct {
    const char* decimal;
    const char* hex;
  } cases[] = {{"0", "00"},
               {"1", "01"},
               {"127", "7f"},
               {"128", "0080"},
               {"255", "00ff"},
               {"256", "0100"},
               {"-1", "ff"},
               {"-128", "80"},
               {"-129", "ff7f"},
               {"-256", "ff00"},
               {"-32768", "8000"},
               {"-32769", "ff7fff"},
               {"18446744073709551616", "010000000000000000"},
               {"-18446744073709551616", "ff0000000000000000"}};
  for (const auto& c : cases) {
    BigInteger v;
    ASSERT_TRUE(BigInteger::FromDecimal(c.decimal, &v));
    EXPECT_EQ(Hex(v.ToTwosComplement()), c.hex) << c.decimal;
    EXPECT_EQ(BigInteger::FromTwosComplement(v.ToTwosComplement()).ToDecimal(), c.decimal);
    EXPECT_TRUE(IsMinimalVarint(v.ToTwosComplement()));
  }
  EXPECT_EQ(BigInteger::FromTwosComplement(std::string("\x00\x00\x05", 3)).ToDecimal(), "5");
  EXPECT_EQ(BigInteger::FromTwosComplement(std::string("\xff\xff\xfb", 3)).ToDecimal(), "-5");
  BigInteger v;
  EXPECT_FALSE(BigInteger::FromDecimal("", &v));
  EXPECT_FALSE(BigInteger::FromDecimal("-", &v));
  EXPECT_FALSE(BigInteger::FromDecimal("1x", &v));
}

TEST(BigInteger, RandomRoundTrips) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 500; ++i) {
    std::string digits(1 + rng() % 60, '0');
    for (char& c : digits) c = static_cast<char>('0' + rng() % 10);
    size_t nz = digits.find_first_not_of('0');
    std::string canonical = nz == std::string::npos ? "0" : digits.substr(nz);
    if (canonical != "0" && rng() % 2) canonical = "-" + canonical;
    BigInteger v;
    ASSERT_TRUE(BigInteger::FromDecimal(canonical, &v));
    EXPECT_EQ(v.ToDecimal(), canonical);
    std::string bytes = v.ToTwosComplement();
    EXPECT_TRUE(IsMinimalVarint(bytes));
    EXPECT_EQ(BigInteger::FromTwosComplement(bytes).ToDecimal(), canonical);
  }
}

TEST(BigDecimal, TextAndNormalForm) {
  BigDecimal d;
  ASSERT_TRUE(BigDecimal::FromText("-12.340", &d));
  EXPECT_EQ(d.scale, 3);
  EXPECT_EQ(d.unscaled.ToDecimal(), "-12340");
  EXPECT_EQ(d.ToText(), "-12.340");
  NormalizedDecimal n = d.Normalize();
  EXPECT_EQ(n.sign, -1);
  EXPECT_EQ(n.digits, "1234");
  EXPECT_EQ(n.exponent, 2);
  BigDecimal back;
  ASSERT_TRUE(BigDecimal::FromNormalized(n, 3, &back));
  EXPECT_EQ(back.Serialize(), d.Serialize());
  EXPECT_FALSE(BigDecimal::FromNormalized(n, 1, &back));  // 12.34 needs scale >= 2
  ASSERT_TRUE(BigDecimal::FromText(".5", &d));
  EXPECT_EQ(d.ToText(), "0.5");
  ASSERT_TRUE(BigDecimal::FromText("5.", &d));
  EXPECT_EQ(d.ToText(), "5");
  ASSERT_TRUE(BigDecimal::FromText("1.5E-10", &d));
  EXPECT_EQ(d.ToText(), "1.5E-10");
  EXPECT_FALSE(BigDecimal::FromText("1e99999999999", &d));
  EXPECT_FALSE(BigDecimal::FromText("e5", &d));
}

// Found by fuzz/types_fuzz: a comparable decimal read back from stored
// bytes carries any int64 exponent; exponent + scale overflowed (UBSan)
// instead of being refused.
TEST(BigDecimal, FromNormalizedRefusesExponentsThatOverflow) {
  NormalizedDecimal n;
  n.sign = 1;
  n.digits = "12";
  BigDecimal d;
  for (int64_t exponent : {INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1}) {
    n.exponent = exponent;
    for (int32_t scale : {INT32_MAX, 1, 0, -1, INT32_MIN}) {
      EXPECT_FALSE(BigDecimal::FromNormalized(n, scale, &d)) << exponent << " " << scale;
    }
  }
  n.exponent = 2;
  ASSERT_TRUE(BigDecimal::FromNormalized(n, 0, &d));
  EXPECT_EQ(d.ToText(), "12");
  // Then a 24-byte input asked for 10^10 zeros (a fuzz timeout): digits
  // beyond what a 65535-byte value holds are refused.
  n.exponent = 10'000'000'000;
  EXPECT_FALSE(BigDecimal::FromNormalized(n, 0, &d));
  n.exponent = 157'814;
  ASSERT_TRUE(BigDecimal::FromNormalized(n, 0, &d));
  EXPECT_LE(d.Serialize().size(), 4u + 65535u);
  n.exponent = 157'815;
  EXPECT_FALSE(BigDecimal::FromNormalized(n, 0, &d));
}

}  // namespace
}  // namespace cassette
