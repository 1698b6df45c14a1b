#include "engine/cql/json_insert.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "engine/types/type_codec.h"

namespace cassette::cql {

namespace {

struct JsonValue {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // number as written, or string content
  std::vector<JsonValue> items;
  // Object members in order: names[i] -> items[i] (arrays use items only).
  std::vector<std::string> names;
};

// A strict JSON reader (RFC 8259) over one document.
class JsonReader {
 public:
  explicit JsonReader(std::string_view in) : in_(in) {}

  Result<JsonValue> ReadDocument() {
    CASSETTE_ASSIGN_OR_RETURN(JsonValue value, ReadValue(0));
    SkipSpace();
    if (pos_ != in_.size()) return Error("unexpected character after the value");
    return value;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidRequest(what + " at character " + std::to_string(pos_ + 1));
  }

  void SkipSpace() {
    while (pos_ < in_.size() &&
           (in_[pos_] == ' ' || in_[pos_] == '\t' || in_[pos_] == '\n' || in_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Result<JsonValue> ReadValue(int depth) {
    if (depth > 256) return Error("nesting too deep");
    SkipSpace();
    if (pos_ >= in_.size()) return Error("unexpected end of input");
    JsonValue value;
    const char c = in_[pos_];
    if (c == '{') return ReadObject(depth);
    if (c == '[') return ReadArray(depth);
    if (c == '"') {
      value.kind = JsonValue::Kind::kString;
      CASSETTE_ASSIGN_OR_RETURN(value.text, ReadString());
      return value;
    }
    if (Consume("true") || Consume("false")) {
      value.kind = JsonValue::Kind::kBool;
      value.boolean = in_[pos_ - 2] == 'u';  // tr[u]e, fal[s]e
      return value;
    }
    if (Consume("null")) return value;
    if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
    return Error(std::string("unexpected character '") + c + "'");
  }

  Result<JsonValue> ReadNumber() {
    const size_t start = pos_;
    if (in_[pos_] == '-') ++pos_;
    const size_t digits = pos_;
    while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
    if (pos_ == digits) return Error("invalid number");
    if (pos_ < in_.size() && in_[pos_] == '.') {
      ++pos_;
      const size_t fraction = pos_;
      while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
      if (pos_ == fraction) return Error("invalid number");
    }
    if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
      const size_t exponent = pos_;
      while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
      if (pos_ == exponent) return Error("invalid number");
    }
    JsonValue value;
    value.kind = JsonValue::Kind::kNumber;
    value.text = std::string(in_.substr(start, pos_ - start));
    return value;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Result<uint32_t> ReadHex4() {
    if (pos_ + 4 > in_.size()) return Error("invalid \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = in_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') {
        v |= static_cast<uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        v |= static_cast<uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        v |= static_cast<uint32_t>(h - 'A' + 10);
      } else {
        return Error("invalid \\u escape");
      }
    }
    return v;
  }

  Result<std::string> ReadString() {
    ++pos_;  // the opening quote
    std::string out;
    while (pos_ < in_.size()) {
      const char c = in_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= in_.size()) break;
      const char e = in_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(e);
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          CASSETTE_ASSIGN_OR_RETURN(uint32_t cp, ReadHex4());
          if (cp >= 0xD800 && cp < 0xDC00 && Consume("\\u")) {
            CASSETTE_ASSIGN_OR_RETURN(uint32_t low, ReadHex4());
            if (low < 0xDC00 || low > 0xDFFF) return Error("invalid surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, &out);
          break;
        }
        default:
          return Error(std::string("invalid escape '\\") + e + "'");
      }
    }
    return Error("unterminated string");
  }

  Result<JsonValue> ReadArray(int depth) {
    ++pos_;
    JsonValue value;
    value.kind = JsonValue::Kind::kArray;
    SkipSpace();
    if (Consume("]")) return value;
    while (true) {
      CASSETTE_ASSIGN_OR_RETURN(JsonValue item, ReadValue(depth + 1));
      value.items.push_back(std::move(item));
      SkipSpace();
      if (Consume("]")) return value;
      if (!Consume(",")) return Error("expected ',' or ']'");
    }
  }

  Result<JsonValue> ReadObject(int depth) {
    ++pos_;
    JsonValue value;
    value.kind = JsonValue::Kind::kObject;
    SkipSpace();
    if (Consume("}")) return value;
    while (true) {
      SkipSpace();
      if (pos_ >= in_.size() || in_[pos_] != '"') return Error("expected a field name");
      CASSETTE_ASSIGN_OR_RETURN(std::string name, ReadString());
      SkipSpace();
      if (!Consume(":")) return Error("expected ':'");
      CASSETTE_ASSIGN_OR_RETURN(JsonValue member, ReadValue(depth + 1));
      value.names.push_back(std::move(name));
      value.items.push_back(std::move(member));
      SkipSpace();
      if (Consume("}")) return value;
      if (!Consume(",")) return Error("expected ',' or '}'");
    }
  }

  std::string_view in_;
  size_t pos_ = 0;
};

bool IsTextual(const DataType& type) {
  return type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii;
}

// The Java class Jackson would have produced, for Cassandra's messages.
std::string JavaClass(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return "Boolean";
    case JsonValue::Kind::kNumber: {
      if (v.text.find_first_of(".eE") != std::string::npos) return "Double";
      const bool small = v.text.size() < 10 || (v.text.size() == 10 && v.text[0] == '-');
      return small ? "Integer" : "Long";
    }
    case JsonValue::Kind::kString:
      return "String";
    case JsonValue::Kind::kArray:
      return "ArrayList";
    case JsonValue::Kind::kObject:
      return "LinkedHashMap";
  }
  return "Object";
}

std::string JsonText(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return v.boolean ? "true" : "false";
    case JsonValue::Kind::kNumber:
    case JsonValue::Kind::kString:
      return v.text;
    case JsonValue::Kind::kArray: {
      std::string text = "[";
      for (size_t i = 0; i < v.items.size(); ++i) text += (i ? ", " : "") + JsonText(v.items[i]);
      return text + "]";
    }
    case JsonValue::Kind::kObject: {
      std::string text = "{";
      for (size_t i = 0; i < v.names.size(); ++i) {
        text += (i ? ", " : "") + v.names[i] + "=" + JsonText(v.items[i]);
      }
      return text + "}";
    }
  }
  return "";
}

std::string Quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

Result<Value> FromJson(const DataType& type, const JsonValue& json);

Result<Value> FromJsonCollection(const DataType& type, const JsonValue& json) {
  if (json.kind == JsonValue::Kind::kString) {
    // A collection given as a string holds the JSON of the collection.
    CASSETTE_ASSIGN_OR_RETURN(JsonValue inner, JsonReader(json.text).ReadDocument());
    if (inner.kind == JsonValue::Kind::kString) {
      return Status::InvalidRequest("Expected a " + type.ToString() +
                                    ", but got a String: " + json.text);
    }
    return FromJsonCollection(type, inner);
  }
  const TypeKind kind = type.kind();
  if (kind == TypeKind::kUdt) {  // UserType.fromJSONObject: fields by name, missing ones null
    if (json.kind != JsonValue::Kind::kObject) {
      return Status::InvalidRequest("Expected a map, but got a " + JavaClass(json) + ": " +
                                    JsonText(json));
    }
    std::vector<std::optional<std::string>> fields(type.params().size());
    for (size_t m = 0; m < json.names.size(); ++m) {
      std::string name = json.names[m];
      if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
        name = name.substr(1, name.size() - 2);
      } else {
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      const int field = type.FieldIndex(name);
      if (field < 0) {
        return Status::InvalidRequest("Unknown field '" + name +
                                      "' in value of user defined type " + type.udt_name());
      }
      const size_t index = static_cast<size_t>(field);
      CASSETTE_ASSIGN_OR_RETURN(Value v, FromJson(type.params()[index], json.items[m]));
      if (!v.is_null()) fields[index] = v.bytes();
    }
    return Value::FromBytes(type, SerializeTuple(fields));
  }
  if (kind == TypeKind::kMap) {
    if (json.kind != JsonValue::Kind::kObject) {
      return Status::InvalidRequest("Expected a map, but got a " + JavaClass(json) + ": " +
                                    JsonText(json));
    }
    std::vector<std::pair<Value, Value>> entries;
    for (size_t m = 0; m < json.names.size(); ++m) {
      const std::string& name = json.names[m];
      const JsonValue& member = json.items[m];
      JsonValue key;
      key.kind = JsonValue::Kind::kString;
      key.text = name;
      if (!IsTextual(type.params()[0])) {
        // Non-text keys are written as the JSON of the key ("1", "true").
        Result<JsonValue> parsed = JsonReader(name).ReadDocument();
        if (parsed.ok()) key = std::move(*parsed);
      }
      CASSETTE_ASSIGN_OR_RETURN(Value k, FromJson(type.params()[0], key));
      if (k.is_null()) return Status::InvalidRequest("Invalid null key in map");
      CASSETTE_ASSIGN_OR_RETURN(Value v, FromJson(type.params()[1], member));
      if (v.is_null()) return Status::InvalidRequest("Invalid null value in map");
      entries.emplace_back(std::move(k), std::move(v));
    }
    Value map = Value::Map(type.params()[0], type.params()[1], entries);
    return Value::FromBytes(type, map.bytes());
  }
  if (json.kind != JsonValue::Kind::kArray) {
    return Status::InvalidRequest(std::string("Expected a ") +
                                  (kind == TypeKind::kSet    ? "set"
                                   : kind == TypeKind::kList ? "list"
                                                             : "tuple") +
                                  ", but got a " + JavaClass(json) + ": " + JsonText(json));
  }
  if (kind == TypeKind::kTuple) {
    if (json.items.size() > type.params().size()) {
      return Status::InvalidRequest("Tuple contains extra items (expected " +
                                    std::to_string(type.params().size()) + ", got " +
                                    std::to_string(json.items.size()) + ")");
    }
    std::vector<std::optional<std::string>> components;
    for (size_t i = 0; i < type.params().size(); ++i) {
      if (i >= json.items.size()) {
        components.emplace_back(std::nullopt);
        continue;
      }
      CASSETTE_ASSIGN_OR_RETURN(Value v, FromJson(type.params()[i], json.items[i]));
      components.push_back(v.is_null() ? std::nullopt : std::optional<std::string>(v.bytes()));
    }
    return Value::FromBytes(type, SerializeTuple(components));
  }
  std::vector<Value> elements;
  for (const JsonValue& item : json.items) {
    CASSETTE_ASSIGN_OR_RETURN(Value v, FromJson(type.params()[0], item));
    if (v.is_null()) {
      return Status::InvalidRequest(std::string("Invalid null element in ") +
                                    (kind == TypeKind::kSet ? "set" : "list"));
    }
    elements.push_back(std::move(v));
  }
  Value collection = kind == TypeKind::kSet ? Value::Set(type.params()[0], elements)
                                            : Value::List(type.params()[0], elements);
  return Value::FromBytes(type, collection.bytes());
}

Result<Value> FromJson(const DataType& type, const JsonValue& json) {
  if (json.kind == JsonValue::Kind::kNull) return Value::Null(type);
  if (type.IsCollection() || type.kind() == TypeKind::kTuple || type.kind() == TypeKind::kUdt) {
    return FromJsonCollection(type, json);
  }
  switch (type.kind()) {
    case TypeKind::kText:
    case TypeKind::kAscii:
      if (json.kind != JsonValue::Kind::kString) {
        return Status::InvalidRequest(
            std::string("Expected ") +
            (type.kind() == TypeKind::kText ? "a UTF-8 string" : "an ascii string") +
            ", but got a " + JavaClass(json) + ": " + JsonText(json));
      }
      if (type.kind() == TypeKind::kText) return Value::Text(json.text);
      return Value::Parse(type, Quoted(json.text));
    case TypeKind::kBoolean:
      if (json.kind == JsonValue::Kind::kBool) return Value::Boolean(json.boolean);
      if (json.kind == JsonValue::Kind::kString) return Value::Parse(type, json.text);
      return Status::InvalidRequest("Expected a boolean value, but got a " + JavaClass(json) +
                                    ": " + JsonText(json));
    case TypeKind::kBlob:
      if (json.kind != JsonValue::Kind::kString) {
        return Status::InvalidRequest("Expected a string representation of bytes, but got a " +
                                      JavaClass(json) + ": " + JsonText(json));
      }
      if (json.text.size() < 2 || json.text[0] != '0' ||
          (json.text[1] != 'x' && json.text[1] != 'X')) {
        return Status::InvalidRequest("String representation of blob is missing 0x prefix: " +
                                      json.text);
      }
      if (json.text.size() % 2 == 1) {
        // BytesType.fromJSONObject: Hex.hexToBytes refuses an odd digit
        // count, and the MarshalException is wrapped.
        return Status::InvalidRequest("Value '" + json.text +
                                      "' is not a valid blob representation: cannot parse '" +
                                      json.text.substr(2) + "' as hex bytes");
      }
      return Value::Parse(type, json.text);
    default:
      break;
  }
  if (json.kind == JsonValue::Kind::kNumber) return Value::Parse(type, json.text);
  if (json.kind == JsonValue::Kind::kString) return Value::Parse(type, Quoted(json.text));
  return Status::InvalidRequest("Expected a " + type.ToString() + " value, but got a " +
                                JavaClass(json) + ": " + JsonText(json));
}

}  // namespace

