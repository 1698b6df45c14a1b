// The rows the compaction lab writes: the values of a workload's insert,
// partition keys and sub-buckets, filled from the workload's column names
// and the table's types (tools/lab_workload.h says which columns the lab
// fills and how).
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/util/random.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

// The values a write puts in the table, built from the workload's column
// names and the table's types.
class RowMaker {
 public:
  static Result<RowMaker> Make(const WorkloadSpec& spec, const TableSchema& schema) {
    RowMaker m;
    m.spec_ = &spec;
    for (size_t index : schema.partition_key()) {
      const ColumnDefinition& c = schema.columns()[index];
      if (c.name != spec.identifier_column && c.name != spec.bucket_column &&
          c.name != spec.hash_column) {
        return Status::InvalidArgument("partition key column " + c.name +
                                       " is none of table.identifier_column, "
                                       "table.bucket_column and table.hash_column: the lab "
                                       "cannot fill it");
      }
      m.key_types_.push_back({c.name, c.type.kind()});
    }
    if (schema.clustering().size() != 1 ||
        schema.columns()[schema.clustering()[0]].name != spec.time_column) {
      return Status::InvalidArgument(
          "the table's only clustering column must be "
          "table.time_column (" +
          spec.time_column + ")");
    }
    const TypeKind time = schema.columns()[schema.clustering()[0]].type.kind();
    if (time != TypeKind::kTimestamp) {
      return Status::InvalidArgument("table.time_column must be a timestamp column");
    }
    for (const auto& [name, kind] : m.key_types_) {
      const bool id = name == spec.identifier_column;
      if (name == spec.hash_column) {
        if (kind != TypeKind::kInt && kind != TypeKind::kBigint) {
          return Status::InvalidArgument(name +
                                         ": the lab fills a sub-bucket of type int or bigint");
        }
        continue;
      }
      const bool ok =
          id ? (kind == TypeKind::kText || kind == TypeKind::kAscii || kind == TypeKind::kInt ||
                kind == TypeKind::kBigint || kind == TypeKind::kUuid)
             : (kind == TypeKind::kDate || kind == TypeKind::kInt || kind == TypeKind::kBigint ||
                kind == TypeKind::kTimestamp || kind == TypeKind::kText);
      if (!ok) {
        return Status::InvalidArgument(
            name +
            ": the lab fills an identifier of type text, ascii, int, bigint or uuid, "
            "and a bucket of type date, int, bigint, timestamp or text");
      }
    }
    if (!spec.payload_column.empty()) {
      const ColumnDefinition* payload = schema.Find(spec.payload_column);
      if (payload == nullptr || payload->kind != ColumnKind::kRegular ||
          (payload->type.kind() != TypeKind::kBlob && payload->type.kind() != TypeKind::kText)) {
        return Status::InvalidArgument(
            "table.payload_column must be a regular blob or text column");
      }
      m.payload_is_blob_ = payload->type.kind() == TypeKind::kBlob;
    }
    return m;
  }

  // The partition of identifier `id`'s row at `event_second`: its time
  // bucket and, with table.hash_column, its sub-bucket.
  std::vector<Value> PartitionKey(int64_t id, int64_t event_second) const {
    return KeyIn(id, event_second, SubBucket(id, event_second));
  }

  // Every partition of `id`'s time bucket at `event_second`: one per
  // sub-bucket, what a reader of the bucket fans out to.
  std::vector<std::vector<Value>> BucketPartitions(int64_t id, int64_t event_second) const {
    std::vector<std::vector<Value>> keys;
    for (int64_t sub = 0; sub < sub_buckets(); ++sub) keys.push_back(KeyIn(id, event_second, sub));
    return keys;
  }

  // The sub-bucket of a row (0 without table.hash_column): a hash of its
  // identifier and event time, so an identifier's rows spread evenly over
  // the sub-buckets, as an event id's hash spreads them.
  int64_t SubBucket(int64_t id, int64_t event_second) const {
    if (spec_->hash_column.empty()) return 0;
    uint64_t x =
        static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(event_second);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    return static_cast<int64_t>(x % static_cast<uint64_t>(spec_->hash_buckets));
  }
  int64_t sub_buckets() const { return spec_->hash_column.empty() ? 1 : spec_->hash_buckets; }

