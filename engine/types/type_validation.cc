// ValidateValue: is a byte string a value of a type? Messages follow
// Cassandra's serializers. One deliberate tightening keeps every valid
// value's comparable encoding exact and reversible: empty values are refused
// for non-string types (Cassandra accepts them as "empty" for some types).
// ValidateCellValue lifts it where no comparable encoding is involved: a
// regular or static cell, or a partition key part, may hold the empty value
// of those types (see HasEmptyValue).
// A varint (or a decimal's unscaled part) need not be minimally encoded:
// Cassandra reads any two's complement bytes (a timestamp's 8 bytes given
// to a varint column are one), and the comparable encoding strips the
// redundant sign bytes, so equal numbers are equal keys.
#include "cassette/value.h"
#include "engine/types/collection_format.h"
#include "engine/types/cql_duration.h"
#include "engine/types/temporal_text.h"
#include "engine/types/type_codec.h"
#include "engine/types/uuid_text.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

std::string Size(std::string_view v) { return "(" + std::to_string(v.size()) + ")"; }

Status ExpectSize(std::string_view v, size_t n, const char* message_prefix) {
  if (v.size() == n) return Status::OK();
  return Status::InvalidRequest(std::string(message_prefix) + " " + Size(v));
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int extra;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= s.size()) return false;
    for (int k = 1; k <= extra; ++k) {
      uint8_t cc = static_cast<uint8_t>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

Status ValidateVarint(std::string_view v, const char* what) {
  if (v.empty()) return Status::InvalidRequest(std::string("Invalid empty ") + what + " value");
  return Status::OK();
}

// Sets and maps must hold their elements (keys) sorted and unique, as
// Cassandra writes them; comparisons and encodings rely on it.
Status ValidateSorted(const DataType& element, const std::vector<std::string_view>& values,
                      size_t stride, const char* what) {
  for (size_t i = stride; i < values.size(); i += stride) {
    if (CompareValues(element, values[i - stride], values[i]) >= 0) {
      return Status::InvalidRequest(std::string("Invalid ") + what +
                                    " value: elements are not sorted and unique");
    }
  }
  return Status::OK();
}

}  // namespace

bool HasEmptyValue(const DataType& type) {
  // The types whose Cassandra serializer takes zero bytes ("Expected 4 or 0
  // byte int") and whose empty value means nothing (isEmptyValueMeaningless):
  // drivers and cqlsh read it back as null. tinyint, smallint, date, time and
  // duration refuse zero bytes in Cassandra too.
  switch (type.kind()) {
    case TypeKind::kBoolean:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kTimestamp:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
    case TypeKind::kInet:
    case TypeKind::kVarint:
    case TypeKind::kDecimal:
      return true;
    default:
      return false;
  }
}

bool IsEmptyValue(const DataType& type, std::string_view serialized) {
  return serialized.empty() && HasEmptyValue(type);
}

Status ValidateCellValue(const DataType& type, std::string_view serialized) {
  if (IsEmptyValue(type, serialized)) return Status::OK();
  return ValidateValue(type, serialized);
}

