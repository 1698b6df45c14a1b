#include "tools/copy_value_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "engine/types/calendar.h"
#include "engine/types/temporal_text.h"
#include "engine/types/type_codec.h"
#include "engine/types/uuid_text.h"

namespace cassette::tools {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

std::string_view Strip(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string RemoveAll(std::string_view text, const std::string& part) {
  std::string out(text);
  if (part.empty()) return out;
  for (size_t at = out.find(part); at != std::string::npos; at = out.find(part, at)) {
    out.erase(at, part.size());
  }
  return out;
}

std::string ReplaceAll(std::string_view text, const std::string& from, const std::string& to) {
  std::string out(text);
  if (from.empty() || from == to) return out;
  for (size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size())) {
    out.replace(at, from.size(), to);
  }
  return out;
}

// Python's int() text: blanks around, a sign, digits with single
// underscores between them. The canonical digits, or nullopt.
std::optional<std::string> PythonIntText(std::string_view text) {
  text = Strip(text);
  std::string out;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    if (text[0] == '-') out.push_back('-');
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '_' && i > 0 && i + 1 < text.size() && IsDigit(text[i - 1]) &&
        IsDigit(text[i + 1])) {
      continue;
    }
    if (!IsDigit(text[i])) return std::nullopt;
    out.push_back(text[i]);
  }
  return out;
}

// Python's float() text to the spelling ParseLiteral reads: nan, inf and
// infinity in any case become NaN and Infinity.
std::string PythonFloatText(std::string_view text) {
  text = Strip(text);
  std::string sign;
  std::string_view body = text;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    sign = body[0] == '-' ? "-" : "";
    body.remove_prefix(1);
  }
  const std::string lower = Lower(body);
  if (lower == "nan") return "NaN";
  if (lower == "inf" || lower == "infinity") return sign + "Infinity";
  return RemoveAll(text, "_");
}

// Python's datetime.strptime for the directives DATETIMEFORMAT uses; the
// instant in milliseconds (UTC when the format has no zone), or nullopt.
std::optional<int64_t> StrptimeMillis(std::string_view text, std::string_view format) {
  int64_t year = 1900, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  int64_t offset_seconds = 0;
  size_t at = 0;
  auto number = [&](size_t min_digits, size_t max_digits, int64_t* out) {
    size_t n = 0;
    int64_t value = 0;
    while (at < text.size() && n < max_digits && IsDigit(text[at])) {
      value = value * 10 + (text[at++] - '0');
      ++n;
    }
    *out = value;
    return n >= min_digits;
  };
  for (size_t i = 0; i < format.size(); ++i) {
    const char f = format[i];
    if (IsSpace(f)) {
      while (at < text.size() && IsSpace(text[at])) ++at;
      continue;
    }
    if (f != '%' || i + 1 >= format.size()) {
      if (at >= text.size() || text[at] != f) return std::nullopt;
      ++at;
      continue;
    }
    const char directive = format[++i];
    bool ok = true;
    switch (directive) {
      case 'Y':
        ok = number(4, 4, &year);
        break;
      case 'y':
        ok = number(2, 2, &year);
        year += year < 69 ? 2000 : 1900;
        break;
      case 'm':
        ok = number(1, 2, &month);
        break;
      case 'd':
        ok = number(1, 2, &day);
        break;
      case 'H':
        ok = number(1, 2, &hour);
        break;
      case 'M':
        ok = number(1, 2, &minute);
        break;
      case 'S':
        ok = number(1, 2, &second);
        break;
      case 'f': {
        const size_t start = at;
        ok = number(1, 6, &micros);
        for (size_t n = at - start; n < 6; ++n) micros *= 10;
        break;
      }
      case 'z': {
        if (at < text.size() && text[at] == 'Z') {
          ++at;
          break;
        }
        if (at >= text.size() || (text[at] != '+' && text[at] != '-')) return std::nullopt;
        const int64_t sign = text[at++] == '-' ? -1 : 1;
        int64_t hh = 0, mm = 0;
        ok = number(2, 2, &hh);
        if (ok && at < text.size() && text[at] == ':') ++at;
        ok = ok && number(2, 2, &mm);
        offset_seconds = sign * (hh * 3600 + mm * 60);
        break;
      }
      case 'Z': {
        const std::string_view rest = text.substr(at);
        if (rest.substr(0, 3) == "UTC" || rest.substr(0, 3) == "GMT") {
          at += 3;
        } else {
          return std::nullopt;
        }
        break;
      }
      case '%':
        ok = at < text.size() && text[at++] == '%';
        break;
      default:
        return std::nullopt;  // a directive cassette does not read
    }
    if (!ok) return std::nullopt;
  }
  if (at != text.size() || month < 1 || month > 12 || day < 1 ||
      day > static_cast<int64_t>(DaysInMonth(year, static_cast<unsigned>(month))) || hour > 23 ||
      minute > 59 || second > 61) {
    return std::nullopt;
  }
  const int64_t days =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return seconds * 1000 + micros / 1000;
}

