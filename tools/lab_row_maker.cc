#include "tools/lab_row_maker.h"

#include <cstdio>

#include "engine/cql/time_functions.h"

namespace cassette::tools {
namespace {

bool IsOneOf(TypeKind kind, std::initializer_list<TypeKind> kinds) {
  for (TypeKind k : kinds) {
    if (k == kind) return true;
  }
  return false;
}

// Logical bytes of a value of `kind` (text: its usual length here).
int64_t ValueBytes(TypeKind kind) {
  switch (kind) {
    case TypeKind::kInt:
    case TypeKind::kDate:
      return 4;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return 16;
    default:
      return 8;
  }
}

UuidBytes IdUuid(int64_t id) {
  UuidBytes bytes{};
  for (int i = 0; i < 8; ++i) bytes[15 - i] = static_cast<uint8_t>(id >> (8 * i));
  bytes[6] = 0x40;  // version 4
  bytes[8] = 0x80;  // variant
  return bytes;
}

Value Identifier(TypeKind kind, int64_t id) {
  switch (kind) {
    case TypeKind::kInt:
      return Value::Int(static_cast<int32_t>(id));
    case TypeKind::kBigint:
      return Value::Bigint(id);
    case TypeKind::kUuid:
      return Value::Uuid(IdUuid(id));
    default: {
      char text[32];
      std::snprintf(text, sizeof(text), "id-%06lld", static_cast<long long>(id));
      return kind == TypeKind::kAscii ? Value::Ascii(text) : Value::Text(text);
    }
  }
}

Value Integer(TypeKind kind, int64_t v) {
  return kind == TypeKind::kBigint ? Value::Bigint(v) : Value::Int(static_cast<int32_t>(v));
}

// A clustering value unique to the row at `event_second` with `sequence`:
// a timeuuid of the event time (the sequence as its node, so it orders by
// time), or the sequence itself.
Value Derived(TypeKind kind, int64_t event_second, int64_t sequence) {
  switch (kind) {
    case TypeKind::kTimeuuid: {
      UuidBytes bytes = cql::MinTimeuuid(event_second * 1000);
      for (int i = 0; i < 6; ++i) bytes[15 - i] = static_cast<uint8_t>(sequence >> (8 * i));
      return Value::Timeuuid(bytes);
    }
    case TypeKind::kUuid:
      return Value::Uuid(IdUuid(sequence));
    case TypeKind::kText:
    case TypeKind::kAscii: {
      char text[32];
      std::snprintf(text, sizeof(text), "item-%08lld", static_cast<long long>(sequence));
      return kind == TypeKind::kAscii ? Value::Ascii(text) : Value::Text(text);
    }
    default:
      return Integer(kind, sequence);
  }
}

}  // namespace

Result<RowMaker> RowMaker::Make(const WorkloadSpec& spec, const TableSchema& schema) {
  RowMaker m;
  m.spec_ = &spec;
  // The identifier, the bucket and the time: 32 bytes, whatever their
  // types; every other key column adds its own.
  m.key_bytes_ = 32;
  for (size_t index : schema.partition_key()) {
    const ColumnDefinition& c = schema.columns()[index];
    const TypeKind kind = c.type.kind();
    Fill fill = Fill::kIdentifier;
    if (c.name == spec.bucket_column) {
      fill = Fill::kBucket;
      if (!IsOneOf(kind, {TypeKind::kDate, TypeKind::kInt, TypeKind::kBigint, TypeKind::kTimestamp,
                          TypeKind::kText})) {
        return Status::InvalidArgument(
            c.name + ": the lab fills a bucket of type date, int, bigint, timestamp or text");
      }
    } else if (c.name == spec.hash_column) {
      fill = Fill::kSubBucket;
      if (!IsOneOf(kind, {TypeKind::kInt, TypeKind::kBigint})) {
        return Status::InvalidArgument(c.name +
                                       ": the lab fills a sub-bucket of type int or bigint");
      }
    } else if (!IsOneOf(kind, {TypeKind::kText, TypeKind::kAscii, TypeKind::kInt, TypeKind::kBigint,
                               TypeKind::kUuid})) {
      // table.identifier_column and any other partition key column: parts
      // of the identifier, each a function of it.
      return Status::InvalidArgument(
          c.name +
          ": the lab fills identifier columns (table.identifier_column and the partition key "
          "columns that are neither bucket nor sub-bucket) of type text, ascii, int, bigint or "
          "uuid");
    }
    m.partition_.push_back({c.name, kind, fill});
    if (fill != Fill::kBucket && c.name != spec.identifier_column) m.key_bytes_ += ValueBytes(kind);
  }
  bool identifier_in_key = false;
  for (const Column& c : m.partition_) identifier_in_key |= c.name == spec.identifier_column;
  if (!identifier_in_key) {
    return Status::InvalidArgument("table.identifier_column (" + spec.identifier_column +
                                   ") must be a partition key column");
  }

  auto key_column = [&](const std::string& name, const char* what,
                        std::initializer_list<TypeKind> kinds,
                        const char* types) -> Result<const ColumnDefinition*> {
    const ColumnDefinition* c = schema.Find(name);
    if (c == nullptr || (c->kind != ColumnKind::kClustering && c->kind != ColumnKind::kRegular)) {
      return Status::InvalidArgument(std::string(what) + " (" + name +
                                     ") must be a clustering or regular column");
    }
    if (!IsOneOf(c->type.kind(), kinds)) {
      return Status::InvalidArgument(std::string(what) + " must be a " + types + " column");
    }
    return c;
  };
  CASSETTE_ASSIGN_OR_RETURN(
      const ColumnDefinition* time,
      key_column(spec.time_column, "table.time_column", {TypeKind::kTimestamp}, "timestamp"));
  const ColumnDefinition* sequence = nullptr;
  if (!spec.sequence_column.empty()) {
    CASSETTE_ASSIGN_OR_RETURN(sequence,
                              key_column(spec.sequence_column, "table.sequence_column",
                                         {TypeKind::kInt, TypeKind::kBigint}, "int or bigint"));
  }
  for (const ColumnDefinition* c : {time, sequence}) {
    if (c == nullptr || c->kind != ColumnKind::kRegular) continue;
    m.regular_keys_.push_back({c->name, c->type.kind(), c == time ? Fill::kTime : Fill::kSequence});
    if (c != time) m.key_bytes_ += ValueBytes(c->type.kind());
  }
  for (size_t index : schema.clustering()) {
    const ColumnDefinition& c = schema.columns()[index];
    const TypeKind kind = c.type.kind();
    Fill fill = Fill::kDerived;
    if (&c == time) {
      fill = Fill::kTime;
    } else if (&c == sequence) {
      fill = Fill::kSequence;
    } else if (!IsOneOf(kind, {TypeKind::kTimeuuid, TypeKind::kUuid, TypeKind::kText,
                               TypeKind::kAscii, TypeKind::kInt, TypeKind::kBigint})) {
      return Status::InvalidArgument(
          c.name +
          ": the lab fills clustering columns other than the time and sequence columns of type "
          "timeuuid, uuid, text, ascii, int or bigint");
    }
    if (m.clustering_.empty()) {
      if (fill != Fill::kTime && fill != Fill::kSequence) {
        return Status::InvalidArgument(
            "the first clustering column must be table.time_column or table.sequence_column: "
            "range reads and range deletes slice on it");
      }
      m.slices_by_sequence_ = fill == Fill::kSequence;
      m.newest_first_ = c.order == ClusteringOrder::kDesc;
    }
    m.clustering_.push_back({c.name, kind, fill});
    if (fill != Fill::kTime) m.key_bytes_ += ValueBytes(kind);
  }
  if (m.clustering_.empty()) {
    return Status::InvalidArgument(
        "the table needs a clustering column: table.time_column or table.sequence_column");
  }
  if (!spec.payload_column.empty()) {
    const ColumnDefinition* payload = schema.Find(spec.payload_column);
    if (payload == nullptr || payload->kind != ColumnKind::kRegular ||
        (payload->type.kind() != TypeKind::kBlob && payload->type.kind() != TypeKind::kText)) {
      return Status::InvalidArgument("table.payload_column must be a regular blob or text column");
    }
    m.payload_is_blob_ = payload->type.kind() == TypeKind::kBlob;
  }
  return m;
}

std::vector<std::vector<Value>> RowMaker::BucketPartitions(int64_t id, int64_t event_second) const {
  std::vector<std::vector<Value>> keys;
  for (int64_t sub = 0; sub < sub_buckets(); ++sub) keys.push_back(KeyIn(id, event_second, sub));
  return keys;
}

int64_t RowMaker::SubBucket(int64_t id, int64_t event_second) const {
  if (spec_->hash_column.empty()) return 0;
  uint64_t x =
      static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(event_second);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  return static_cast<int64_t>(x % static_cast<uint64_t>(spec_->hash_buckets));
}

std::vector<Value> RowMaker::Clustering(int64_t event_second, int64_t sequence) const {
  std::vector<Value> key;
  for (const Column& c : clustering_) key.push_back(ValueOf(c, 0, event_second, sequence, 0));
  return key;
}

Value RowMaker::SliceValue(int64_t event_second, int64_t sequence) const {
  return ValueOf(clustering_.front(), 0, event_second, sequence, 0);
}

std::vector<std::string> RowMaker::InsertColumns() const {
  std::vector<std::string> columns;
  for (const auto* group : {&partition_, &clustering_, &regular_keys_}) {
    for (const Column& c : *group) columns.push_back(c.name);
  }
  if (!spec_->payload_column.empty()) columns.push_back(spec_->payload_column);
  return columns;
}

void RowMaker::FillInsert(std::span<Value> row, int64_t id, int64_t event_second, int64_t sequence,
                          Random* random, int64_t payload_bytes) {
  if (identifiers_.empty()) {
    // Built once: an identifier's value is the same in every write.
    for (const Column& c : partition_) {
      if (c.name != spec_->identifier_column) continue;
      for (int64_t i = 0; i < spec_->identifiers; ++i)
        identifiers_.push_back(Identifier(c.kind, i));
    }
  }
  const int64_t sub = SubBucket(id, event_second);
  size_t column = 0;
  for (const Column& c : partition_) {
    row[column++] = c.name == spec_->identifier_column
                        ? identifiers_[static_cast<size_t>(id)]
                        : ValueOf(c, id, event_second, sequence, sub);
  }
  for (const auto* group : {&clustering_, &regular_keys_}) {
    for (const Column& c : *group) row[column++] = ValueOf(c, id, event_second, sequence, sub);
  }
  if (!spec_->payload_column.empty()) row[column] = Payload(random, payload_bytes);
}

void RowMaker::SetRegulars(RowBuilder* row, int64_t event_second, int64_t sequence, Random* random,
                           int64_t payload_bytes) const {
  for (const Column& c : regular_keys_) row->Set(c.name, ValueOf(c, 0, event_second, sequence, 0));
  if (!spec_->payload_column.empty()) {
    row->Set(spec_->payload_column, Payload(random, payload_bytes));
  }
}

Value RowMaker::Payload(Random* random, int64_t bytes) const {
  std::string text(static_cast<size_t>(bytes), 'a');
  uint64_t bits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i % 16 == 0) bits = random->Next();
    text[i] = static_cast<char>('a' + (bits & 15));
    bits >>= 4;
  }
  return payload_is_blob_ ? Value::Blob(text) : Value::Text(text);
}

