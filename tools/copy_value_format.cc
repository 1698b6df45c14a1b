#include "tools/copy_value_format.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <optional>
#include <vector>

#include "engine/types/calendar.h"
#include "engine/types/collection_format.h"
#include "engine/types/cql_duration.h"
#include "engine/types/type_codec.h"

namespace cassette::tools {
namespace {

// Digits of an integer's decimal text grouped by threes with `separator`.
std::string GroupThousands(const std::string& digits_text, const std::string& separator) {
  std::string sign;
  std::string digits = digits_text;
  if (!digits.empty() && digits[0] == '-') {
    sign = "-";
    digits.erase(0, 1);
  }
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += separator;
    out.push_back(digits[i]);
  }
  return sign + out;
}

// Python's '%.*g' / '%.*f' (the same C printf conversions).
std::string Printf(const char* conversion, int precision, double value) {
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer), conversion, precision, value);
  return buffer;
}

void ReplaceAll(std::string* text, char from, const std::string& to) {
  std::string out;
  for (char c : *text) {
    if (c == from) {
      out += to;
    } else {
      out.push_back(c);
    }
  }
  *text = std::move(out);
}

// cqlsh's round_microseconds: the last '.' followed by 1 to 6 digits keeps
// its first three (milliseconds).
std::string RoundMicroseconds(const std::string& text) {
  for (size_t dot = text.rfind('.'); dot != std::string::npos;
       dot = dot == 0 ? std::string::npos : text.rfind('.', dot - 1)) {
    size_t end = dot + 1;
    while (end < text.size() && end - dot - 1 < 6 &&
           std::isdigit(static_cast<unsigned char>(text[end]))) {
      ++end;
    }
    const size_t length = end - dot - 1;
    if (length == 0) continue;
    int64_t digits = std::stoll(text.substr(dot + 1, length));
    for (size_t i = length; i < 3; ++i) digits *= 10;
    for (size_t i = 3; i < length; ++i) digits /= 10;
    char millis[16];
    std::snprintf(millis, sizeof(millis), "%03lld", static_cast<long long>(digits));
    return text.substr(0, dot) + "." + millis + text.substr(end);
  }
  return text;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  for (char c : bytes) {
    out.push_back(kHex[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(c) & 0xF]);
  }
  return out;
}

int64_t SignedBigEndian(std::string_view bytes) {
  uint64_t u = 0;
  for (char c : bytes) u = (u << 8) | static_cast<uint8_t>(c);
  const int shift = 64 - 8 * static_cast<int>(bytes.size());
  return shift >= 64 ? 0 : static_cast<int64_t>(u << shift) >> shift;
}

bool EmptyMeansNull(TypeKind kind) {
  return kind != TypeKind::kText && kind != TypeKind::kAscii && kind != TypeKind::kBlob;
}

std::string Format(const DataType& type, std::string_view bytes, const CopyValueFormat& format,
                   bool nested);

std::string QuoteCql(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

std::string FormatComposite(const DataType& type, std::string_view bytes,
                            const CopyValueFormat& format) {
  std::string out;
  if (type.kind() == TypeKind::kTuple) {
    std::vector<std::optional<std::string_view>> components;
    if (!ReadTuple(bytes, &components).ok()) return Hex(bytes);
    out = "(";
    for (size_t i = 0; i < components.size() && i < type.params().size(); ++i) {
      if (i > 0) out += ", ";
      out += components[i] ? Format(type.params()[i], *components[i], format, true) : "null";
    }
    return out + ")";
  }
  if (type.kind() == TypeKind::kUdt) {  // {f: v, g: null}, as cqlsh writes a user type
    std::vector<std::optional<std::string_view>> fields;
    if (!ReadTuple(bytes, &fields).ok()) return Hex(bytes);
    out = "{";
    for (size_t i = 0; i < type.params().size(); ++i) {
      if (i > 0) out += ", ";
      out += type.field_names()[i] + ": ";
      out += i < fields.size() && fields[i] ? Format(type.params()[i], *fields[i], format, true)
                                            : "null";
    }
    return out + "}";
  }
  const bool is_map = type.kind() == TypeKind::kMap;
  std::vector<std::string_view> values;
  if (!ReadCollection(bytes, is_map ? 2 : 1, "collection", &values).ok()) return Hex(bytes);
  const bool is_list = type.kind() == TypeKind::kList;
  out = is_list ? "[" : "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (is_map) {
      out += i % 2 == 1 ? ": " : (i > 0 ? ", " : "");
      out += Format(type.params()[i % 2], values[i], format, true);
    } else {
      if (i > 0) out += ", ";
      out += Format(type.params()[0], values[i], format, true);
    }
  }
  return out + (is_list ? "]" : "}");
}

