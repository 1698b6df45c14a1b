#include "engine/types/big_integer.h"

#include <algorithm>

namespace cassette {

void BigInteger::Trim() {
  while (!mag_.empty() && mag_.back() == 0) mag_.pop_back();
  if (mag_.empty()) negative_ = false;
}

BigInteger BigInteger::FromTwosComplement(std::string_view bytes) {
  BigInteger r;
  if (bytes.empty()) return r;
  bool negative = (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
  // Magnitude bytes, big-endian: for a negative value negate (invert, add one).
  std::string mag(bytes);
  if (negative) {
    for (char& c : mag) c = static_cast<char>(~static_cast<uint8_t>(c));
    for (size_t i = mag.size(); i-- > 0;) {
      uint8_t b = static_cast<uint8_t>(mag[i]);
      mag[i] = static_cast<char>(b + 1);
      if (b != 0xFF) break;
    }
  }
  size_t n = mag.size();
  r.mag_.assign((n + 3) / 4, 0);
  for (size_t i = 0; i < n; ++i) {
    size_t from_end = n - 1 - i;  // byte significance
    r.mag_[from_end / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(mag[i]))
                            << (8 * (from_end % 4));
  }
  // -2^(8n-1) negates to itself; its magnitude is still 2^(8n-1) and the
  // unsigned reading above gets that right.
  r.negative_ = negative;
  r.Trim();
  return r;
}

bool BigInteger::FromDecimal(std::string_view text, BigInteger* out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  BigInteger r;
  // Nine digits at a time: 10^9 fits a limb multiplier.
  size_t i = 0;
  while (i < text.size()) {
    size_t take = std::min<size_t>(9, text.size() - i);
    uint32_t chunk = 0, mul = 1;
    for (size_t j = 0; j < take; ++j) {
      char c = text[i + j];
      if (c < '0' || c > '9') return false;
      chunk = chunk * 10 + static_cast<uint32_t>(c - '0');
      mul *= 10;
    }
    r.MultiplyAdd(mul, chunk);
    i += take;
  }
  r.negative_ = negative;
  r.Trim();
  *out = std::move(r);
  return true;
}

void BigInteger::MultiplyAdd(uint32_t mul, uint32_t add) {
  uint64_t carry = add;
  for (uint32_t& limb : mag_) {
    uint64_t v = static_cast<uint64_t>(limb) * mul + carry;
    limb = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  if (carry != 0) mag_.push_back(static_cast<uint32_t>(carry));
  Trim();
}

uint32_t BigInteger::DivideSmall(uint32_t divisor) {
  uint64_t rem = 0;
  for (size_t i = mag_.size(); i-- > 0;) {
    uint64_t cur = (rem << 32) | mag_[i];
    mag_[i] = static_cast<uint32_t>(cur / divisor);
    rem = cur % divisor;
  }
  bool negative = negative_;
  Trim();
  negative_ = negative && !mag_.empty();
  return static_cast<uint32_t>(rem);
}

std::string BigInteger::MagnitudeDigits() const {
  if (mag_.empty()) return "0";
  BigInteger copy = *this;
  std::string out;
  while (!copy.mag_.empty()) {
    uint32_t chunk = copy.DivideSmall(1000000000);
    for (int i = 0; i < 9; ++i) {
      out.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
      if (copy.mag_.empty() && chunk == 0) break;
    }
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  std::reverse(out.begin(), out.end());
  return out;
}

std::string BigInteger::ToDecimal() const {
  std::string digits = MagnitudeDigits();
  return negative_ ? "-" + digits : digits;
}

std::string BigInteger::ToTwosComplement() const {
  if (mag_.empty()) return std::string(1, '\0');
  // Big-endian magnitude bytes without leading zeros.
  std::string bytes;
  for (size_t i = mag_.size(); i-- > 0;) {
    for (int s = 24; s >= 0; s -= 8) bytes.push_back(static_cast<char>(mag_[i] >> s));
  }
  size_t first = bytes.find_first_not_of('\0');
  bytes.erase(0, first);
  if (!negative_) {
    if (static_cast<uint8_t>(bytes[0]) & 0x80) bytes.insert(bytes.begin(), '\0');
    return bytes;
  }
  for (char& c : bytes) c = static_cast<char>(~static_cast<uint8_t>(c));
  for (size_t i = bytes.size(); i-- > 0;) {
    uint8_t b = static_cast<uint8_t>(bytes[i]);
    bytes[i] = static_cast<char>(b + 1);
    if (b != 0xFF) break;
  }
  if (!(static_cast<uint8_t>(bytes[0]) & 0x80)) bytes.insert(bytes.begin(), '\xff');
  // Drop sign bytes the next byte already implies.
  size_t drop = 0;
  while (drop + 1 < bytes.size() && static_cast<uint8_t>(bytes[drop]) == 0xFF &&
         (static_cast<uint8_t>(bytes[drop + 1]) & 0x80)) {
    ++drop;
  }
  bytes.erase(0, drop);
  return bytes;
}

bool IsMinimalVarint(std::string_view bytes) {
  if (bytes.empty()) return false;
  if (bytes.size() == 1) return true;
  uint8_t b0 = static_cast<uint8_t>(bytes[0]);
  uint8_t b1 = static_cast<uint8_t>(bytes[1]);
  if (b0 == 0x00 && !(b1 & 0x80)) return false;
  if (b0 == 0xFF && (b1 & 0x80)) return false;
  return true;
}

}  // namespace cassette