Status ValidateValue(const DataType& type, std::string_view v) {
  // The tightening: the empty value of the types that have one (and zero
  // bytes for a tuple or user type) has no comparable encoding. The other
  // types refuse zero bytes below with their serializer's message.
  if (v.empty() &&
      (HasEmptyValue(type) || type.kind() == TypeKind::kTuple || type.kind() == TypeKind::kUdt)) {
    return Status::InvalidRequest("Invalid empty value for type " + type.ToString());
  }
  switch (type.kind()) {
    case TypeKind::kAscii:
      for (char c : v) {
        if (static_cast<uint8_t>(c) >= 0x80) {
          return Status::InvalidRequest("Invalid byte for ascii: " +
                                        std::to_string(static_cast<int8_t>(c)));
        }
      }
      return Status::OK();
    case TypeKind::kText:
      if (!IsValidUtf8(v)) return Status::InvalidRequest("String didn't validate.");
      return Status::OK();
    case TypeKind::kBlob:
      return Status::OK();
    case TypeKind::kBoolean:
      if (v.size() != 1) return Status::InvalidRequest("Expected 1 or 0 byte value " + Size(v));
      if (v[0] != 0 && v[0] != 1) {
        return Status::InvalidRequest("Invalid boolean value: byte must be 0 or 1");
      }
      return Status::OK();
    case TypeKind::kTinyint:
      return ExpectSize(v, 1, "Expected 1 byte for a tinyint");
    case TypeKind::kSmallint:
      return ExpectSize(v, 2, "Expected 2 bytes for a smallint");
    case TypeKind::kInt:
      return ExpectSize(v, 4, "Expected 4 or 0 byte int");
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      return ExpectSize(v, 8, "Expected 8 or 0 byte long");
    case TypeKind::kTimestamp:
      return ExpectSize(v, 8, "Expected 8 or 0 byte long for date");
    case TypeKind::kDate:
      return ExpectSize(v, 4, "Expected 4 byte long for date");
    case TypeKind::kTime: {
      CASSETTE_RETURN_IF_ERROR(ExpectSize(v, 8, "Expected 8 byte long for time"));
      int64_t nanos = static_cast<int64_t>(DecodeBigEndian64(v.data()));
      if (nanos < 0 || nanos >= kNanosPerDay) {
        return Status::InvalidRequest("Invalid time value " + std::to_string(nanos) +
                                      ": must be between 0 and 86399999999999 nanoseconds");
      }
      return Status::OK();
    }
    case TypeKind::kFloat:
      return ExpectSize(v, 4, "Expected 4 or 0 byte value for a float");
    case TypeKind::kDouble:
      return ExpectSize(v, 8, "Expected 8 or 0 byte value for a double");
    case TypeKind::kUuid:
      return ExpectSize(v, 16, "UUID should be 16 or 0 bytes");
    case TypeKind::kTimeuuid:
      CASSETTE_RETURN_IF_ERROR(ExpectSize(v, 16, "TimeUUID should be 16 or 0 bytes"));
      if (UuidVersion(v) != 1) return Status::InvalidRequest("Invalid version for TimeUUID type.");
      return Status::OK();
    case TypeKind::kInet:
      if (v.size() != 4 && v.size() != 16) {
        return Status::InvalidRequest("Expected 4 or 16 byte inet address " + Size(v));
      }
      return Status::OK();
    case TypeKind::kVarint:
      return ValidateVarint(v, "varint");
    case TypeKind::kDecimal:
      if (v.size() < 4) return Status::InvalidRequest("Expected 0 or at least 4 bytes " + Size(v));
      return ValidateVarint(v.substr(4), "decimal");
    case TypeKind::kDuration: {
      CqlDuration d;
      return DeserializeDuration(v, &d);
    }
    case TypeKind::kList:
    case TypeKind::kSet: {
      const char* what = type.kind() == TypeKind::kList ? "list" : "set";
      std::vector<std::string_view> values;
      CASSETTE_RETURN_IF_ERROR(ReadCollection(v, 1, what, &values));
      for (std::string_view e : values)
        CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[0], e));
      if (type.kind() == TypeKind::kSet) {
        return ValidateSorted(type.params()[0], values, 1, what);
      }
      return Status::OK();
    }
    case TypeKind::kMap: {
      std::vector<std::string_view> values;
      CASSETTE_RETURN_IF_ERROR(ReadCollection(v, 2, "map", &values));
      for (size_t i = 0; i < values.size(); i += 2) {
        CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[0], values[i]));
        CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[1], values[i + 1]));
      }
      return ValidateSorted(type.params()[0], values, 2, "map");
    }
    case TypeKind::kTuple:
    case TypeKind::kUdt: {  // a user type value is serialized as a tuple of its fields
      std::vector<std::optional<std::string_view>> components;
      CASSETTE_RETURN_IF_ERROR(ReadTuple(v, &components));
      if (components.size() > type.params().size()) {
        return Status::InvalidRequest(type.IsUserType()
                                          ? "Invalid remaining data after end of UDT value"
                                          : "Invalid remaining data after end of tuple value");
      }
      for (size_t i = 0; i < components.size(); ++i) {
        if (components[i].has_value()) {
          CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[i], *components[i]));
        }
      }
      return Status::OK();
    }
  }
  return Status::InvalidRequest("Unknown type");
}

}  // namespace cassette