std::string Format(const DataType& type, std::string_view bytes, const CopyValueFormat& format,
                   bool nested) {
  if (bytes.empty() && EmptyMeansNull(type.kind())) return format.null_text;
  if (!ValidateValue(type, bytes).ok()) return Hex(bytes);
  const std::string& thousands = format.thousands_separator;
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      return nested ? QuoteCql(bytes) : std::string(bytes);
    case TypeKind::kBlob:
      return Hex(bytes);
    case TypeKind::kBoolean:
      return bytes[0] != 0 ? format.true_text : format.false_text;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kVarint: {
      // cqlsh groups through a float ("{:,.0f}"), losing digits past 2^53;
      // cassette groups the exact digits.
      std::string digits = FormatValue(type, bytes);
      return thousands.empty() ? digits : GroupThousands(digits, thousands);
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      const double value = ValueView(type, bytes).AsDouble();
      const int precision =
          type.kind() == TypeKind::kDouble ? format.double_precision : format.float_precision;
      return FormatCopyFloating(value, precision, format);
    }
    case TypeKind::kDecimal: {
      std::string text = FormatValue(type, bytes);
      if ((!format.decimal_separator.empty() && format.decimal_separator != ".") ||
          !thousands.empty()) {
        // cqlsh formats such a decimal as a float of FLOATPRECISION digits.
        return FormatCopyFloating(std::strtod(text.c_str(), nullptr), format.float_precision,
                                  format);
      }
      return text;
    }
    case TypeKind::kTimestamp: {
      std::string text = FormatCopyTimestamp(SignedBigEndian(bytes), format.datetime_format);
      return nested ? QuoteCql(text) : text;
    }
    case TypeKind::kInet:
      return nested ? QuoteCql(FormatValue(type, bytes)) : FormatValue(type, bytes);
    case TypeKind::kTime:
      return nested ? QuoteCql(FormatValue(type, bytes)) : FormatValue(type, bytes);
    case TypeKind::kDuration: {
      std::string text = FormatValue(type, bytes);
      return text.empty() ? "0s" : text;
    }
    case TypeKind::kDate:
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return FormatValue(type, bytes);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return FormatComposite(type, bytes, format);
  }
  return Hex(bytes);
}

}  // namespace

std::string FormatCopyFloating(double value, int precision, const CopyValueFormat& format) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  const std::string& decimal_separator = format.decimal_separator;
  if (!format.thousands_separator.empty()) {
    double integral = 0;
    const double fraction = std::modf(value, &integral);
    std::string out = GroupThousands(Printf("%.*f", 0, integral), format.thousands_separator);
    std::string fraction_digits = Printf("%.*f", precision, std::fabs(fraction));
    fraction_digits = fraction_digits.size() > 2 ? fraction_digits.substr(2) : "";
    while (!fraction_digits.empty() && fraction_digits.back() == '0') fraction_digits.pop_back();
    if (!fraction_digits.empty()) {
      out += (decimal_separator.empty() ? "." : decimal_separator) + fraction_digits;
    }
    return out;
  }
  // Positional notation gets `precision` digits after the point: %g's
  // significant digits grow by the digits before it.
  const double magnitude = std::fabs(value);
  if (magnitude > std::numeric_limits<double>::epsilon()) {
    const int exponent = static_cast<int>(std::log10(magnitude));  // truncated, as Python's int()
    if (exponent >= -4 && exponent < precision) precision += exponent + 1;
  }
  std::string out = Printf("%.*g", precision, value);
  if (!decimal_separator.empty()) ReplaceAll(&out, '.', decimal_separator);
  return out;
}

std::string FormatCopyTimestamp(int64_t millis, const std::string& format) {
  const int64_t days = millis >= 0 ? millis / 86400000 : (millis - 86399999) / 86400000;
  const int64_t ms_of_day = millis - days * 86400000;
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  if (year < 1 || year > 9999) return std::to_string(millis);
  std::tm tm{};
  tm.tm_year = static_cast<int>(year - 1900);
  tm.tm_mon = static_cast<int>(month - 1);
  tm.tm_mday = static_cast<int>(day);
  tm.tm_hour = static_cast<int>(ms_of_day / 3600000);
  tm.tm_min = static_cast<int>(ms_of_day / 60000 % 60);
  tm.tm_sec = static_cast<int>(ms_of_day / 1000 % 60);
  tm.tm_wday = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
  tm.tm_yday = static_cast<int>(days - DaysFromCivil(year, 1, 1));
  tm.tm_gmtoff = 0;
  tm.tm_zone = "UTC";
  // %f (microseconds) is Python's, not C's: it is expanded before strftime.
  std::string expanded;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '%' && i + 1 < format.size()) {
      if (format[i + 1] == 'f') {
        char micros[16];
        std::snprintf(micros, sizeof(micros), "%06lld",
                      static_cast<long long>(ms_of_day % 1000 * 1000));
        expanded += micros;
      } else {
        expanded += format.substr(i, 2);
      }
      ++i;
      continue;
    }
    expanded.push_back(format[i]);
  }
  if (expanded.empty()) return "";
  std::vector<char> buffer(expanded.size() * 8 + 64);
  const size_t length = std::strftime(buffer.data(), buffer.size(), expanded.c_str(), &tm);
  return RoundMicroseconds(std::string(buffer.data(), length));
}

std::string FormatCopyValue(const ValueView& value, const CopyValueFormat& format) {
  if (value.is_null()) return format.null_text;
  return Format(value.type(), value.bytes(), format, false);
}

}  // namespace cassette::tools
