#include "engine/util/coding.h"

#include <array>
#include <limits>

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(CodingTest, FixedLittleEndianLayoutAndRoundTrip) {
  std::string s;
  PutFixed32(&s, 0x04030201u);
  PutFixed64(&s, 0x0807060504030201ull);
  ASSERT_EQ(s.size(), 12u);
  EXPECT_EQ(s.substr(0, 4), std::string("\x01\x02\x03\x04", 4));
  EXPECT_EQ(s.substr(4), std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  std::string_view in = s;
  uint32_t a;
  uint64_t b;
  ASSERT_TRUE(GetFixed32(&in, &a));
  ASSERT_TRUE(GetFixed64(&in, &b));
  EXPECT_EQ(a, 0x04030201u);
  EXPECT_EQ(b, 0x0807060504030201ull);
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, FixedTruncatedInputIsRejectedAndNotConsumed) {
  std::string s;
  PutFixed64(&s, 42);
  for (size_t len = 0; len < 8; ++len) {
    std::string_view in(s.data(), len);
    uint64_t v = 7;
    EXPECT_FALSE(GetFixed64(&in, &v)) << len;
    EXPECT_EQ(in.size(), len);
  }
  for (size_t len = 0; len < 4; ++len) {
    std::string_view in(s.data(), len);
    uint32_t w = 7;
    EXPECT_FALSE(GetFixed32(&in, &w)) << len;
    EXPECT_EQ(in.size(), len);
  }
}

TEST(CodingTest, BigEndianIsCassandraByteOrder) {
  std::string s;
  PutBigEndian16(&s, 0x0102);
  PutBigEndian32(&s, 0x01020304u);
  PutBigEndian64(&s, 0x0102030405060708ull);
  EXPECT_EQ(s, std::string("\x01\x02\x01\x02\x03\x04\x01\x02\x03\x04\x05\x06\x07\x08", 14));
  EXPECT_EQ(DecodeBigEndian16(s.data()), 0x0102);
  EXPECT_EQ(DecodeBigEndian32(s.data() + 2), 0x01020304u);
  EXPECT_EQ(DecodeBigEndian64(s.data() + 6), 0x0102030405060708ull);
  // int -1 serializes as ff ff ff ff.
  std::string neg;
  PutBigEndian32(&neg, static_cast<uint32_t>(-1));
  EXPECT_EQ(neg, std::string(4, '\xff'));
}

TEST(CodingTest, Varint64RoundTripsAtEveryLengthBoundary) {
  std::vector<uint64_t> values = {0, 1, 127, 128, 255, 256, 16383, 16384};
  for (int shift = 14; shift < 64; shift += 7) {
    values.push_back((1ull << shift) - 1);
    values.push_back(1ull << shift);
    values.push_back((1ull << shift) + 1);
  }
  values.push_back(std::numeric_limits<uint64_t>::max());
  std::string s;
  for (uint64_t v : values) PutVarint64(&s, v);
  std::string_view in = s;
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got)) << v;
    EXPECT_EQ(got, v);
  }
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, VarintEncodedLengths) {
  const std::array<std::pair<uint64_t, size_t>, 6> cases = {
      {{0, 1}, {127, 1}, {128, 2}, {16383, 2}, {16384, 3}, {UINT64_MAX, 10}}};
  for (auto [v, len] : cases) {
    std::string s;
    PutVarint64(&s, v);
    EXPECT_EQ(s.size(), len) << v;
  }
}

TEST(CodingTest, VarintTruncatedInputIsRejectedAndNotConsumed) {
  std::string s;
  PutVarint64(&s, UINT64_MAX);
  for (size_t len = 0; len < s.size(); ++len) {
    std::string_view in(s.data(), len);
    uint64_t v;
    EXPECT_FALSE(GetVarint64(&in, &v)) << len;
    EXPECT_EQ(in.size(), len);
  }
}

TEST(CodingTest, VarintOverflowIsRejected) {
  // Ten bytes whose last carries more than the 64th bit.
  std::string over(9, '\xff');
  over.push_back('\x02');
  std::string_view in = over;
  uint64_t v;
  EXPECT_FALSE(GetVarint64(&in, &v));
  // Eleven continuation bytes never terminate within the limit.
  std::string endless(11, '\x80');
  in = endless;
  EXPECT_FALSE(GetVarint64(&in, &v));
}

TEST(CodingTest, Varint32RejectsValuesAbove32Bits) {
  std::string s;
  PutVarint64(&s, 1ull << 32);
  std::string_view in = s;
  uint32_t v;
  EXPECT_FALSE(GetVarint32(&in, &v));
  EXPECT_EQ(in.size(), s.size());
  s.clear();
  PutVarint32(&s, UINT32_MAX);
  in = s;
  ASSERT_TRUE(GetVarint32(&in, &v));
  EXPECT_EQ(v, UINT32_MAX);
}

TEST(CodingTest, ZigZagKeepsSmallMagnitudesShort) {
  const std::array<std::pair<int64_t, uint64_t>, 5> cases = {
      {{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {std::numeric_limits<int64_t>::min(), UINT64_MAX}}};
  for (auto [v, z] : cases) {
    EXPECT_EQ(ZigZagEncode(v), z) << v;
    EXPECT_EQ(ZigZagDecode(z), v) << v;
  }
  std::string s;
  for (int64_t v : {int64_t{-5}, int64_t{0}, std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min()}) {
    s.clear();
    PutSignedVarint64(&s, v);
    std::string_view in = s;
    int64_t got;
    ASSERT_TRUE(GetSignedVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
}

TEST(CodingTest, LengthPrefixedRoundTripAndTruncation) {
  std::string s;
  PutLengthPrefixed(&s, "hello");
  PutLengthPrefixed(&s, "");
  std::string_view in = s;
  std::string_view a, b;
  ASSERT_TRUE(GetLengthPrefixed(&in, &a));
  ASSERT_TRUE(GetLengthPrefixed(&in, &b));
  EXPECT_EQ(a, "hello");
  EXPECT_EQ(b, "");
  EXPECT_TRUE(in.empty());

  std::string cut;
  PutLengthPrefixed(&cut, "hello");
  cut.pop_back();
  in = cut;
  EXPECT_FALSE(GetLengthPrefixed(&in, &a));
  EXPECT_EQ(in.size(), cut.size());
}

TEST(CodingTest, WrappingArithmeticDoesNotTrap) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(WrappingAdd(kMax, 1), kMin);
  EXPECT_EQ(WrappingSub(kMin, 1), kMax);
  EXPECT_EQ(WrappingSub(5, 3), 2);
}

}  // namespace
}  // namespace cassette
