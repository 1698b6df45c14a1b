// FormatValue: values as cqlsh prints them (pylib/cqlshlib/formatting.py
// on the Python driver's deserialized values). Inside collections, strings,
// timestamps and inet addresses are quoted; dates, times, uuids and numbers
// are not. Floats use the shortest digits that round-trip (cqlsh rounds to
// a display precision instead); the choice between positional and
// scientific notation is cqlsh's.
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "cassette/value.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/collection_format.h"
#include "engine/types/cql_duration.h"
#include "engine/types/float_format.h"
#include "engine/types/inet_address.h"
#include "engine/types/temporal_text.h"
#include "engine/types/type_codec.h"
#include "engine/types/uuid_text.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  for (char c : bytes) {
    out.push_back(kHex[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(c) & 0xF]);
  }
  return out;
}

// Python's repr of one control character, as cqlsh shows it.
void AppendControl(std::string* out, uint32_t cp) {
  if (cp == '\t') {
    *out += "\\t";
  } else if (cp == '\n') {
    *out += "\\n";
  } else if (cp == '\r') {
    *out += "\\r";
  } else {
    char buf[8];
    std::snprintf(buf, sizeof(buf), "\\x%02x", cp);
    *out += buf;
  }
}

// cqlsh doubles backslashes, shows control characters (U+0000..U+001F,
// U+007F..U+00A0) escaped and, when quoting, doubles single quotes.
std::string FormatText(std::string_view s, bool quote) {
  std::string out;
  if (quote) out.push_back('\'');
  for (size_t i = 0; i < s.size(); ++i) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      AppendControl(&out, c);
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<uint8_t>(s[i + 1]) >= 0x80 &&
               static_cast<uint8_t>(s[i + 1]) <= 0xA0) {
      AppendControl(&out, static_cast<uint8_t>(s[i + 1]));  // U+0080..U+00A0
      ++i;
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\'' && quote) {
      out += "''";
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (quote) out.push_back('\'');
  return out;
}

std::string Quoted(std::string s, bool quote) { return quote ? "'" + s + "'" : s; }

int64_t SignedBE(std::string_view v) {
  uint64_t u = 0;
  for (char c : v) u = (u << 8) | static_cast<uint8_t>(c);
  int shift = 64 - 8 * static_cast<int>(v.size());
  return static_cast<int64_t>(u << shift) >> shift;
}

std::string Format(const DataType& type, std::string_view v, bool nested);

std::string FormatCollection(const DataType& type, std::string_view v) {
  bool is_map = type.kind() == TypeKind::kMap;
  std::vector<std::optional<std::string_view>> values;
  if (!ReadCollectionWithNulls(v, is_map ? 2 : 1, "collection", &values).ok()) return Hex(v);
  std::string out = type.kind() == TypeKind::kList ? "[" : "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) {  // only a result's list holds one (TTL of a list)
      out += i > 0 ? ", null" : "null";
      continue;
    }
    if (is_map) {
      if (i % 2 == 1) {
        out += ": ";
      } else if (i > 0) {
        out += ", ";
      }
      out += Format(type.params()[i % 2], *values[i], true);
    } else {
      if (i > 0) out += ", ";
      out += Format(type.params()[0], *values[i], true);
    }
  }
  out += type.kind() == TypeKind::kList ? "]" : "}";
  return out;
}

std::string FormatTuple(const DataType& type, std::string_view v) {
  std::vector<std::optional<std::string_view>> components;
  if (!ReadTuple(v, &components).ok() || components.size() > type.params().size()) return Hex(v);
  std::string out = "(";
  for (size_t i = 0; i < components.size(); ++i) {
    if (i > 0) out += ", ";
    out += components[i].has_value() ? Format(type.params()[i], *components[i], true) : "null";
  }
  return out + ")";
}

// cqlsh's rendering of a user type value: every field, a missing or null
// one as null: {street: 'Main', zip: null}.
std::string FormatUserType(const DataType& type, std::string_view v) {
  std::vector<std::optional<std::string_view>> fields;
  if (!ReadTuple(v, &fields).ok() || fields.size() > type.params().size()) return Hex(v);
  std::string out = "{";
  for (size_t i = 0; i < type.params().size(); ++i) {
    if (i > 0) out += ", ";
    out += type.field_names()[i] + ": ";
    out += i < fields.size() && fields[i].has_value() ? Format(type.params()[i], *fields[i], true)
                                                      : "null";
  }
  return out + "}";
}

std::string Format(const DataType& type, std::string_view v, bool nested) {
  // A list is checked element by element below: a result's list may hold
  // nulls (TTL of a list), which a stored one never does.
  // The empty value of an int, a timestamp, ...: cqlsh prints nothing.
  if (IsEmptyValue(type, v)) return "";
  if (type.kind() != TypeKind::kList && !ValidateValue(type, v).ok()) return Hex(v);
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      return FormatText(v, nested);
    case TypeKind::kBlob:
      return Hex(v);
    case TypeKind::kBoolean:
      return v[0] ? "True" : "False";
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      return std::to_string(SignedBE(v));
    case TypeKind::kVarint:
      return BigInteger::FromTwosComplement(v).ToDecimal();
    case TypeKind::kDecimal:
      return BigDecimal::FromSerialized(v).ToText();
    case TypeKind::kFloat: {
      uint32_t bits = DecodeBigEndian32(v.data());
      float f;
      std::memcpy(&f, &bits, 4);
      return FormatFloatCqlsh(f);
    }
    case TypeKind::kDouble: {
      uint64_t bits = DecodeBigEndian64(v.data());
      double d;
      std::memcpy(&d, &bits, 8);
      return FormatDoubleCqlsh(d);
    }
    case TypeKind::kTimestamp:
      return Quoted(FormatTimestampCqlsh(SignedBE(v)), nested);
    case TypeKind::kDate:
      return FormatDateCqlsh(static_cast<int64_t>(DecodeBigEndian32(v.data())) -
                             (int64_t{1} << 31));
    case TypeKind::kTime:
      return FormatTime(SignedBE(v));
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return FormatUuid(v);
    case TypeKind::kInet:
      return Quoted(FormatInetCqlsh(v), nested);
    case TypeKind::kDuration: {
      CqlDuration d;
      if (!DeserializeDuration(v, &d).ok()) return Hex(v);
      return FormatDuration(d);
    }
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return FormatCollection(type, v);
    case TypeKind::kTuple:
      return FormatTuple(type, v);
    case TypeKind::kUdt:
      return FormatUserType(type, v);
  }
  return Hex(v);
}

}  // namespace

std::string FormatValue(const DataType& type, std::string_view serialized) {
  return Format(type, serialized, false);
}

}  // namespace cassette
