// DataType and Value: CQL types and typed values as the public API sees them.
//
// A Value carries its type and its bytes in Cassandra's serialized form
// (the native protocol encoding: int = 4 bytes big-endian, text = UTF-8,
// timestamp = 8 bytes big-endian milliseconds, ...). The engine stores those
// bytes as they are, so a Value crosses the API without conversion.
// Values are plain, thread-compatible objects.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/status.h"

namespace cassette {

// Do not renumber: stored in the schema file.
enum class TypeKind : uint8_t {
  kAscii = 1,
  kBigint = 2,
  kBlob = 3,
  kBoolean = 4,
  kCounter = 5,
  kDate = 6,
  kDecimal = 7,
  kDouble = 8,
  kDuration = 9,
  kFloat = 10,
  kInet = 11,
  kInt = 12,
  kSmallint = 13,
  kText = 14,  // also "varchar"
  kTime = 15,
  kTimestamp = 16,
  kTimeuuid = 17,
  kTinyint = 18,
  kUuid = 19,
  kVarint = 20,
  kList = 21,
  kSet = 22,
  kMap = 23,
  kTuple = 24,
  kUdt = 25,  // a user-defined type (CREATE TYPE)
};

class DataType {
 public:
  DataType() = default;  // text
  static DataType Of(TypeKind kind) { return DataType(kind, {}, false); }
  static DataType Ascii() { return Of(TypeKind::kAscii); }
  static DataType Bigint() { return Of(TypeKind::kBigint); }
  static DataType Blob() { return Of(TypeKind::kBlob); }
  static DataType Boolean() { return Of(TypeKind::kBoolean); }
  static DataType Counter() { return Of(TypeKind::kCounter); }
  static DataType Date() { return Of(TypeKind::kDate); }
  static DataType Decimal() { return Of(TypeKind::kDecimal); }
  static DataType Double() { return Of(TypeKind::kDouble); }
  static DataType Duration() { return Of(TypeKind::kDuration); }
  static DataType Float() { return Of(TypeKind::kFloat); }
  static DataType Inet() { return Of(TypeKind::kInet); }
  static DataType Int() { return Of(TypeKind::kInt); }
  static DataType Smallint() { return Of(TypeKind::kSmallint); }
  static DataType Text() { return Of(TypeKind::kText); }
  static DataType Time() { return Of(TypeKind::kTime); }
  static DataType Timestamp() { return Of(TypeKind::kTimestamp); }
  static DataType Timeuuid() { return Of(TypeKind::kTimeuuid); }
  static DataType Tinyint() { return Of(TypeKind::kTinyint); }
  static DataType Uuid() { return Of(TypeKind::kUuid); }
  static DataType Varint() { return Of(TypeKind::kVarint); }
  static DataType List(DataType element, bool frozen = false) {
    return DataType(TypeKind::kList, {std::move(element)}, frozen);
  }
  static DataType Set(DataType element, bool frozen = false) {
    return DataType(TypeKind::kSet, {std::move(element)}, frozen);
  }
  static DataType Map(DataType key, DataType value, bool frozen = false) {
    return DataType(TypeKind::kMap, {std::move(key), std::move(value)}, frozen);
  }
  // Tuples are always frozen.
  static DataType Tuple(std::vector<DataType> components) {
    return DataType(TypeKind::kTuple, std::move(components), true);
  }
  // A user-defined type of keyspace `keyspace`: its fields' names and types
  // in declaration order. Non-frozen UDT columns store one cell per field.
  static DataType UserType(std::string keyspace, std::string name,
                           std::vector<std::string> field_names, std::vector<DataType> field_types,
                           bool frozen = false);
  // Parses CQL type syntax: "int", "varchar", "frozen<list<int>>", "map<text, int>".
  // Errors are Cassandra's (SyntaxException / InvalidRequest).
  static Result<DataType> Parse(std::string_view cql);
  // The same, where other names are the user types of keyspace `keyspace`
  // (`user_types`, each a UserType): "address", "frozen<ks.address>".
  static Result<DataType> Parse(std::string_view cql, std::string_view keyspace,
                                const std::vector<DataType>& user_types);