Result<Value> ParseJsonValue(std::string_view json, const DataType& type, bool* malformed) {
  Result<JsonValue> document = JsonReader(json).ReadDocument();
  *malformed = !document.ok();
  if (!document.ok()) return document.status();
  return FromJson(type, *document);
}

Result<std::map<std::string, Value>> ParseInsertJson(std::string_view json,
                                                     const TableSchema& schema) {
  Result<JsonValue> document = JsonReader(json).ReadDocument();
  if (!document.ok()) {
    return Status::InvalidRequest(
        "Could not decode JSON string as a map: " + document.status().message() +
        ". (String was: " + std::string(json) + ")");
  }
  if (document->kind == JsonValue::Kind::kNull) {
    return Status::InvalidRequest("Got null for INSERT JSON values");
  }
  if (document->kind != JsonValue::Kind::kObject) {
    return Status::InvalidRequest(
        "Could not decode JSON string as a map: expected an object, got " + JsonText(*document) +
        ". (String was: " + std::string(json) + ")");
  }
  std::map<std::string, Value> values;
  for (size_t m = 0; m < document->names.size(); ++m) {
    const std::string& raw_name = document->names[m];
    const JsonValue& member = document->items[m];
    std::string name = raw_name;
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);  // "\"Name\"" keeps its case
    } else {
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const ColumnDefinition* column = schema.Find(name);
    if (column == nullptr) {
      return Status::InvalidRequest("JSON values map contains unrecognized column: " + name);
    }
    Result<Value> value = FromJson(column->type, member);
    if (!value.ok()) {
      return Status::InvalidRequest("Error decoding JSON value for " + name + ": " +
                                    value.status().message());
    }
    values[name] = std::move(*value);
  }
  return values;
}

}  // namespace cassette::cql
