// BigInteger: the arbitrary-precision integer behind varint and decimal, a
// thin value wrapper over GMP's mpz (libgmp): Cassandra's minimal two's
// complement big-endian bytes, decimal text, and Java BigInteger's
// arithmetic (division and remainder truncate toward zero).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace cassette {

class BigInteger {
 public:
  BigInteger() = default;  // zero
  static BigInteger FromInt64(int64_t v);
  static BigInteger FromMpz(mpz_class v) { return BigInteger(std::move(v)); }

  // Two's complement big-endian bytes of any length (empty = zero).
  static BigInteger FromTwosComplement(std::string_view bytes);
  // Optional sign then one or more ASCII digits; false on anything else.
  static bool FromDecimal(std::string_view text, BigInteger* out);
  // 10^exponent.
  static BigInteger PowerOfTen(uint64_t exponent);

  // Minimal two's complement big-endian bytes (zero is one 0x00 byte).
  std::string ToTwosComplement() const;
  // Decimal text with a leading '-' when negative.
  std::string ToDecimal() const;
  // Decimal digits of the magnitude ("0" for zero).
  std::string MagnitudeDigits() const;

  bool negative() const { return sgn(value_) < 0; }
  bool is_zero() const { return sgn(value_) == 0; }
  int sign() const { return sgn(value_); }
  void set_negative(bool negative);

  // Digits of the magnitude (Java's BigDecimal.precision: 1 for zero).
  int64_t DecimalDigits() const;
  // DecimalDigits() or one more, without computing a power of ten.
  int64_t DecimalDigitsUpperBound() const;
  // Strips the factors of ten from this value (nonzero) and returns how many.
  uint64_t RemoveTrailingDecimalZeros();
  bool FitsInt64() const;
  // The low 64 bits in two's complement (Java's BigInteger.longValue).
  int64_t LowBits64() const;

  BigInteger operator+(const BigInteger& o) const { return BigInteger(value_ + o.value_); }
  BigInteger operator-(const BigInteger& o) const { return BigInteger(value_ - o.value_); }
  BigInteger operator*(const BigInteger& o) const { return BigInteger(value_ * o.value_); }
  BigInteger operator-() const { return BigInteger(-value_); }
  BigInteger& operator+=(const BigInteger& o) {
    value_ += o.value_;
    return *this;
  }
  // Truncating division and its remainder (sign of the dividend), as Java's
  // BigInteger.divide and remainder. REQUIRES: divisor nonzero.
  BigInteger DivideTruncated(const BigInteger& divisor) const;
  BigInteger RemainderTruncated(const BigInteger& divisor) const;
  // this * 10^exponent.
  BigInteger ShiftDecimal(uint64_t exponent) const;

  int Compare(const BigInteger& o) const;
  int CompareMagnitude(const BigInteger& o) const;
  bool operator==(const BigInteger& o) const { return Compare(o) == 0; }

  const mpz_class& mpz() const { return value_; }

 private:
  explicit BigInteger(mpz_class v) : value_(std::move(v)) {}

  mpz_class value_;
};

// True when `bytes` is the minimal two's complement form of its value:
// non-empty and without a redundant leading 0x00 or 0xFF byte.
bool IsMinimalVarint(std::string_view bytes);

}  // namespace cassette