  TypeKind kind() const { return kind_; }
  bool frozen() const { return frozen_; }
  const std::vector<DataType>& params() const { return params_; }
  bool IsCollection() const {
    return kind_ == TypeKind::kList || kind_ == TypeKind::kSet || kind_ == TypeKind::kMap;
  }
  bool IsUserType() const { return kind_ == TypeKind::kUdt; }
  // Non-frozen collections are stored one cell per element, non-frozen
  // user types one cell per field.
  bool IsMultiCell() const { return (IsCollection() || IsUserType()) && !frozen_; }
  // User types only (empty otherwise): keyspace, type name, field names;
  // params() are the field types.
  const std::string& udt_keyspace() const;
  const std::string& udt_name() const;
  const std::vector<std::string>& field_names() const;
  // The position of field `name`, or -1.
  int FieldIndex(std::string_view name) const;
  // Whether this type is, or contains, user type keyspace.name.
  bool References(std::string_view keyspace, std::string_view name) const;
  // This type with every use of user type updated.udt_keyspace().udt_name()
  // replaced by `updated` (frozen where it was): what ALTER TYPE does to
  // the columns and types that use it.
  DataType ReplacingUserType(const DataType& updated) const;
  // Returns the same type marked frozen (recursively for nested collections).
  DataType Frozen() const;
  // CQL spelling: "int", "frozen<list<int>>", "map<text, int>".
  std::string ToString() const;

  friend bool operator==(const DataType& a, const DataType& b) {
    return a.kind_ == b.kind_ && a.frozen_ == b.frozen_ && a.params_ == b.params_ &&
           (a.kind_ != TypeKind::kUdt || SameUserTypeNames(a, b));
  }

 private:
  struct UserTypeNames {
    std::string keyspace;
    std::string name;
    std::vector<std::string> fields;
  };
  DataType(TypeKind kind, std::vector<DataType> params, bool frozen)
      : kind_(kind), frozen_(frozen), params_(std::move(params)) {}
  static bool SameUserTypeNames(const DataType& a, const DataType& b);
  TypeKind kind_ = TypeKind::kText;
  bool frozen_ = false;
  std::vector<DataType> params_;
  // User types: shared, so copying a type stays cheap.
  std::shared_ptr<const UserTypeNames> udt_;
};

using UuidBytes = std::array<uint8_t, 16>;

class Value;

// A value borrowed from somewhere else: a type and serialized bytes that
// the view does not own (a Value's, or a row's inside the engine during a
// streamed read). Same accessors as Value; valid as long as what it points
// into.
class ValueView {
 public:
  ValueView() = default;  // a null value of unspecified type
  ValueView(const DataType& type, std::string_view bytes)
      : type_(&type), null_(false), bytes_(bytes) {}
  static ValueView Null(const DataType& type) {
    ValueView v;
    v.type_ = &type;
    return v;
  }

  bool is_null() const { return null_; }
  // Text for a null of unspecified type.
  const DataType& type() const;
  // Serialized bytes (empty for null).
  std::string_view bytes() const { return bytes_; }

  // Typed accessors. REQUIRES: !is_null() and a matching type kind.
  int64_t AsInt64() const;   // tinyint, smallint, int, bigint, counter, timestamp, time
  int32_t AsDate() const;    // days since epoch
  double AsDouble() const {  // float or double (inline: streamed reads call it per row)
    if (bytes_.size() == 8) {
      // Big-endian bytes to the number, portably: g++ and clang compile the
      // shifts to one load and one byte swap.
      const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data());
      const uint64_t bits = uint64_t{b[0]} << 56 | uint64_t{b[1]} << 48 | uint64_t{b[2]} << 40 |
                            uint64_t{b[3]} << 32 | uint64_t{b[4]} << 24 | uint64_t{b[5]} << 16 |
                            uint64_t{b[6]} << 8 | uint64_t{b[7]};
      return std::bit_cast<double>(bits);
    }
    return AsFloat();
  }
  bool AsBool() const;
  std::string_view AsString() const { return bytes_; }  // text, ascii, blob
  UuidBytes AsUuid() const;