Result<std::string> ParseText(const DataType& type, std::string_view text,
                              const CopyValueFormat& format);

// copyutil.py's split(): the parts of "(a, b)", "[..]" or "{..}" between
// top-level separators, ignoring separators inside quotes or brackets.
Result<std::vector<std::string_view>> SplitComposite(std::string_view text, char separator) {
  auto pair = [](char open, char close) {
    return (open == '{' && close == '}') || (open == '[' && close == ']') ||
           (open == '(' && close == ')');
  };
  if (text.size() < 2 || !pair(text.front(), text.back())) {
    return Status::InvalidRequest(
        "Invalid composite string, it should start and end with matching parentheses: " +
        std::string(text));
  }
  std::vector<std::string_view> parts;
  size_t last = 1;
  int level = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'') {
      quoted = !quoted;
    } else if (!quoted) {
      if (c == '{' || c == '[' || c == '(') {
        ++level;
      } else if (c == '}' || c == ']' || c == ')') {
        --level;
      } else if (c == separator && level == 1) {
        parts.push_back(text.substr(last, i - last));
        last = i + 1;
      }
    }
  }
  if (last < text.size() - 1) parts.push_back(text.substr(last, text.size() - 1 - last));
  return parts;
}

// cqlsh's dequote_value: blanks stripped, then 'quoted' text unquoted.
std::string Dequote(std::string_view text) {
  text = Strip(text);
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
    return ReplaceAll(text.substr(1, text.size() - 2), "''", "'");
  }
  return std::string(text);
}

// An element of a collection or tuple (convert_mandatory): no nulls.
Result<std::string> ParseElement(const DataType& type, std::string_view raw,
                                 const CopyValueFormat& format) {
  const std::string text = Dequote(raw);
  if (text == format.null_text && type.kind() != TypeKind::kText) {
    return Status::InvalidRequest("Empty values are not allowed");
  }
  return ParseText(type, text, format);
}