std::vector<Value> RowMaker::KeyIn(int64_t id, int64_t event_second, int64_t sub) const {
  std::vector<Value> key;
  for (const Column& c : partition_) key.push_back(ValueOf(c, id, event_second, 0, sub));
  return key;
}

Value RowMaker::ValueOf(const Column& c, int64_t id, int64_t event_second, int64_t sequence,
                        int64_t sub) const {
  switch (c.fill) {
    case Fill::kIdentifier:
      return Identifier(c.kind, id);
    case Fill::kBucket:
      return Bucket(c.kind, event_second);
    case Fill::kSubBucket:
      return Integer(c.kind, sub);
    case Fill::kTime:
      return Value::Timestamp(event_second * 1000);
    case Fill::kSequence:
      return Integer(c.kind, sequence);
    case Fill::kDerived:
      return Derived(c.kind, event_second, sequence);
  }
  return Value::Null();
}

Value RowMaker::Bucket(TypeKind kind, int64_t event_second) const {
  const int64_t bucket = event_second / spec_->bucket_seconds;
  switch (kind) {
    case TypeKind::kDate:
      return Value::Date(static_cast<int32_t>(event_second / 86400));
    case TypeKind::kInt:
      return Value::Int(static_cast<int32_t>(bucket));
    case TypeKind::kBigint:
      return Value::Bigint(bucket);
    case TypeKind::kTimestamp:
      return Value::Timestamp(bucket * spec_->bucket_seconds * 1000);
    default:
      return Value::Text(std::to_string(bucket));
  }
}

}  // namespace cassette::tools
