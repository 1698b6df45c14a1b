// BigInteger: the arbitrary-precision integer behind varint and decimal.
// Only what the types layer needs: conversion between Cassandra's minimal
// two's complement big-endian bytes and decimal digit strings, and the
// small-operand arithmetic those conversions are built from. Plain value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cassette {

class BigInteger {
 public:
  BigInteger() = default;  // zero

  // Two's complement big-endian bytes of any length (empty = zero).
  static BigInteger FromTwosComplement(std::string_view bytes);
  // Optional sign then one or more ASCII digits; false on anything else.
  static bool FromDecimal(std::string_view text, BigInteger* out);

  // Minimal two's complement big-endian bytes (zero is one 0x00 byte).
  std::string ToTwosComplement() const;
  // Decimal text with a leading '-' when negative.
  std::string ToDecimal() const;
  // Decimal digits of the magnitude ("0" for zero).
  std::string MagnitudeDigits() const;

  bool negative() const { return negative_; }
  bool is_zero() const { return mag_.empty(); }
  void set_negative(bool negative) { negative_ = negative && !mag_.empty(); }

  // |this| = |this| * mul + add.
  void MultiplyAdd(uint32_t mul, uint32_t add);
  // |this| /= divisor (divisor > 0); returns the remainder.
  uint32_t DivideSmall(uint32_t divisor);

 private:
  void Trim();

  bool negative_ = false;
  std::vector<uint32_t> mag_;  // little-endian 32-bit limbs, no leading zero limbs
};

// True when `bytes` is the minimal two's complement form of its value:
// non-empty and without a redundant leading 0x00 or 0xFF byte.
bool IsMinimalVarint(std::string_view bytes);

}  // namespace cassette
