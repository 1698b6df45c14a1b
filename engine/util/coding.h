// Byte encodings: little-endian fixed width (internal formats), big-endian
// (Cassandra's serialized values), varints (LEB128) and zigzag for signed
// deltas. Get* functions consume from the front of a string_view and return
// false on truncated or malformed input; they never read past its end.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace cassette {

inline void PutFixed32(std::string* out, uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(v >> (8 * i));
  out->append(b, 4);
}
inline void PutFixed64(std::string* out, uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (8 * i));
  out->append(b, 8);
}
inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
inline bool GetFixed32(std::string_view* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32(in->data());
  in->remove_prefix(4);
  return true;
}
inline bool GetFixed64(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64(in->data());
  in->remove_prefix(8);
  return true;
}

inline void PutBigEndian16(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v));
}
inline void PutBigEndian32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}
inline void PutBigEndian64(std::string* out, uint64_t v) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}
inline uint16_t DecodeBigEndian16(const char* p) {
  return static_cast<uint16_t>((static_cast<uint8_t>(p[0]) << 8) | static_cast<uint8_t>(p[1]));
}
// One load and a byte swap (the compilers keep a byte-wise loop a loop).
inline uint32_t DecodeBigEndian32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  return v;
}
inline uint64_t DecodeBigEndian64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  return v;
}

// Bytes PutVarint64 writes for v (1 to 10).
inline size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline void PutVarint64(std::string* out, uint64_t v) {
  char buf[10];
  int n = 0;
  while (v >= 0x80) {
    buf[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  buf[n++] = static_cast<char>(v);
  out->append(buf, n);
}
inline void PutVarint32(std::string* out, uint32_t v) { PutVarint64(out, v); }

// GetVarint64's multi-byte case, out of line so the one-byte case inlines
// everywhere.
[[gnu::noinline]] inline bool GetVarint64Long(std::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (size_t i = 0; i < in->size() && i < 10; ++i) {
    uint64_t byte = static_cast<uint8_t>((*in)[i]);
    if (i == 9 && byte > 1) return false;  // would overflow 64 bits
    result |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *v = result;
      in->remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}
[[gnu::always_inline]] inline bool GetVarint64(std::string_view* in, uint64_t* v) {
  // Most varints (ids, lengths, small deltas) are one byte.
  if (!in->empty() && (static_cast<uint8_t>(in->front()) & 0x80) == 0) {
    *v = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    return true;
  }
  return GetVarint64Long(in, v);
}
inline bool GetVarint32(std::string_view* in, uint32_t* v) {
  uint64_t w;
  std::string_view copy = *in;
  if (!GetVarint64(&copy, &w) || w > UINT32_MAX) return false;
  *v = static_cast<uint32_t>(w);
  *in = copy;
  return true;
}

inline uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
inline void PutSignedVarint64(std::string* out, int64_t v) { PutVarint64(out, ZigZagEncode(v)); }
inline bool GetSignedVarint64(std::string_view* in, int64_t* v) {
  uint64_t u;
  if (!GetVarint64(in, &u)) return false;
  *v = ZigZagDecode(u);
  return true;
}

// A varint length followed by the bytes.
inline void PutLengthPrefixed(std::string* out, std::string_view s) {
  PutVarint64(out, s.size());
  out->append(s);
}
inline bool GetLengthPrefixed(std::string_view* in, std::string_view* s) {
  uint64_t n;
  std::string_view copy = *in;
  if (!GetVarint64(&copy, &n) || n > copy.size()) return false;
  *s = copy.substr(0, n);
  copy.remove_prefix(n);
  *in = copy;
  return true;
}

// Differences of int64 values that may overflow: computed in uint64.
inline int64_t WrappingSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

}  // namespace cassette