Result<std::string> ParseComposite(const DataType& type, std::string_view text,
                                   const CopyValueFormat& format) {
  CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string_view> parts, SplitComposite(text, ','));
  if (type.kind() == TypeKind::kTuple) {
    std::vector<std::optional<std::string>> components;
    for (size_t i = 0; i < parts.size() && i < type.params().size(); ++i) {
      if (Lower(Strip(parts[i])) == "null") {
        components.emplace_back();  // as cassette writes a null component
        continue;
      }
      CASSETTE_ASSIGN_OR_RETURN(std::string bytes,
                                ParseElement(type.params()[i], parts[i], format));
      components.emplace_back(std::move(bytes));
    }
    return SerializeTuple(components);
  }
  if (type.kind() == TypeKind::kUdt) {  // {f: v, g: null}: fields by name, missing ones null
    std::vector<std::optional<std::string>> fields(type.params().size());
    for (std::string_view entry : parts) {
      const std::string wrapped = "{" + std::string(entry) + "}";
      CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string_view> name_value,
                                SplitComposite(wrapped, ':'));
      if (name_value.size() != 2) {
        return Status::InvalidRequest("Invalid user type field: " + std::string(Strip(entry)));
      }
      const std::string name = Lower(Strip(name_value[0]));
      const std::vector<std::string>& names = type.field_names();
      const auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        return Status::InvalidRequest("Unknown field '" + name + "' in value of user type " +
                                      type.ToString());
      }
      const size_t index = static_cast<size_t>(it - names.begin());
      if (Lower(Strip(name_value[1])) == "null") continue;
      CASSETTE_ASSIGN_OR_RETURN(std::string bytes,
                                ParseElement(type.params()[index], name_value[1], format));
      fields[index] = std::move(bytes);
    }
    return SerializeTuple(fields);
  }
  if (type.kind() == TypeKind::kMap) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (std::string_view entry : parts) {
      const std::string wrapped = "{" + std::string(entry) + "}";
      CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string_view> key_value,
                                SplitComposite(wrapped, ':'));
      if (key_value.size() != 2) {
        return Status::InvalidRequest("Invalid map entry: " + std::string(Strip(entry)));
      }
      CASSETTE_ASSIGN_OR_RETURN(std::string key,
                                ParseElement(type.params()[0], key_value[0], format));
      CASSETTE_ASSIGN_OR_RETURN(std::string value,
                                ParseElement(type.params()[1], key_value[1], format));
      entries.emplace_back(std::move(key), std::move(value));
    }
    // Sorted by key, the last of equal keys kept, as Cassandra builds a map.
    std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
      return CompareValues(type.params()[0], a.first, b.first) < 0;
    });
    std::vector<std::pair<std::string, std::string>> unique;
    for (auto& entry : entries) {
      if (!unique.empty() &&
          CompareValues(type.params()[0], unique.back().first, entry.first) == 0) {
        unique.back() = std::move(entry);
      } else {
        unique.push_back(std::move(entry));
      }
    }
    return SerializeMap(unique);
  }
  std::vector<std::string> elements;
  for (std::string_view part : parts) {
    CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseElement(type.params()[0], part, format));
    elements.push_back(std::move(bytes));
  }
  if (type.kind() == TypeKind::kSet) {
    const DataType& element = type.params()[0];
    std::sort(elements.begin(), elements.end(), [&](const std::string& a, const std::string& b) {
      return CompareValues(element, a, b) < 0;
    });
    elements.erase(std::unique(elements.begin(), elements.end(),
                               [&](const std::string& a, const std::string& b) {
                                 return CompareValues(element, a, b) == 0;
                               }),
                   elements.end());
  }
  return SerializeCollection(elements);
}

Result<std::string> ParseTimestamp(std::string_view text, const CopyValueFormat& format) {
  if (std::optional<int64_t> millis = StrptimeMillis(text, format.datetime_format)) {
    return ParseLiteral(DataType::Timestamp(), std::to_string(*millis));
  }
  int64_t millis = 0;
  if (ParseTimestampText(text, &millis))
    return ParseLiteral(DataType::Timestamp(), std::to_string(millis));
  // COPY TO writes the millisecond count for years outside 1..9999.
  if (std::optional<std::string> digits = PythonIntText(text)) {
    return ParseLiteral(DataType::Timestamp(), *digits);
  }
  return Status::InvalidRequest("can't interpret '" + std::string(text) +
                                "' as a date with format " + format.datetime_format + " or as int");
}

