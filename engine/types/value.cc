// Value: factories build Cassandra's serialized form; accessors read it back.
#include "cassette/value.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/types/collection_format.h"
#include "engine/types/cql_duration.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

std::string BigEndian(uint64_t v, int bytes) {
  std::string out(static_cast<size_t>(bytes), '\0');
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<char>(v >> (8 * (bytes - 1 - i)));
  return out;
}

int64_t SignedBE(std::string_view v) {
  if (v.empty() || v.size() > 8) return 0;
  uint64_t u = 0;
  for (char c : v) u = (u << 8) | static_cast<uint8_t>(c);
  int shift = 64 - 8 * static_cast<int>(v.size());
  return static_cast<int64_t>(u << shift) >> shift;
}

}  // namespace

Result<Value> Value::Parse(const DataType& type, std::string_view literal) {
  CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseLiteral(type, literal));
  return FromBytes(type, std::move(bytes));
}

Value Value::Ascii(std::string_view s) { return FromBytes(DataType::Ascii(), std::string(s)); }
Value Value::Bigint(int64_t v) { return FromBytes(DataType::Bigint(), BigEndian(v, 8)); }
Value Value::Blob(std::string_view bytes) {
  return FromBytes(DataType::Blob(), std::string(bytes));
}
Value Value::Boolean(bool v) { return FromBytes(DataType::Boolean(), std::string(1, v ? 1 : 0)); }
Value Value::Counter(int64_t v) { return FromBytes(DataType::Counter(), BigEndian(v, 8)); }
Value Value::Date(int32_t days_since_epoch) {
  uint32_t raw = static_cast<uint32_t>(days_since_epoch) ^ 0x80000000u;  // + 2^31
  return FromBytes(DataType::Date(), BigEndian(raw, 4));
}
Value Value::Double(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return FromBytes(DataType::Double(), BigEndian(bits, 8));
}
Value Value::Duration(int32_t months, int32_t days, int64_t nanoseconds) {
  return FromBytes(DataType::Duration(), SerializeDuration(months, days, nanoseconds));
}
Value Value::Float(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return FromBytes(DataType::Float(), BigEndian(bits, 4));
}
Value Value::Int(int32_t v) {
  return FromBytes(DataType::Int(), BigEndian(static_cast<uint32_t>(v), 4));
}
Value Value::Smallint(int16_t v) {
  return FromBytes(DataType::Smallint(), BigEndian(static_cast<uint16_t>(v), 2));
}
Value Value::Text(std::string_view s) { return FromBytes(DataType::Text(), std::string(s)); }
Value Value::Time(int64_t nanos) {
  return FromBytes(DataType::Time(), BigEndian(static_cast<uint64_t>(nanos), 8));
}
Value Value::Timestamp(int64_t millis) {
  return FromBytes(DataType::Timestamp(), BigEndian(static_cast<uint64_t>(millis), 8));
}
Value Value::Timeuuid(const UuidBytes& bytes) {
  return FromBytes(DataType::Timeuuid(),
                   std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}
Value Value::Tinyint(int8_t v) {
  return FromBytes(DataType::Tinyint(), std::string(1, static_cast<char>(v)));
}
Value Value::Uuid(const UuidBytes& bytes) {
  return FromBytes(DataType::Uuid(),
                   std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Value Value::List(const DataType& element, const std::vector<Value>& elements) {
  // A null element (only results hold one: TTL of a list) is length -1.
  std::string bytes;
  PutBigEndian32(&bytes, static_cast<uint32_t>(elements.size()));
  for (const Value& e : elements) {
    if (e.is_null()) {
      PutBigEndian32(&bytes, 0xffffffffu);
    } else {
      AppendValue(&bytes, e.bytes());
    }
  }
  return FromBytes(DataType::List(element), std::move(bytes));
}

Value Value::Set(const DataType& element, const std::vector<Value>& elements) {
  std::vector<std::string> bytes;
  for (const Value& e : elements) bytes.push_back(e.bytes());
  // Sets are stored sorted and without duplicates, as Cassandra stores them.
  std::sort(bytes.begin(), bytes.end(), [&](const std::string& a, const std::string& b) {
    return CompareValues(element, a, b) < 0;
  });
  bytes.erase(std::unique(bytes.begin(), bytes.end(),
                          [&](const std::string& a, const std::string& b) {
                            return CompareValues(element, a, b) == 0;
                          }),
              bytes.end());
  return FromBytes(DataType::Set(element), SerializeCollection(bytes));
}

Value Value::Map(const DataType& key, const DataType& value,
                 const std::vector<std::pair<Value, Value>>& entries) {
  std::vector<std::pair<std::string, std::string>> bytes;
  for (const auto& [k, v] : entries) bytes.emplace_back(k.bytes(), v.bytes());
  std::stable_sort(bytes.begin(), bytes.end(), [&](const auto& a, const auto& b) {
    return CompareValues(key, a.first, b.first) < 0;
  });
  std::vector<std::pair<std::string, std::string>> unique;
  for (auto& e : bytes) {
    if (!unique.empty() && CompareValues(key, unique.back().first, e.first) == 0) {
      unique.back() = std::move(e);  // the last duplicate wins
    } else {
      unique.push_back(std::move(e));
    }
  }
  return FromBytes(DataType::Map(key, value), SerializeMap(unique));
}

const DataType& ValueView::type() const {
  static const DataType kUnspecified;
  return type_ != nullptr ? *type_ : kUnspecified;
}

int64_t ValueView::AsInt64() const { return SignedBE(bytes_); }

int32_t ValueView::AsDate() const {
  if (bytes_.size() != 4) return 0;
  return static_cast<int32_t>(DecodeBigEndian32(bytes_.data()) ^ 0x80000000u);
}

double ValueView::AsFloat() const {
  if (bytes_.size() != 4) return 0;
  return std::bit_cast<float>(DecodeBigEndian32(bytes_.data()));
}

bool ValueView::AsBool() const { return !bytes_.empty() && bytes_[0] != 0; }

UuidBytes ValueView::AsUuid() const {
  UuidBytes out{};
  std::memcpy(out.data(), bytes_.data(), std::min(bytes_.size(), out.size()));
  return out;
}

std::vector<Value> Value::Elements() const {
  std::vector<Value> out;
  if (null_) return out;
  if (type_.kind() == TypeKind::kTuple || type_.kind() == TypeKind::kUdt) {
    std::vector<std::optional<std::string_view>> components;
    if (!ReadTuple(bytes_, &components).ok()) return out;
    for (size_t i = 0; i < components.size() && i < type_.params().size(); ++i) {
      out.push_back(components[i].has_value()
                        ? FromBytes(type_.params()[i], std::string(*components[i]))
                        : Null(type_.params()[i]));
    }
    return out;
  }
  if (!type_.IsCollection()) return out;
  bool is_map = type_.kind() == TypeKind::kMap;
  std::vector<std::optional<std::string_view>> values;
  if (!ReadCollectionWithNulls(bytes_, is_map ? 2 : 1, "collection", &values).ok()) return out;
  for (size_t i = 0; i < values.size(); ++i) {
    const DataType& type = type_.params()[is_map ? i % 2 : 0];
    out.push_back(values[i] ? FromBytes(type, std::string(*values[i])) : Null(type));
  }
  return out;
}

std::string ValueView::ToString() const { return null_ ? "null" : FormatValue(type(), bytes_); }

std::string ValueView::ToJson() const { return null_ ? "null" : FormatJson(type(), bytes_); }

Value ValueView::ToValue() const {
  return null_ ? Value::Null(type()) : Value::FromBytes(type(), std::string(bytes_));
}

}  // namespace cassette
