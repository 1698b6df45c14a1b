// CompareValues: Cassandra's comparators, type by type (facts from
// o.a.c.db.marshal.*Type):
//  - text, ascii, blob, inet, duration: unsigned bytes, a prefix first;
//  - integers, timestamp, time: signed; date: unsigned (2^31 = epoch);
//  - float, double: Java's Float/Double.compare (-0.0 < 0.0, NaN above
//    +Infinity, all NaNs equal);
//  - varint, decimal: numeric (1.0 == 1.00);
//  - uuid: version first, then the timestamp for version 1 or the most
//    significant 64 bits unsigned, then the least significant 64 unsigned;
//  - timeuuid: timestamp, then the low 64 bits as signed bytes;
//  - frozen collections and tuples: element-wise, then the shorter first.
// Malformed inputs (REQUIRES valid values) fall back to byte order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "cassette/value.h"
#include "engine/types/big_decimal.h"
#include "engine/types/collection_format.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

template <class T>
int Cmp(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

int CompareBytes(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return Cmp(a.size(), b.size());
}

int64_t SignedBE(std::string_view v) {
  uint64_t u = 0;
  for (char c : v) u = (u << 8) | static_cast<uint8_t>(c);
  // Sign-extend from the width of v.
  int shift = 64 - 8 * static_cast<int>(v.size());
  return static_cast<int64_t>(u << shift) >> shift;
}

// Java's Float.compare / Double.compare.
template <class F, class I>
int CompareFloating(F a, F b) {
  if (a < b) return -1;
  if (a > b) return 1;
  // Equal or unordered: compare canonical bits (all NaNs alike).
  auto bits = [](F f) {
    if (std::isnan(f)) f = std::numeric_limits<F>::quiet_NaN();
    I i;
    std::memcpy(&i, &f, sizeof(f));
    if (std::isnan(f)) i &= std::numeric_limits<I>::max();  // positive NaN
    return i;
  };
  return Cmp(bits(a), bits(b));
}

float ToFloat(std::string_view v) {
  uint32_t u = DecodeBigEndian32(v.data());
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double ToDouble(std::string_view v) {
  uint64_t u = DecodeBigEndian64(v.data());
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

uint64_t ReorderTimestamp(uint64_t msb) {
  return (msb << 48) | ((msb << 16) & 0xFFFF00000000ULL) | (msb >> 32);
}

int CompareUuid(std::string_view a, std::string_view b) {
  uint64_t msb1 = DecodeBigEndian64(a.data()), msb2 = DecodeBigEndian64(b.data());
  int v1 = static_cast<int>((msb1 >> 12) & 0xF), v2 = static_cast<int>((msb2 >> 12) & 0xF);
  if (v1 != v2) return Cmp(v1, v2);
  int c = v1 == 1 ? Cmp(ReorderTimestamp(msb1), ReorderTimestamp(msb2)) : Cmp(msb1, msb2);
  if (c != 0) return c;
  return Cmp(DecodeBigEndian64(a.data() + 8), DecodeBigEndian64(b.data() + 8));
}

int CompareTimeuuid(std::string_view a, std::string_view b) {
  int c = Cmp(static_cast<int64_t>(ReorderTimestamp(DecodeBigEndian64(a.data()))),
              static_cast<int64_t>(ReorderTimestamp(DecodeBigEndian64(b.data()))));
  if (c != 0) return c;
  for (int i = 8; i < 16; ++i) {
    c = Cmp(static_cast<int8_t>(a[i]), static_cast<int8_t>(b[i]));
    if (c != 0) return c;
  }
  return 0;
}

// Strips sign-extension bytes so lengths compare magnitudes.
std::string_view StripVarint(std::string_view v) {
  while (v.size() > 1) {
    uint8_t b0 = static_cast<uint8_t>(v[0]), b1 = static_cast<uint8_t>(v[1]);
    if ((b0 == 0x00 && !(b1 & 0x80)) || (b0 == 0xFF && (b1 & 0x80))) {
      v.remove_prefix(1);
    } else {
      break;
    }
  }
  return v;
}

int CompareVarint(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return Cmp(a.size(), b.size());
  a = StripVarint(a);
  b = StripVarint(b);
  bool na = static_cast<uint8_t>(a[0]) & 0x80, nb = static_cast<uint8_t>(b[0]) & 0x80;
  if (na != nb) return na ? -1 : 1;
  if (a.size() != b.size()) return (a.size() < b.size()) != na ? -1 : 1;
  return CompareBytes(a, b);
}

int CompareElements(const DataType& type, std::string_view a, std::string_view b) {
  int per_entry = type.kind() == TypeKind::kMap ? 2 : 1;
  std::vector<std::string_view> va, vb;
  if (!ReadCollection(a, per_entry, "collection", &va).ok() ||
      !ReadCollection(b, per_entry, "collection", &vb).ok()) {
    return CompareBytes(a, b);
  }
  size_t n = std::min(va.size(), vb.size());
  for (size_t i = 0; i < n; ++i) {
    const DataType& t = type.params()[per_entry == 2 ? i % 2 : 0];
    int c = CompareValues(t, va[i], vb[i]);
    if (c != 0) return c;
  }
  return Cmp(va.size(), vb.size());
}

int CompareTuples(const DataType& type, std::string_view a, std::string_view b) {
  std::vector<std::optional<std::string_view>> ca, cb;
  if (!ReadTuple(a, &ca).ok() || !ReadTuple(b, &cb).ok() || ca.size() > type.params().size() ||
      cb.size() > type.params().size()) {
    return CompareBytes(a, b);
  }
  size_t n = std::min(ca.size(), cb.size());
  for (size_t i = 0; i < n; ++i) {
    if (!ca[i].has_value() || !cb[i].has_value()) {
      int c = Cmp(ca[i].has_value(), cb[i].has_value());  // null first
      if (c != 0) return c;
      continue;
    }
    int c = CompareValues(type.params()[i], *ca[i], *cb[i]);
    if (c != 0) return c;
  }
  return Cmp(ca.size(), cb.size());
}

bool Sized(std::string_view a, std::string_view b, size_t n) {
  return a.size() == n && b.size() == n;
}

}  // namespace

int CompareValues(const DataType& type, std::string_view a, std::string_view b) {
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBlob:
    case TypeKind::kInet:
    case TypeKind::kDuration:
      return CompareBytes(a, b);
    case TypeKind::kBoolean:
      if (!Sized(a, b, 1)) return CompareBytes(a, b);
      return Cmp(a[0] != 0, b[0] != 0);
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      if (a.size() != b.size() || a.empty() || a.size() > 8) return CompareBytes(a, b);
      return Cmp(SignedBE(a), SignedBE(b));
    case TypeKind::kDate:
      return CompareBytes(a, b);  // unsigned, fixed width
    case TypeKind::kFloat:
      if (!Sized(a, b, 4)) return CompareBytes(a, b);
      return CompareFloating<float, int32_t>(ToFloat(a), ToFloat(b));
    case TypeKind::kDouble:
      if (!Sized(a, b, 8)) return CompareBytes(a, b);
      return CompareFloating<double, int64_t>(ToDouble(a), ToDouble(b));
    case TypeKind::kUuid:
      if (!Sized(a, b, 16)) return CompareBytes(a, b);
      return CompareUuid(a, b);
    case TypeKind::kTimeuuid:
      if (!Sized(a, b, 16)) return CompareBytes(a, b);
      return CompareTimeuuid(a, b);
    case TypeKind::kVarint:
      return CompareVarint(a, b);
    case TypeKind::kDecimal:
      if (a.size() < 5 || b.size() < 5) return CompareBytes(a, b);
      return CompareNormalized(BigDecimal::FromSerialized(a).Normalize(),
                               BigDecimal::FromSerialized(b).Normalize());
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return CompareElements(type, a, b);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return CompareTuples(type, a, b);
  }
  return CompareBytes(a, b);
}

}  // namespace cassette
