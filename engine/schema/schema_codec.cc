#include "engine/schema/schema_codec.h"

#include <cstring>

#include "engine/schema/table_schema_internals.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

// Format versions of the records. Do not renumber.
constexpr uint8_t kKeyspaceRecordVersion = 1;
// Version 2 appends the keyspace's user types; written only when it has some.
constexpr uint8_t kKeyspaceWithTypesRecordVersion = 2;
constexpr uint8_t kTableRecordVersion = 1;

void PutMap(std::string* out, const std::map<std::string, std::string>& m) {
  PutVarint64(out, m.size());
  for (const auto& [k, v] : m) {
    PutLengthPrefixed(out, k);
    PutLengthPrefixed(out, v);
  }
}

// Reads fields from a record, remembering where a failure happened.
class RecordReader {
 public:
  RecordReader(std::string_view* in, const char* what) : in_(in), start_(*in), what_(what) {}

  Status Fail(const std::string& field) const {
    return Status::Corruption(std::string("schema: bad ") + what_ + " record: " + field +
                              " at offset " + std::to_string(start_.size() - in_->size()));
  }
  bool Byte(uint8_t* v) {
    if (in_->empty()) return false;
    *v = static_cast<uint8_t>((*in_)[0]);
    in_->remove_prefix(1);
    return true;
  }
  bool Varint(uint64_t* v) { return GetVarint64(in_, v); }
  bool Signed(int64_t* v) { return GetSignedVarint64(in_, v); }
  bool Fixed64(uint64_t* v) { return GetFixed64(in_, v); }
  bool String(std::string* s) {
    std::string_view v;
    if (!GetLengthPrefixed(in_, &v)) return false;
    s->assign(v);
    return true;
  }
  bool Map(std::map<std::string, std::string>* m) {
    uint64_t n;
    if (!Varint(&n) || n > in_->size()) return false;
    m->clear();
    for (uint64_t i = 0; i < n; ++i) {
      std::string k, v;
      if (!String(&k) || !String(&v)) return false;
      (*m)[k] = v;
    }
    return true;
  }
  Status Type(DataType* t) {
    Status s = DecodeDataType(in_, t);
    return s.ok() ? s : Fail("column type (" + s.message() + ")");
  }
  size_t remaining() const { return in_->size(); }

 private:
  std::string_view* in_;
  std::string_view start_;
  const char* what_;
};

}  // namespace

void EncodeKeyspaceSchema(const KeyspaceSchema& keyspace, std::string* out) {
  const bool with_types = !keyspace.user_types.empty();
  out->push_back(
      static_cast<char>(with_types ? kKeyspaceWithTypesRecordVersion : kKeyspaceRecordVersion));
  PutLengthPrefixed(out, keyspace.name);
  PutMap(out, keyspace.replication);
  out->push_back(keyspace.durable_writes ? 1 : 0);
  if (!with_types) return;
  PutVarint64(out, keyspace.user_types.size());
  for (const DataType& type : keyspace.user_types) EncodeDataType(type, out);
}

Status DecodeKeyspaceSchema(std::string_view* in, KeyspaceSchema* keyspace) {
  RecordReader r(in, "keyspace");
  uint8_t version, durable;
  KeyspaceSchema k;
  if (!r.Byte(&version)) return r.Fail("version");
  if (version != kKeyspaceRecordVersion && version != kKeyspaceWithTypesRecordVersion)
    return r.Fail("unknown version " + std::to_string(version));
  if (!r.String(&k.name)) return r.Fail("name");
  if (!r.Map(&k.replication)) return r.Fail("replication");
  if (!r.Byte(&durable) || durable > 1) return r.Fail("durable_writes");
  k.durable_writes = durable == 1;
  if (version == kKeyspaceWithTypesRecordVersion) {
    uint64_t count;
    if (!r.Varint(&count) || count == 0 || count > r.remaining()) return r.Fail("user type count");
    k.user_types.resize(count);
    for (DataType& type : k.user_types) {
      CASSETTE_RETURN_IF_ERROR(r.Type(&type));
      if (!type.IsUserType() || type.udt_keyspace() != k.name) return r.Fail("user type");
    }
  }
  *keyspace = std::move(k);
  return Status::OK();
}

