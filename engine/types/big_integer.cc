#include "engine/types/big_integer.h"

#include <charconv>

namespace cassette {
namespace {

// Most varints and decimals in a table fit 64 bits: those take int64 paths
// that skip GMP's import/export and string conversion (bench/big_number_bench).
constexpr size_t kInt64Bytes = 8;
constexpr size_t kUint64Digits = 19;  // any 19-digit number fits uint64

// Decimal text of a GMP integer, optionally without its sign, written by
// GMP straight into the string (one allocation).
std::string DecimalText(const mpz_class& v, bool with_sign) {
  std::string out(mpz_sizeinbase(v.get_mpz_t(), 10) + 2, '\0');
  mpz_get_str(out.data(), 10, v.get_mpz_t());
  out.resize(std::char_traits<char>::length(out.data()));
  if (!with_sign && !out.empty() && out[0] == '-') out.erase(0, 1);
  return out;
}

}  // namespace

BigInteger BigInteger::FromInt64(int64_t v) {
  // mpz's si setters take a long, 64 bits on every platform cassette builds for.
  static_assert(sizeof(long) == sizeof(int64_t));
  return BigInteger(mpz_class(static_cast<long>(v)));
}

BigInteger BigInteger::FromTwosComplement(std::string_view bytes) {
  BigInteger r;
  if (bytes.empty()) return r;
  if (bytes.size() <= kInt64Bytes) {
    // Sign-extend the first byte, then shift the rest in.
    uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(bytes[0])));
    for (size_t i = 1; i < bytes.size(); ++i) bits = (bits << 8) | static_cast<uint8_t>(bytes[i]);
    return FromInt64(static_cast<int64_t>(bits));
  }
  mpz_import(r.value_.get_mpz_t(), bytes.size(), 1, 1, 1, 0, bytes.data());
  // Read unsigned; a set sign bit means the value is that minus 2^(8n).
  if (static_cast<uint8_t>(bytes[0]) & 0x80) {
    thread_local mpz_class wrap;  // reused: no allocation per value
    wrap = 0;
    mpz_setbit(wrap.get_mpz_t(), 8 * bytes.size());
    r.value_ -= wrap;
  }
  return r;
}

bool BigInteger::FromDecimal(std::string_view text, BigInteger* out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  // mpz_set_str also takes white space: check the digits first.
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  BigInteger r;
  if (text.size() <= kUint64Digits) {
    uint64_t magnitude = 0;
    std::from_chars(text.data(), text.data() + text.size(), magnitude);
    static_assert(sizeof(unsigned long) == sizeof(uint64_t));
    r.value_ = static_cast<unsigned long>(magnitude);
    if (negative) r.value_ = -r.value_;
    *out = std::move(r);
    return true;
  }
  if (r.value_.set_str(std::string(text), 10) != 0) return false;
  if (negative) r.value_ = -r.value_;
  *out = std::move(r);
  return true;
}

BigInteger BigInteger::PowerOfTen(uint64_t exponent) {
  BigInteger r;
  mpz_ui_pow_ui(r.value_.get_mpz_t(), 10, exponent);
  return r;
}

std::string BigInteger::ToTwosComplement() const {
  if (is_zero()) return std::string(1, '\0');
  if (FitsInt64()) {
    const int64_t v = value_.get_si();
    // Big-endian, then drop leading bytes the next byte's sign bit implies.
    std::string bytes(kInt64Bytes, '\0');
    for (size_t i = 0; i < kInt64Bytes; ++i) {
      bytes[kInt64Bytes - 1 - i] = static_cast<char>(static_cast<uint64_t>(v) >> (8 * i));
    }
    size_t drop = 0;
    const char sign_byte = v < 0 ? '\xff' : '\0';
    while (drop + 1 < kInt64Bytes && bytes[drop] == sign_byte &&
           ((static_cast<uint8_t>(bytes[drop + 1]) & 0x80) != 0) == (v < 0)) {
      ++drop;
    }
    return bytes.substr(drop);
  }
  // A negative x is the bit inverse of -x - 1 >= 0, sign bit set.
  thread_local mpz_class complement;  // reused: no allocation per value
  if (negative()) mpz_com(complement.get_mpz_t(), value_.get_mpz_t());
  const mpz_class& magnitude = negative() ? complement : value_;
  const size_t size = (mpz_sizeinbase(magnitude.get_mpz_t(), 2) + 7) / 8;
  std::string bytes(size + 1, '\0');  // room for a sign byte in front
  size_t written = 0;
  if (sgn(magnitude) != 0) {
    mpz_export(bytes.data() + 1, &written, 1, 1, 1, 0, magnitude.get_mpz_t());
  }
  bytes.resize(written + 1);
  if (negative()) {
    for (char& c : bytes) c = static_cast<char>(~static_cast<uint8_t>(c));
  }
  // Keep the sign byte only when the next byte's top bit does not already
  // carry the sign.
  const bool sign_bit_set = written > 0 && (static_cast<uint8_t>(bytes[1]) & 0x80);
  const bool needs_sign_byte = written == 0 || sign_bit_set != negative();
  return needs_sign_byte ? bytes : bytes.substr(1);
}

