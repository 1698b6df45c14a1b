// ParseLiteral: CQL literal text to serialized bytes. Scalars follow the
// fromString rules of Cassandra's types (and their error messages);
// collections and tuples are in collection_literal.cc.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "cassette/value.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/collection_format.h"
#include "engine/types/cql_duration.h"
#include "engine/types/inet_address.h"
#include "engine/types/literal_syntax.h"
#include "engine/types/temporal_text.h"
#include "engine/types/type_codec.h"
#include "engine/types/uuid_text.h"
#include "engine/util/coding.h"

namespace cassette {

std::string_view TrimLiteral(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

namespace {

// A quoted string ('it''s' or $$raw$$) to its content. False when `s` is
// not a complete quoted string.
bool Unquote(std::string_view s, std::string* out) {
  if (s.size() >= 4 && s.substr(0, 2) == "$$" && s.substr(s.size() - 2) == "$$") {
    std::string_view body = s.substr(2, s.size() - 4);
    if (body.find("$$") != std::string_view::npos) return false;
    out->assign(body);
    return true;
  }
  if (s.size() < 2 || s.front() != '\'' || s.back() != '\'') return false;
  out->clear();
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\'') {
      if (i + 2 >= s.size() || s[i + 1] != '\'') return false;  // lone quote inside
      ++i;
    }
    out->push_back(s[i]);
  }
  return true;
}

// The literal's text with quotes removed when it is quoted.
std::string Content(std::string_view literal) {
  std::string content;
  if (Unquote(literal, &content)) return content;
  return std::string(literal);
}

Status Unable(const char* what, std::string_view text) {
  return Status::InvalidRequest("Unable to make " + std::string(what) + " from '" +
                                std::string(text) + "'");
}

// [+-]digits into int64 with overflow detection.
bool ParseInt64(std::string_view s, int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    if (v > (static_cast<uint64_t>(INT64_MAX) + 1 - (c - '0')) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!negative && v > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

// [+-]?digits
bool IsIntegerText(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool IsDecimalSyntax(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

// Java's parseDouble/parseFloat on decimal text plus NaN and Infinity:
// overflow gives Infinity and underflow zero, as Java does.
bool ParseFloating(std::string_view s, bool is_float, double* out) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (EqualsIgnoreCase(body, "nan")) {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (EqualsIgnoreCase(body, "infinity")) {
    *out = negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
    return true;
  }
  if (!IsDecimalSyntax(s)) return false;
  std::string copy(s);
  *out = is_float ? static_cast<double>(std::strtof(copy.c_str(), nullptr))
                  : std::strtod(copy.c_str(), nullptr);
  return true;
}

std::string BigEndian(uint64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(v >> (8 * i)));
  return out;
}

Result<std::string> ParseInteger(std::string_view text, int bytes, const char* what) {
  int64_t v;
  int64_t max = bytes == 8 ? INT64_MAX : (int64_t{1} << (8 * bytes - 1)) - 1;
  if (!ParseInt64(text, &v) || v > max || v < -max - 1) return Unable(what, text);
  return BigEndian(static_cast<uint64_t>(v), bytes);
}

Result<std::string> ParseBlob(std::string_view text) {
  Status bad = Status::InvalidRequest("cannot parse '" + std::string(text) + "' as hex bytes");
  if (text.size() < 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return bad;
  std::string_view hex = text.substr(2);
  std::string out;
  size_t i = 0;
  int pending = -1;
  if (hex.size() % 2 == 1) pending = 0;  // an odd digit count has an implicit leading 0
  for (; i < hex.size(); ++i) {
    char c = hex[i];
    int h = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
            : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                        : -1;
    if (h < 0) return bad;
    if (pending < 0) {
      pending = h;
    } else {
      out.push_back(static_cast<char>(pending * 16 + h));
      pending = -1;
    }
  }
  return out;
}

Result<std::string> ParseTimestamp(std::string_view text) {
  int64_t ms;
  if (IsIntegerText(text)) {
    if (!ParseInt64(text, &ms)) {
      return Status::InvalidRequest("Unable to make long (for date) from: '" + std::string(text) +
                                    "'");
    }
    return BigEndian(static_cast<uint64_t>(ms), 8);
  }
  if (!ParseTimestampText(text, &ms)) {
    return Status::InvalidRequest("Unable to parse a date/time from '" + std::string(text) + "'");
  }
  return BigEndian(static_cast<uint64_t>(ms), 8);
}

Result<std::string> ParseDate(std::string_view text) {
  constexpr int64_t kEpoch = int64_t{1} << 31;
  if (IsIntegerText(text)) {
    // A raw day number in the unsigned form, 2^31 being the epoch.
    int64_t raw;
    if (!ParseInt64(text, &raw) || raw < 0 || raw > UINT32_MAX) {
      return Status::InvalidRequest("Unable to make unsigned int (for date) from: '" +
                                    std::string(text) + "'");
    }
    return BigEndian(static_cast<uint64_t>(raw), 4);
  }
  int64_t days;
  if (!ParseDateText(text, &days)) {
    return Status::InvalidRequest("Unable to coerce '" + std::string(text) +
                                  "' to a formatted date (long)");
  }
  if (days < -kEpoch) {
    return Status::InvalidRequest("Input date " + std::string(text) +
                                  " is less than min supported date -5877641-06-23");
  }
  if (days >= kEpoch) {
    return Status::InvalidRequest("Input date " + std::string(text) +
                                  " is greater than max supported date 5881580-07-11");
  }
  return BigEndian(static_cast<uint64_t>(days + kEpoch), 4);
}

Result<std::string> ParseTime(std::string_view text) {
  int64_t nanos;
  if (IsIntegerText(text)) {
    if (!ParseInt64(text, &nanos) || nanos < 0 || nanos >= kNanosPerDay) {
      return Status::InvalidRequest("Unable to make long (for time) from: '" + std::string(text) +
                                    "'");
    }
    return BigEndian(static_cast<uint64_t>(nanos), 8);
  }
  if (!ParseTimeText(text, &nanos)) {
    return Status::InvalidRequest("Unable to coerce '" + std::string(text) +
                                  "' to a formatted time (long)");
  }
  return BigEndian(static_cast<uint64_t>(nanos), 8);
}

Result<std::string> ParseScalar(const DataType& type, std::string_view literal) {
  std::string text = Content(literal);
  switch (type.kind()) {
    case TypeKind::kAscii:
      for (char c : text) {
        if (static_cast<uint8_t>(c) >= 0x80) {
          return Status::InvalidRequest("Invalid ASCII character in string literal " + text);
        }
      }
      return text;
    case TypeKind::kText:
      CASSETTE_RETURN_IF_ERROR(ValidateValue(type, text));
      return text;
    case TypeKind::kBlob:
      return ParseBlob(text);
    case TypeKind::kBoolean:
      if (EqualsIgnoreCase(text, "true")) return std::string(1, '\1');
      if (EqualsIgnoreCase(text, "false")) return std::string(1, '\0');
      return Unable("boolean", text);
    case TypeKind::kTinyint:
      return ParseInteger(text, 1, "byte");
    case TypeKind::kSmallint:
      return ParseInteger(text, 2, "short");
    case TypeKind::kInt:
      return ParseInteger(text, 4, "int");
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      return ParseInteger(text, 8, "long");
    case TypeKind::kVarint: {
      BigInteger v;
      if (!BigInteger::FromDecimal(text, &v)) return Unable("varint", text);
      return v.ToTwosComplement();
    }
    case TypeKind::kDecimal: {
      BigDecimal d;
      if (!BigDecimal::FromText(text, &d)) return Unable("BigDecimal", text);
      return d.Serialize();
    }
    case TypeKind::kFloat: {
      double d;
      if (!ParseFloating(text, true, &d)) return Unable("float", text);
      float f = static_cast<float>(d);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      return BigEndian(bits, 4);
    }
    case TypeKind::kDouble: {
      double d;
      if (!ParseFloating(text, false, &d)) return Unable("double", text);
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return BigEndian(bits, 8);
    }
    case TypeKind::kTimestamp:
      return ParseTimestamp(text);
    case TypeKind::kDate:
      return ParseDate(text);
    case TypeKind::kTime:
      return ParseTime(text);
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid: {
      std::string bytes;
      if (!ParseUuidText(text, &bytes)) return Unable("UUID", text);
      if (type.kind() == TypeKind::kTimeuuid && UuidVersion(bytes) != 1) {
        return Status::InvalidRequest("TimeUUID supports only version 1 UUIDs");
      }
      return bytes;
    }
    case TypeKind::kInet: {
      std::string bytes;
      if (!ParseInetAddress(text, &bytes)) return Unable("inet address", text);
      return bytes;
    }
    case TypeKind::kDuration: {
      CASSETTE_ASSIGN_OR_RETURN(CqlDuration d, ParseDurationText(text));
      return SerializeDuration(static_cast<int32_t>(d.months), static_cast<int32_t>(d.days),
                               d.nanos);
    }
    default:
      return Status::InvalidRequest("Invalid literal for type " + type.ToString());
  }
}

}  // namespace

Result<std::string> ParseLiteral(const DataType& type, std::string_view literal) {
  std::string_view text = TrimLiteral(literal);
  if (type.IsCollection() || type.kind() == TypeKind::kTuple || type.kind() == TypeKind::kUdt) {
    return ParseCompositeLiteral(type, text);
  }
  return ParseScalar(type, text);
}

}  // namespace cassette

namespace cassette {

Result<std::string> ParseTupleString(const DataType& type, std::string_view text) {
  // AbstractCompositeType.split: a ':' preceded by a backslash is content.
  std::vector<std::string> fields(1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ':' && (i == 0 || text[i - 1] != '\\')) {
      fields.emplace_back();
    } else {
      fields.back().push_back(text[i]);
    }
  }
  const std::vector<DataType>& components = type.params();
  if (fields.size() > components.size()) {
    return Status::InvalidRequest(
        "Invalid tuple literal: too many elements. Type " + type.ToString() + " expects " +
        std::to_string(components.size()) + " but got " + std::to_string(fields.size()));
  }
  std::vector<std::optional<std::string>> serialized;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == "@") {
      serialized.emplace_back(std::nullopt);
      continue;
    }
    // TupleType.unescape: "\:" and "\@" stand for ':' and '@'.
    std::string field;
    for (size_t j = 0; j < fields[i].size(); ++j) {
      if (fields[i][j] == '\\' && j + 1 < fields[i].size() &&
          (fields[i][j + 1] == ':' || fields[i][j + 1] == '@')) {
        continue;
      }
      field.push_back(fields[i][j]);
    }
    const DataType& component = components[i];
    if (component.IsCollection() || component.kind() == TypeKind::kTuple) {
      CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseLiteral(component, field));
      serialized.emplace_back(std::move(bytes));
      continue;
    }
    // A scalar's text is its string form: quoted so that the literal
    // parser takes it whole.
    std::string quoted = "'";
    for (char c : field) {
      quoted.push_back(c);
      if (c == '\'') quoted.push_back('\'');
    }
    quoted.push_back('\'');
    CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseLiteral(component, quoted));
    serialized.emplace_back(std::move(bytes));
  }
  serialized.resize(components.size());  // missing components read as null
  return SerializeTuple(serialized);
}

}  // namespace cassette