  // The columns an insert sets, in the order FillInsert fills them: the
  // partition key, the time column, the payload (if any).
  std::vector<std::string> InsertColumns() const {
    std::vector<std::string> columns;
    for (const auto& [name, kind] : key_types_) columns.push_back(name);
    columns.push_back(spec_->time_column);
    if (!spec_->payload_column.empty()) columns.push_back(spec_->payload_column);
    return columns;
  }

  // One InsertBatch row of identifier `id` (0 <= id < identifiers) at
  // `event_second` with `payload_bytes` of payload.
  void FillInsert(std::span<Value> row, int64_t id, int64_t event_second, Random* random,
                  int64_t payload_bytes) {
    if (identifiers_.empty()) {
      // Built once: an identifier's value is the same in every write.
      for (int64_t i = 0; i < spec_->identifiers; ++i) {
        identifiers_.push_back(Identifier(identifier_kind(), i));
      }
    }
    size_t column = 0;
    for (const auto& [name, kind] : key_types_) {
      if (name == spec_->identifier_column) {
        row[column++] = identifiers_[static_cast<size_t>(id)];
      } else if (name == spec_->hash_column) {
        row[column++] = SubBucketValue(kind, SubBucket(id, event_second));
      } else {
        row[column++] = Bucket(kind, event_second);
      }
    }
    row[column++] = Value::Timestamp(event_second * 1000);
    if (!spec_->payload_column.empty()) row[column] = Payload(random, payload_bytes);
  }

  // Payload bytes from a 16-letter alphabet: about half compressible, as
  // readings and event bodies tend to be.
  Value Payload(Random* random, int64_t bytes) const {
    std::string text(static_cast<size_t>(bytes), 'a');
    uint64_t bits = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (i % 16 == 0) bits = random->Next();
      text[i] = static_cast<char>('a' + (bits & 15));
      bits >>= 4;
    }
    return payload_is_blob_ ? Value::Blob(text) : Value::Text(text);
  }

  // Logical bytes of a row: its key, time and payload, as written.
  int64_t KeyBytes() const { return 16 + 8 + 8; }

 private:
  std::vector<Value> KeyIn(int64_t id, int64_t event_second, int64_t sub) const {
    std::vector<Value> key;
    for (const auto& [name, kind] : key_types_) {
      if (name == spec_->identifier_column) {
        key.push_back(Identifier(kind, id));
      } else if (name == spec_->hash_column) {
        key.push_back(SubBucketValue(kind, sub));
      } else {
        key.push_back(Bucket(kind, event_second));
      }
    }
    return key;
  }

  static Value SubBucketValue(TypeKind kind, int64_t sub) {
    return kind == TypeKind::kBigint ? Value::Bigint(sub) : Value::Int(static_cast<int32_t>(sub));
  }

  TypeKind identifier_kind() const {
    for (const auto& [name, kind] : key_types_) {
      if (name == spec_->identifier_column) return kind;
    }
    return TypeKind::kText;
  }

  static Value Identifier(TypeKind kind, int64_t id) {
    switch (kind) {
      case TypeKind::kInt:
        return Value::Int(static_cast<int32_t>(id));
      case TypeKind::kBigint:
        return Value::Bigint(id);
      case TypeKind::kUuid: {
        UuidBytes bytes{};
        for (int i = 0; i < 8; ++i) bytes[15 - i] = static_cast<uint8_t>(id >> (8 * i));
        bytes[6] = 0x40;  // version 4
        bytes[8] = 0x80;  // variant
        return Value::Uuid(bytes);
      }
      default: {
        char text[32];
        std::snprintf(text, sizeof(text), "id-%06lld", static_cast<long long>(id));
        return Value::Text(text);
      }
    }
  }

  Value Bucket(TypeKind kind, int64_t event_second) const {
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

  const WorkloadSpec* spec_ = nullptr;
  std::vector<std::pair<std::string, TypeKind>> key_types_;
  bool payload_is_blob_ = true;
  std::vector<Value> identifiers_;
};

}  // namespace cassette::tools
