#include "engine/schema/key_codec.h"

#include "engine/schema/column_value.h"
#include "engine/types/comparable.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

constexpr size_t kMaxKeyLength = 65535;

Status TooLong(size_t n) {
  return Status::InvalidRequest("Key length of " + std::to_string(n) +
                                " is longer than maximum of 65535");
}

}  // namespace

Status AppendPartitionKey(const TableSchema& schema, std::span<const std::string_view> components,
                          std::string* out) {
  const size_t n = schema.partition_key().size();
  if (components.size() != n) {
    return Status::InvalidRequest("Partition key of " + schema.keyspace() + "." + schema.name() +
                                  " has " + std::to_string(n) + " components, got " +
                                  std::to_string(components.size()));
  }
  if (n == 1) {
    if (components[0].empty()) return Status::InvalidRequest("Key may not be empty");
    if (components[0].size() > kMaxKeyLength) return TooLong(components[0].size());
    out->append(components[0]);
    return Status::OK();
  }
  size_t total = 0;
  for (std::string_view c : components) {
    if (c.size() > kMaxKeyLength) return TooLong(c.size());
    total += c.size() + 3;
  }
  if (total > kMaxKeyLength) return TooLong(total);
  out->reserve(out->size() + total);
  for (std::string_view c : components) {
    PutBigEndian16(out, static_cast<uint16_t>(c.size()));
    out->append(c);
    out->push_back('\0');
  }
  return Status::OK();
}

Result<std::string> SerializePartitionKey(const TableSchema& schema,
                                          std::span<const std::string_view> components) {
  std::string out;
  CASSETTE_RETURN_IF_ERROR(AppendPartitionKey(schema, components, &out));
  return out;
}

Result<std::string> SerializePartitionKey(const TableSchema& schema,
                                          const std::vector<std::string>& components) {
  std::vector<std::string_view> views(components.begin(), components.end());
  return SerializePartitionKey(schema, std::span<const std::string_view>(views));
}

Status DeserializePartitionKey(const TableSchema& schema, std::string_view key,
                               std::vector<std::string>* components) {
  components->clear();
  size_t n = schema.partition_key().size();
  if (n <= 1) {
    components->emplace_back(key);
    return Status::OK();
  }
  std::string_view in = key;
  for (size_t i = 0; i < n; ++i) {
    if (in.size() < 2) return Status::Corruption("truncated composite partition key");
    size_t len = DecodeBigEndian16(in.data());
    in.remove_prefix(2);
    if (in.size() < len + 1) return Status::Corruption("truncated composite partition key");
    components->emplace_back(in.substr(0, len));
    if (in[len] != '\0') {
      return Status::Corruption("bad end-of-component byte in composite partition key");
    }
    in.remove_prefix(len + 1);
  }
  if (!in.empty()) return Status::Corruption("trailing bytes after composite partition key");
  return Status::OK();
}

Result<std::vector<std::string>> DeserializePartitionKey(const TableSchema& schema,
                                                         std::string_view key) {
  std::vector<std::string> components;
  CASSETTE_RETURN_IF_ERROR(DeserializePartitionKey(schema, key, &components));
  return components;
}

std::string EncodeClustering(const TableSchema& schema,
                             const std::vector<std::string>& components) {
  std::string out;
  const std::vector<size_t>& clustering = schema.clustering();
  for (size_t i = 0; i < components.size() && i < clustering.size(); ++i) {
    const ColumnDefinition& c = schema.columns()[clustering[i]];
    EncodeComparable(c.type, components[i], c.order == ClusteringOrder::kDesc, &out);
  }
  return out;
}

Status DecodeClustering(const TableSchema& schema, std::string_view clustering,
                        std::vector<std::string>* components) {
  components->clear();
  std::string_view in = clustering;
  for (size_t index : schema.clustering()) {
    if (in.empty()) break;
    const ColumnDefinition& c = schema.columns()[index];
    std::string value;
    CASSETTE_RETURN_IF_ERROR(
        DecodeComparable(c.type, c.order == ClusteringOrder::kDesc, &in, &value));
    components->push_back(std::move(value));
  }
  if (!in.empty()) return Status::Corruption("trailing bytes after clustering");
  return Status::OK();
}

Result<std::vector<std::string>> DecodeClustering(const TableSchema& schema,
                                                  std::string_view clustering) {
  std::vector<std::string> components;
  CASSETTE_RETURN_IF_ERROR(DecodeClustering(schema, clustering, &components));
  return components;
}

Result<std::string> EncodePartitionKeyValues(const TableSchema& schema,
                                             const std::vector<Value>& values) {
  const std::vector<size_t>& key = schema.partition_key();
  if (values.size() < key.size()) {
    return Status::InvalidRequest("Some partition key parts are missing: " +
                                  schema.columns()[key[values.size()]].name);
  }
  if (values.size() > key.size()) {
    return Status::InvalidRequest("Too many partition key values: expected " +
                                  std::to_string(key.size()));
  }
  // Views of the values' bytes: partition keys have a few components.
  constexpr size_t kInline = 8;
  std::string_view inline_views[kInline];
  std::vector<std::string_view> more;
  std::string_view* components = inline_views;
  if (key.size() > kInline) {
    more.resize(key.size());
    components = more.data();
  }
  for (size_t i = 0; i < key.size(); ++i) {
    const ColumnDefinition& column = schema.columns()[key[i]];
    CASSETTE_RETURN_IF_ERROR(CheckValue(column, values[i], "partition key part"));
    components[i] = values[i].bytes();
  }
  return SerializePartitionKey(schema, std::span<const std::string_view>(components, key.size()));
}

Status AppendClusteringValue(const ColumnDefinition& column, const Value& value, std::string* out) {
  CASSETTE_RETURN_IF_ERROR(CheckValue(column, value, "clustering key part"));
  if (value.bytes().size() > kMaxKeyLength) return TooLong(value.bytes().size());
  EncodeComparable(column.type, value.bytes(), column.order == ClusteringOrder::kDesc, out);
  return Status::OK();
}

Result<std::string> EncodeClusteringValues(const TableSchema& schema,
                                           const std::vector<Value>& values, size_t first_column) {
  const std::vector<size_t>& clustering = schema.clustering();
  if (first_column + values.size() > clustering.size()) {
    return Status::InvalidRequest("Too many clustering values: the table has " +
                                  std::to_string(clustering.size()) + " clustering columns");
  }
  std::string encoded;
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnDefinition& column = schema.columns()[clustering[first_column + i]];
    CASSETTE_RETURN_IF_ERROR(AppendClusteringValue(column, values[i], &encoded));
  }
  return encoded;
}

}  // namespace cassette