Result<std::string> ParseText(const DataType& type, std::string_view text,
                              const CopyValueFormat& format) {
  switch (type.kind()) {
    case TypeKind::kText:
    case TypeKind::kAscii: {
      std::string bytes(text);
      CASSETTE_RETURN_IF_ERROR(ValidateValue(type, bytes));
      return bytes;
    }
    case TypeKind::kBoolean: {
      const std::string lower = Lower(text);
      if (lower == Lower(format.true_text)) return std::string(1, '\1');
      if (lower == Lower(format.false_text)) return std::string(1, '\0');
      return Status::InvalidRequest("'" + std::string(text) + "' is neither " + format.true_text +
                                    " nor " + format.false_text + " (BOOLSTYLE)");
    }
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kVarint: {
      const std::string plain = RemoveAll(text, format.thousands_separator);
      std::optional<std::string> digits = PythonIntText(plain);
      if (!digits) {
        return Status::InvalidRequest("invalid literal for int() with base 10: '" + plain + "'");
      }
      return ParseLiteral(type, *digits);
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kDecimal: {
      std::string plain = RemoveAll(text, format.thousands_separator);
      if (!format.decimal_separator.empty())
        plain = ReplaceAll(plain, format.decimal_separator, ".");
      return ParseLiteral(type, PythonFloatText(plain));
    }
    case TypeKind::kTimestamp:
      return ParseTimestamp(text, format);
    case TypeKind::kDate: {
      // COPY TO writes the day count (from 1970) for years outside 1..9999.
      if (std::optional<std::string> digits = PythonIntText(text)) {
        int64_t days = 0;
        std::from_chars(digits->data(), digits->data() + digits->size(), days);
        const int64_t unsigned_days = days + (int64_t{1} << 31);
        if (unsigned_days < 0 || unsigned_days > UINT32_MAX) {
          return Status::InvalidRequest("day count " + *digits + " out of range");
        }
        return ParseLiteral(type, std::to_string(unsigned_days));
      }
      return ParseLiteral(type, Strip(text));
    }
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid: {
      // Python's UUID(): braces, a urn:uuid: prefix and missing hyphens.
      std::string hex = Lower(Strip(text));
      if (hex.rfind("urn:uuid:", 0) == 0) hex.erase(0, 9);
      hex = RemoveAll(RemoveAll(RemoveAll(hex, "{"), "}"), "-");
      if (hex.size() != 32) return Status::InvalidRequest("badly formed hexadecimal UUID string");
      const std::string canonical = hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" +
                                    hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
                                    hex.substr(20);
      return ParseLiteral(type, canonical);
    }
    case TypeKind::kBlob:
      if (text.size() < 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) {
        return Status::InvalidRequest("a blob is written 0x followed by hexadecimal digits");
      }
      return ParseLiteral(type, text);
    case TypeKind::kTime:
    case TypeKind::kInet:
    case TypeKind::kDuration:
      return ParseLiteral(type, Strip(text));
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return ParseComposite(type, text, format);
  }
  return Status::InvalidRequest("unknown type " + type.ToString());
}

}  // namespace

Result<Value> ParseCopyField(const DataType& type, const std::string& field,
                             const CopyValueFormat& format) {
  if (field == format.null_text) return Value::Null(type);
  Result<std::string> bytes = ParseText(type, field, format);
  if (!bytes.ok()) {
    // cqlsh: an empty field that does not convert is null (CASSANDRA-12794).
    if (field.empty()) return Value::Null(type);
    return bytes.status();
  }
  return Value::FromBytes(type, std::move(*bytes));
}

Result<std::vector<Value>> ParseCopyRecord(const std::vector<const ColumnDefinition*>& columns,
                                           const std::vector<std::string>& fields,
                                           const CopyValueFormat& format) {
  if (fields.size() != columns.size()) {
    return Status::InvalidRequest("Invalid row length " + std::to_string(fields.size()) +
                                  " should be " + std::to_string(columns.size()));
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnKind kind = columns[i]->kind;
    if ((kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering) &&
        fields[i] == format.null_text) {
      std::string message =
          "Cannot insert null value for primary key column '" + columns[i]->name + "'.";
      if (format.null_text.empty()) {
        message +=
            " If you want to insert empty strings, consider using the WITH NULL=<marker> option "
            "for COPY.";
      }
      return Status::InvalidRequest(message);
    }
  }
  std::vector<Value> values;
  values.reserve(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    Result<Value> value = ParseCopyField(columns[i]->type, fields[i], format);
    if (!value.ok()) {
      return Status::InvalidRequest("Failed to parse " + fields[i] + " : " +
                                    value.status().message());
    }
    values.push_back(std::move(*value));
  }
  return values;
}

}  // namespace cassette::tools
