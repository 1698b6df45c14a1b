// Comparable encodings, type by type (ascending; DESC inverts every byte).
// The full description with examples is in engine/types/FORMAT.md.
//
//  boolean                 1 byte, 0x00 or 0x01
//  tinyint..bigint,        big-endian with the sign bit flipped
//  counter, timestamp, time
//  date                    the 4 serialized bytes (already unsigned order)
//  float, double           IEEE bits with the sign bit set for positives
//                          and all bits flipped for negatives, then
//                          rotated so -Infinity is 0 and every NaN lands
//                          above +Infinity (a bijection: exact round trip)
//  uuid                    version nibble, then the timestamp (v1) or the
//                          other 60 bits of the msb, then the lsb
//  timeuuid                reordered timestamp msb, then lsb with each
//                          byte's sign bit flipped (signed-byte order)
//  text, ascii, blob,      bytes with 0x00 escaped as 0x00 0xFF, then the
//  inet, duration          terminator 0x00 0x00
//  varint                  length header ordered by sign and magnitude,
//                          then the minimal two's complement bytes (any
//                          redundant sign bytes of the value dropped)
//  decimal                 sign byte, exponent, base-100 digit pairs and a
//                          terminator (inverted for negatives), then the
//                          scale: numerically equal decimals with different
//                          scales are distinct keys ordered by scale
//  list, set               0x01 + element, repeated, then 0x00
//  map                     0x01 + key + value, repeated, then 0x00
//  tuple                   0x01 (null) or 0x02 + component, then 0x00
#include "engine/types/comparable.h"

#include "engine/types/big_decimal.h"
#include "engine/types/collection_format.h"
#include "engine/types/comparable_format.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

using namespace comparable_internal;  // NOLINT: this file's own helpers

void EncodeEscaped(std::string_view v, std::string* out) {
  for (char c : v) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xff');
  }
  out->append("\0\0", 2);
}

// Varint header: orders by sign, then by length (longer = larger magnitude).
// The length is the minimal form's: redundant sign bytes (0x00 before a
// clear top bit, 0xFF before a set one), which a valid varint may carry,
// are dropped first, so numerically equal varints encode alike.
void EncodeVarintBytes(std::string_view v, std::string* out) {
  while (v.size() > 1) {
    const uint8_t first = static_cast<uint8_t>(v[0]);
    const bool next_negative = (static_cast<uint8_t>(v[1]) & 0x80) != 0;
    if ((first == 0x00 && !next_negative) || (first == 0xFF && next_negative)) {
      v.remove_prefix(1);
    } else {
      break;
    }
  }
  uint64_t n = v.size();
  bool negative = static_cast<uint8_t>(v[0]) & 0x80;
  if (!negative) {
    if (n <= 126) {
      out->push_back(static_cast<char>(0x80 + n));
    } else {
      out->push_back('\xff');
      WriteBE(out, n, 4);
    }
  } else {
    if (n <= 126) {
      out->push_back(static_cast<char>(0x7F - n));
    } else {
      out->push_back('\0');
      WriteBE(out, ~n & 0xFFFFFFFFULL, 4);
    }
  }
  out->append(v);
}

void EncodeDecimal(std::string_view v, std::string* out) {
  BigDecimal d = BigDecimal::FromSerialized(v);
  NormalizedDecimal n = d.Normalize();
  std::string body;
  if (n.sign != 0) {
    WriteBE(&body, static_cast<uint64_t>(n.exponent) ^ (1ULL << 63), 8);
    for (size_t i = 0; i < n.digits.size(); i += 2) {
      int hi = n.digits[i] - '0';
      int lo = i + 1 < n.digits.size() ? n.digits[i + 1] - '0' : 0;
      body.push_back(static_cast<char>(hi * 10 + lo + 1));
    }
    body.push_back('\0');
    if (n.sign < 0) {
      for (char& c : body) c = static_cast<char>(~static_cast<uint8_t>(c));
    }
  }
  out->push_back(static_cast<char>(n.sign + 1));  // 0x00 negative, 0x01 zero, 0x02 positive
  out->append(body);
  WriteBE(out, static_cast<uint32_t>(d.scale) ^ 0x80000000u, 4);
}