std::string BigInteger::ToDecimal() const {
  if (FitsInt64()) return std::to_string(value_.get_si());
  return DecimalText(value_, true);
}

std::string BigInteger::MagnitudeDigits() const {
  if (FitsInt64()) {
    // The magnitude as unsigned: INT64_MIN's has no int64.
    const int64_t v = value_.get_si();
    return std::to_string(v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v));
  }
  return DecimalText(value_, false);
}

void BigInteger::set_negative(bool negative_value) {
  if (negative_value != negative()) value_ = -value_;
}

int64_t BigInteger::DecimalDigits() const {
  // mpz_sizeinbase may overshoot by one for base 10.
  const size_t estimate = mpz_sizeinbase(value_.get_mpz_t(), 10);
  if (estimate <= 1) return 1;
  if (CompareMagnitude(PowerOfTen(estimate - 1)) < 0) return static_cast<int64_t>(estimate - 1);
  return static_cast<int64_t>(estimate);
}

int64_t BigInteger::DecimalDigitsUpperBound() const {
  return static_cast<int64_t>(mpz_sizeinbase(value_.get_mpz_t(), 10));
}

uint64_t BigInteger::RemoveTrailingDecimalZeros() {
  if (is_zero()) return 0;
  const mpz_class ten(10);
  return mpz_remove(value_.get_mpz_t(), value_.get_mpz_t(), ten.get_mpz_t());
}

bool BigInteger::FitsInt64() const { return mpz_fits_slong_p(value_.get_mpz_t()) != 0; }

int64_t BigInteger::LowBits64() const {
  // mpz_tdiv_r_2exp keeps the sign; reduce the magnitude's low bits and
  // negate in unsigned arithmetic for a negative value.
  mpz_class low;
  mpz_class magnitude = abs(value_);
  mpz_tdiv_r_2exp(low.get_mpz_t(), magnitude.get_mpz_t(), 64);
  uint64_t bits = 0;
  size_t count = 0;
  mpz_export(&bits, &count, -1, sizeof(bits), 0, 0, low.get_mpz_t());
  if (count == 0) bits = 0;
  if (negative()) bits = 0 - bits;
  return static_cast<int64_t>(bits);
}

BigInteger BigInteger::DivideTruncated(const BigInteger& divisor) const {
  BigInteger q;
  mpz_tdiv_q(q.value_.get_mpz_t(), value_.get_mpz_t(), divisor.value_.get_mpz_t());
  return q;
}

BigInteger BigInteger::RemainderTruncated(const BigInteger& divisor) const {
  BigInteger r;
  mpz_tdiv_r(r.value_.get_mpz_t(), value_.get_mpz_t(), divisor.value_.get_mpz_t());
  return r;
}

BigInteger BigInteger::ShiftDecimal(uint64_t exponent) const {
  if (exponent == 0 || is_zero()) return *this;
  BigInteger r = PowerOfTen(exponent);
  r.value_ *= value_;
  return r;
}

int BigInteger::Compare(const BigInteger& o) const {
  const int c = cmp(value_, o.value_);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int BigInteger::CompareMagnitude(const BigInteger& o) const {
  const int c = mpz_cmpabs(value_.get_mpz_t(), o.value_.get_mpz_t());
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
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
