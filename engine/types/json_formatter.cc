// FormatJson: values as Cassandra's SELECT JSON renders them (the
// toJSONString of each o.a.c.db.marshal type): numbers bare (NaN and
// infinities as null), text JSON-escaped, blobs, uuids, inets and temporal
// values as strings, lists, sets and tuples as arrays, maps as objects
// whose keys are strings (a non-string key's JSON is quoted again).
#include <cmath>
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

std::string HexString(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"0x";
  for (char c : bytes) {
    out.push_back(kHex[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(c) & 0xF]);
  }
  return out + "\"";
}

int64_t SignedBE(std::string_view v) {
  uint64_t u = 0;
  for (char c : v) u = (u << 8) | static_cast<uint8_t>(c);
  int shift = 64 - 8 * static_cast<int>(v.size());
  return static_cast<int64_t>(u << shift) >> shift;
}

std::string Json(const DataType& type, std::string_view v);

std::string JsonCollection(const DataType& type, std::string_view v) {
  bool is_map = type.kind() == TypeKind::kMap;
  std::vector<std::optional<std::string_view>> nullable;
  if (!ReadCollectionWithNulls(v, is_map ? 2 : 1, "collection", &nullable).ok()) {
    return HexString(v);
  }
  if (!is_map) {  // a result's list may hold nulls (TTL of a list)
    std::string out = "[";
    for (size_t i = 0; i < nullable.size(); ++i) {
      if (i > 0) out += ", ";
      out += nullable[i] ? Json(type.params()[0], *nullable[i]) : "null";
    }
    return out + "]";
  }
  std::vector<std::string_view> values;
  if (!ReadCollection(v, 2, "collection", &values).ok()) return HexString(v);
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i % 2 == 1) {
      out += ": " + Json(type.params()[1], values[i]);
      continue;
    }
    if (i > 0) out += ", ";
    std::string key = Json(type.params()[0], values[i]);
    out += key.size() >= 2 && key.front() == '"' ? key : JsonQuote(key);
  }
  return out + "}";
}

std::string JsonTuple(const DataType& type, std::string_view v) {
  std::vector<std::optional<std::string_view>> components;
  if (!ReadTuple(v, &components).ok() || components.size() > type.params().size()) {
    return HexString(v);
  }
  std::string out = "[";
  for (size_t i = 0; i < components.size(); ++i) {
    if (i > 0) out += ", ";
    out += components[i].has_value() ? Json(type.params()[i], *components[i]) : "null";
  }
  return out + "]";
}

// UserType.toJSONString: every field by name, null when missing.
std::string JsonUserType(const DataType& type, std::string_view v) {
  std::vector<std::optional<std::string_view>> fields;
  if (!ReadTuple(v, &fields).ok() || fields.size() > type.params().size()) return HexString(v);
  std::string out = "{";
  for (size_t i = 0; i < type.params().size(); ++i) {
    if (i > 0) out += ", ";
    out += JsonQuote(type.field_names()[i]) + ": ";
    out += i < fields.size() && fields[i].has_value() ? Json(type.params()[i], *fields[i]) : "null";
  }
  return out + "}";
}

std::string Json(const DataType& type, std::string_view v) {
  // A list is checked element by element below: a result's list may hold
  // nulls (TTL of a list), which a stored one never does.
  // The empty value of an int, a timestamp, ...: null, as Cassandra's
  // to_json and SELECT JSON write it (isEmptyValueMeaningless).
  if (IsEmptyValue(type, v)) return "null";
  if (type.kind() != TypeKind::kList && !ValidateValue(type, v).ok()) return HexString(v);
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      return JsonQuote(v);
    case TypeKind::kBlob:
      return HexString(v);
    case TypeKind::kBoolean:
      return v[0] ? "true" : "false";
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
      return std::isfinite(f) ? FormatFloatJava(f) : "null";
    }
    case TypeKind::kDouble: {
      uint64_t bits = DecodeBigEndian64(v.data());
      double d;
      std::memcpy(&d, &bits, 8);
      return std::isfinite(d) ? FormatDoubleJava(d) : "null";
    }
    case TypeKind::kTimestamp:
      return "\"" + FormatTimestampJson(SignedBE(v)) + "\"";
    case TypeKind::kDate:
      return "\"" +
             FormatDateIso(static_cast<int64_t>(DecodeBigEndian32(v.data())) - (int64_t{1} << 31)) +
             "\"";
    case TypeKind::kTime:
      return "\"" + FormatTime(SignedBE(v)) + "\"";
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return "\"" + FormatUuid(v) + "\"";
    case TypeKind::kInet:
      return "\"" + FormatInetJava(v) + "\"";
    case TypeKind::kDuration: {
      CqlDuration d;
      if (!DeserializeDuration(v, &d).ok()) return HexString(v);
      return JsonQuote(FormatDuration(d));
    }
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return JsonCollection(type, v);
    case TypeKind::kTuple:
      return JsonTuple(type, v);
    case TypeKind::kUdt:
      return JsonUserType(type, v);
  }
  return HexString(v);
}

}  // namespace

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    uint8_t c = static_cast<uint8_t>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04X", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  return out + "\"";
}

std::string FormatJson(const DataType& type, std::string_view serialized) {
  return Json(type, serialized);
}

}  // namespace cassette