void EncodeTableSchema(const TableSchema& table, std::string* out) {
  out->push_back(static_cast<char>(kTableRecordVersion));
  PutFixed64(out, table.id());
  PutLengthPrefixed(out, table.keyspace());
  PutLengthPrefixed(out, table.name());
  PutVarint64(out, table.columns().size());
  for (const ColumnDefinition& c : table.columns()) {
    PutVarint32(out, c.id);
    PutLengthPrefixed(out, c.name);
    out->push_back(static_cast<char>(c.kind));
    out->push_back(static_cast<char>(c.order));
    EncodeDataType(c.type, out);
  }
  const TableOptions& o = table.options();
  PutSignedVarint64(out, o.default_time_to_live);
  PutSignedVarint64(out, o.gc_grace_seconds);
  uint64_t fp_bits;
  std::memcpy(&fp_bits, &o.bloom_filter_fp_chance, 8);
  PutFixed64(out, fp_bits);
  PutMap(out, o.compaction);
  PutMap(out, o.compression);
  PutLengthPrefixed(out, o.comment);
  PutMap(out, o.other);
  PutVarint64(out, table.dropped_columns().size());
  for (const auto& [id, ts] : table.dropped_columns()) {
    PutVarint32(out, id);
    PutSignedVarint64(out, ts);
  }
  PutVarint32(out, table.next_column_id());
}

Status DecodeTableSchema(std::string_view* in, TableSchema* table) {
  RecordReader r(in, "table");
  uint8_t version;
  uint64_t id, count;
  std::string keyspace, name;
  if (!r.Byte(&version)) return r.Fail("version");
  if (version != kTableRecordVersion) return r.Fail("unknown version " + std::to_string(version));
  if (!r.Fixed64(&id)) return r.Fail("table id");
  if (!r.String(&keyspace) || !r.String(&name)) return r.Fail("name");
  if (!r.Varint(&count) || count > r.remaining()) return r.Fail("column count");
  std::vector<ColumnDefinition> columns(count);
  for (ColumnDefinition& c : columns) {
    uint64_t column_id;
    uint8_t kind, order;
    if (!r.Varint(&column_id) || column_id > UINT32_MAX) return r.Fail("column id");
    if (!r.String(&c.name)) return r.Fail("column name");
    if (!r.Byte(&kind) || kind > static_cast<uint8_t>(ColumnKind::kRegular)) {
      return r.Fail("column kind");
    }
    if (!r.Byte(&order) || order > static_cast<uint8_t>(ClusteringOrder::kDesc)) {
      return r.Fail("clustering order");
    }
    CASSETTE_RETURN_IF_ERROR(r.Type(&c.type));
    c.id = static_cast<uint32_t>(column_id);
    c.kind = static_cast<ColumnKind>(kind);
    c.order = static_cast<ClusteringOrder>(order);
  }
  TableOptions o;
  int64_t ttl, gc;
  uint64_t fp_bits;
  if (!r.Signed(&ttl) || ttl < INT32_MIN || ttl > INT32_MAX) return r.Fail("default_time_to_live");
  if (!r.Signed(&gc) || gc < INT32_MIN || gc > INT32_MAX) return r.Fail("gc_grace_seconds");
  if (!r.Fixed64(&fp_bits)) return r.Fail("bloom_filter_fp_chance");
  o.default_time_to_live = static_cast<int32_t>(ttl);
  o.gc_grace_seconds = static_cast<int32_t>(gc);
  std::memcpy(&o.bloom_filter_fp_chance, &fp_bits, 8);
  if (!r.Map(&o.compaction)) return r.Fail("compaction");
  if (!r.Map(&o.compression)) return r.Fail("compression");
  if (!r.String(&o.comment)) return r.Fail("comment");
  if (!r.Map(&o.other)) return r.Fail("options");
  std::map<uint32_t, int64_t> dropped;
  if (!r.Varint(&count) || count > r.remaining()) return r.Fail("dropped column count");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t column_id;
    int64_t ts;
    if (!r.Varint(&column_id) || column_id > UINT32_MAX || !r.Signed(&ts)) {
      return r.Fail("dropped column");
    }
    dropped[static_cast<uint32_t>(column_id)] = ts;
  }
  uint64_t next_column_id;
  if (!r.Varint(&next_column_id) || next_column_id > UINT32_MAX) return r.Fail("next column id");
  Result<TableSchema> restored = TableSchemaInternals::Restore(
      std::move(keyspace), std::move(name), id, std::move(columns), std::move(o),
      std::move(dropped), static_cast<uint32_t>(next_column_id));
  if (!restored.ok()) return r.Fail(restored.status().message());
  *table = std::move(restored).value();
  return Status::OK();
}

}  // namespace cassette
