#include "engine/util/murmur3.h"

#include <cstddef>
#include <limits>

namespace cassette {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;

inline uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t Fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

// Body blocks are little-endian with unsigned bytes, as in the reference.
inline uint64_t Block(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Cassandra's tail reads `(long) byte`: a byte >= 0x80 becomes a negative
// long, so its high bits are all ones before the shift. This is the quirk
// that makes Cassandra's token differ from the reference MurmurHash3.
inline uint64_t SignExtended(unsigned char b, int shift) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<signed char>(b))) << shift;
}

}  // namespace

int64_t Murmur3Token(std::string_view key) {
  if (key.empty()) return std::numeric_limits<int64_t>::min();

  const auto* data = reinterpret_cast<const unsigned char*>(key.data());
  const size_t len = key.size();
  const size_t nblocks = len / 16;
  uint64_t h1 = 0;
  uint64_t h2 = 0;

  for (size_t i = 0; i < nblocks; ++i) {
    uint64_t k1 = Block(data + i * 16);
    uint64_t k2 = Block(data + i * 16 + 8);

    k1 *= kC1;
    k1 = Rotl(k1, 31);
    k1 *= kC2;
    h1 ^= k1;
    h1 = Rotl(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;

    k2 *= kC2;
    k2 = Rotl(k2, 33);
    k2 *= kC1;
    h2 ^= k2;
    h2 = Rotl(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }

  const unsigned char* tail = data + nblocks * 16;
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  switch (len & 15) {
    case 15:
      k2 ^= SignExtended(tail[14], 48);
      [[fallthrough]];
    case 14:
      k2 ^= SignExtended(tail[13], 40);
      [[fallthrough]];
    case 13:
      k2 ^= SignExtended(tail[12], 32);
      [[fallthrough]];
    case 12:
      k2 ^= SignExtended(tail[11], 24);
      [[fallthrough]];
    case 11:
      k2 ^= SignExtended(tail[10], 16);
      [[fallthrough]];
    case 10:
      k2 ^= SignExtended(tail[9], 8);
      [[fallthrough]];
    case 9:
      k2 ^= SignExtended(tail[8], 0);
      k2 *= kC2;
      k2 = Rotl(k2, 33);
      k2 *= kC1;
      h2 ^= k2;
      [[fallthrough]];
    case 8:
      k1 ^= SignExtended(tail[7], 56);
      [[fallthrough]];
    case 7:
      k1 ^= SignExtended(tail[6], 48);
      [[fallthrough]];
    case 6:
      k1 ^= SignExtended(tail[5], 40);
      [[fallthrough]];
    case 5:
      k1 ^= SignExtended(tail[4], 32);
      [[fallthrough]];
    case 4:
      k1 ^= SignExtended(tail[3], 24);
      [[fallthrough]];
    case 3:
      k1 ^= SignExtended(tail[2], 16);
      [[fallthrough]];
    case 2:
      k1 ^= SignExtended(tail[1], 8);
      [[fallthrough]];
    case 1:
      k1 ^= SignExtended(tail[0], 0);
      k1 *= kC1;
      k1 = Rotl(k1, 31);
      k1 *= kC2;
      h1 ^= k1;
      break;
    default:
      break;
  }

  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = Fmix(h1);
  h2 = Fmix(h2);
  h1 += h2;

  // Long.MIN_VALUE is reserved for the minimum token (the empty key).
  const auto token = static_cast<int64_t>(h1);
  if (token == std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::max();
  return token;
}

}  // namespace cassette