void EncodeAscending(const DataType& type, std::string_view v, std::string* out) {
  std::string scratch;
  switch (type.kind()) {
    case TypeKind::kBoolean:
      out->push_back(v.empty() ? '\0' : v[0]);
      return;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
    case TypeKind::kTime: {
      size_t start = out->size();
      out->append(v.empty() ? std::string_view("\0", 1) : v);
      (*out)[start] = static_cast<char>(static_cast<uint8_t>((*out)[start]) ^ 0x80);
      return;
    }
    case TypeKind::kDate:
      out->append(Fixed(v, 4, &scratch));
      return;
    case TypeKind::kFloat: {
      uint32_t u = static_cast<uint32_t>(ReadBE(Fixed(v, 4, &scratch)));
      uint32_t t = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
      WriteBE(out, t - kFloatRotation, 4);
      return;
    }
    case TypeKind::kDouble: {
      uint64_t u = ReadBE(Fixed(v, 8, &scratch));
      uint64_t t = (u >> 63) ? ~u : (u | (1ULL << 63));
      WriteBE(out, t - kDoubleRotation, 8);
      return;
    }
    case TypeKind::kUuid: {
      v = Fixed(v, 16, &scratch);
      uint64_t msb = ReadBE(v.substr(0, 8));
      uint64_t version = (msb >> 12) & 0xF;
      uint64_t head = version == 1
                          ? ReorderTimestamp(msb)
                          : (version << 60) | ((msb >> 4) & 0x0FFFFFFFFFFFF000ULL) | (msb & 0xFFF);
      WriteBE(out, head, 8);
      out->append(v.substr(8));
      return;
    }
    case TypeKind::kTimeuuid: {
      v = Fixed(v, 16, &scratch);
      WriteBE(out, ReorderTimestamp(ReadBE(v.substr(0, 8))), 8);
      for (size_t i = 8; i < 16; ++i) out->push_back(static_cast<char>(v[i] ^ 0x80));
      return;
    }
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBlob:
    case TypeKind::kInet:
    case TypeKind::kDuration:
      EncodeEscaped(v, out);
      return;
    case TypeKind::kVarint:
      EncodeVarintBytes(v.empty() ? std::string_view("\0", 1) : v, out);
      return;
    case TypeKind::kDecimal:
      if (v.size() < 5) {
        scratch.assign(v);
        scratch.resize(5, '\0');
        v = scratch;
      }
      EncodeDecimal(v, out);
      return;
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap: {
      int per_entry = type.kind() == TypeKind::kMap ? 2 : 1;
      std::vector<std::string_view> values;
      if (!ReadCollection(v, per_entry, "collection", &values).ok()) values.clear();
      for (size_t i = 0; i < values.size(); ++i) {
        if (i % per_entry == 0) out->push_back('\x01');
        EncodeAscending(type.params()[per_entry == 2 ? i % 2 : 0], values[i], out);
      }
      out->push_back('\0');
      return;
    }
    case TypeKind::kTuple:
    case TypeKind::kUdt: {
      std::vector<std::optional<std::string_view>> components;
      if (!ReadTuple(v, &components).ok()) components.clear();
      for (size_t i = 0; i < components.size() && i < type.params().size(); ++i) {
        if (!components[i].has_value()) {
          out->push_back('\x01');
        } else {
          out->push_back('\x02');
          EncodeAscending(type.params()[i], *components[i], out);
        }
      }
      out->push_back('\0');
      return;
    }
  }
}

}  // namespace

void EncodeComparable(const DataType& type, std::string_view serialized, bool descending,
                      std::string* out) {
  size_t start = out->size();
  EncodeAscending(type, serialized, out);
  if (descending) {
    for (size_t i = start; i < out->size(); ++i) {
      (*out)[i] = static_cast<char>(~static_cast<uint8_t>((*out)[i]));
    }
  }
}

}  // namespace cassette
