// Helpers shared by the comparable encoder and decoder (comparable.cc
// encodes, comparable_decoder.cc decodes). Layout: engine/types/FORMAT.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/value.h"

namespace cassette {
namespace comparable_internal {

constexpr uint32_t kFloatRotation = 0x007FFFFF;              // bits of ~(-Infinity)
constexpr uint64_t kDoubleRotation = 0x000FFFFFFFFFFFFFULL;  // bits of ~(-Infinity)

inline uint64_t ReadBE(std::string_view v) {
  uint64_t u = 0;
  for (char c : v) u = (u << 8) | static_cast<uint8_t>(c);
  return u;
}

inline void WriteBE(std::string* out, uint64_t u, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>(u >> (8 * i)));
}

// Zero-pads or truncates malformed fixed-width input (a REQUIRES violation)
// so encoding stays defined.
inline std::string_view Fixed(std::string_view v, size_t n, std::string* scratch) {
  if (v.size() == n) return v;
  scratch->assign(v.substr(0, n));
  scratch->resize(n, '\0');
  return *scratch;
}

inline uint64_t ReorderTimestamp(uint64_t msb) {
  return (msb << 48) | ((msb << 16) & 0xFFFF00000000ULL) | (msb >> 32);
}
inline uint64_t RestoreTimestamp(uint64_t x) {
  return (x << 32) | ((x >> 16) & 0xFFFF0000ULL) | (x >> 48);
}

inline int IntegerWidth(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
      return 4;
    default:
      return 8;  // bigint, counter, timestamp, time
  }
}

}  // namespace comparable_internal
}  // namespace cassette