  // cqlsh's rendering ("null" for null) and SELECT JSON's.
  std::string ToString() const;
  std::string ToJson() const;

  // An owning copy.
  Value ToValue() const;

 private:
  double AsFloat() const;  // AsDouble of 4 bytes (0 for other sizes)

  const DataType* type_ = nullptr;
  bool null_ = true;
  std::string_view bytes_;
};

class Value {
 public:
  // A null value (of unspecified type).
  Value() = default;
  static Value Null() { return Value(); }
  static Value Null(DataType type) {
    Value v;
    v.type_ = std::move(type);
    return v;
  }
  // A value from already-serialized bytes. The caller vouches for the bytes;
  // the engine validates them against the column's type on write.
  static Value FromBytes(DataType type, std::string bytes) {
    Value v;
    v.type_ = std::move(type);
    v.null_ = false;
    v.bytes_ = std::move(bytes);
    return v;
  }
  // Parses a CQL literal in its textual form ("42", "'text'" or "text",
  // "2024-01-15T10:15:00Z", "0x0102", "[1, 2]", "{'a': 1}") for `type`.
  static Result<Value> Parse(const DataType& type, std::string_view literal);

  static Value Ascii(std::string_view s);
  static Value Bigint(int64_t v);
  static Value Blob(std::string_view bytes);
  static Value Boolean(bool v);
  static Value Counter(int64_t v);
  // Days since the Unix epoch (negative before 1970).
  static Value Date(int32_t days_since_epoch);
  static Value Double(double v);
  static Value Duration(int32_t months, int32_t days, int64_t nanoseconds);
  static Value Float(float v);
  static Value Int(int32_t v);
  static Value Smallint(int16_t v);
  static Value Text(std::string_view s);
  // Nanoseconds since midnight.
  static Value Time(int64_t nanos);
  // Milliseconds since the Unix epoch.
  static Value Timestamp(int64_t millis);
  static Value Timeuuid(const UuidBytes& bytes);
  static Value Tinyint(int8_t v);
  static Value Uuid(const UuidBytes& bytes);
  static Value List(const DataType& element, const std::vector<Value>& elements);
  static Value Set(const DataType& element, const std::vector<Value>& elements);
  static Value Map(const DataType& key, const DataType& value,
                   const std::vector<std::pair<Value, Value>>& entries);

  bool is_null() const { return null_; }
  const DataType& type() const { return type_; }
  // Serialized bytes (empty for null).
  const std::string& bytes() const { return bytes_; }

  ValueView view() const { return null_ ? ValueView::Null(type_) : ValueView(type_, bytes_); }

  // Typed accessors. REQUIRES: !is_null() and a matching type kind.
  int64_t AsInt64() const { return view().AsInt64(); }   // integers, counter, timestamp, time
  int32_t AsDate() const { return view().AsDate(); }     // days since epoch
  double AsDouble() const { return view().AsDouble(); }  // float or double
  bool AsBool() const { return view().AsBool(); }
  std::string_view AsString() const { return bytes_; }  // text, ascii, blob
  UuidBytes AsUuid() const { return view().AsUuid(); }
  // Elements of a list or set; entries of a map as alternating key, value.
  std::vector<Value> Elements() const;

  // cqlsh's rendering ("null" for null).
  std::string ToString() const { return view().ToString(); }
  // SELECT JSON's rendering.
  std::string ToJson() const { return view().ToJson(); }

  friend bool operator==(const Value& a, const Value& b) {
    return a.null_ == b.null_ && a.type_ == b.type_ && a.bytes_ == b.bytes_;
  }

 private:
  // Nulls the values of the rows it reuses, keeping their bytes' storage.
  friend class InsertBatch;

  DataType type_;
  bool null_ = true;
  std::string bytes_;
};

}  // namespace cassette
