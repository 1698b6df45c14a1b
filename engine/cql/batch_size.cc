#include "engine/cql/batch_size.h"

#include <unordered_set>

namespace cassette::cql {
namespace {

// Cell.dataSize: the value, then timestamp (8), TTL (4) and local
// deletion time (4).
constexpr uint64_t kCellOverhead = 16;
// LivenessInfo.dataSize: the timestamp, and TTL and expiry when expiring.
constexpr uint64_t kLiveness = 8;
constexpr uint64_t kExpiringLiveness = 16;
// DeletionTime.dataSize: markedForDeleteAt (8) and localDeletionTime (4).
constexpr uint64_t kDeletion = 12;

uint64_t ValuesSize(const std::vector<Value>& values) {
  uint64_t size = 0;
  for (const Value& value : values) size += value.bytes().size();
  return size;
}

// A key's identity among the batch's partitions.
std::string PartitionIdentity(const std::string& keyspace, const std::vector<Value>& key) {
  std::string identity = keyspace;
  identity += '\0';
  for (const Value& value : key) {
    identity += std::to_string(value.bytes().size());
    identity += ':';
    identity += value.bytes();
  }
  return identity;
}

uint64_t ColumnSize(const ColumnOperation& column) {
  switch (column.op) {
    case CellOp::kSet:
    case CellOp::kCounterSet:
      return kCellOverhead + column.value.bytes().size();
    case CellOp::kDelete:
      return kCellOverhead;
    case CellOp::kListSetAt:
      return kCellOverhead + column.path.size() + column.value.bytes().size();
    case CellOp::kListDeleteAt:
      return kCellOverhead + column.path.size();
    case CellOp::kMapPut:
      return kCellOverhead + column.key.bytes().size() + column.value.bytes().size();
    case CellOp::kCollectionSet:
    case CellOp::kCollectionAdd:
    case CellOp::kListPrepend:
    case CellOp::kCollectionRemove:
      // One cell per element (a map's are key and value pairs); replacing
      // a collection also deletes the old one.
      return ValuesSize(column.elements) + kCellOverhead * column.elements.size() +
             (column.op == CellOp::kCollectionSet ? kDeletion : 0);
  }
  return kCellOverhead;
}

uint64_t MutationDataSize(const Mutation& mutation) {
  uint64_t size = mutation.deletes_partition() ? kDeletion : 0;
  const bool expiring = mutation.ttl().value_or(0) > 0;
  for (const RowOperation& row : mutation.rows()) {
    size += ValuesSize(row.clustering);
    switch (row.kind) {
      case RowOperation::Kind::kInsert:
        size += expiring ? kExpiringLiveness : kLiveness;
        break;
      case RowOperation::Kind::kDeleteRow:
        size += kDeletion;
        break;
      case RowOperation::Kind::kUpdate:
        break;
    }
    for (const ColumnOperation& column : row.columns) size += ColumnSize(column);
  }
  for (const auto& [start, end] : mutation.range_deletions()) {
    size += ValuesSize(start.prefix) + ValuesSize(end.prefix) + kDeletion;
  }
  return size;
}

}  // namespace

BatchSize MeasureBatch(const std::vector<Mutation>& mutations) {
  BatchSize size;
  std::unordered_set<std::string> partitions;
  for (const Mutation& mutation : mutations) {
    partitions.insert(PartitionIdentity(mutation.keyspace(), mutation.partition_key()));
    size.tables.insert(mutation.keyspace() + "." + mutation.table());
    size.data_size += MutationDataSize(mutation);
  }
  size.partitions = partitions.size();
  return size;
}

BatchSize MeasureBatch(const InsertBatch& batch, const TableSchema& schema) {
  BatchSize size;
  if (batch.empty()) return size;
  size.tables.insert(batch.keyspace() + "." + batch.table());
  // Where each column of the batch sits in the primary key.
  enum class Role : uint8_t { kPartition, kClustering, kRegular };
  std::vector<Role> roles;
  for (const std::string& name : batch.columns()) {
    Role role = Role::kRegular;
    for (size_t index : schema.partition_key()) {
      if (schema.columns()[index].name == name) role = Role::kPartition;
    }
    for (size_t index : schema.clustering()) {
      if (schema.columns()[index].name == name) role = Role::kClustering;
    }
    roles.push_back(role);
  }
  const uint64_t liveness = batch.ttl().value_or(0) > 0 ? kExpiringLiveness : kLiveness;
  std::unordered_set<std::string> partitions;
  std::vector<Value> key;
  for (size_t r = 0; r < batch.rows(); ++r) {
    const std::span<const Value> row = batch.row(r);
    key.clear();
    size.data_size += liveness;
    for (size_t c = 0; c < row.size(); ++c) {
      switch (roles[c]) {
        case Role::kPartition:
          key.push_back(row[c]);
          break;
        case Role::kClustering:
          size.data_size += row[c].bytes().size();
          break;
        case Role::kRegular:
          size.data_size += kCellOverhead + row[c].bytes().size();
          break;
      }
    }
    partitions.insert(PartitionIdentity(batch.keyspace(), key));
  }
  size.partitions = partitions.size();
  return size;
}

Status CheckBatchSize(const BatchSize& size, const Options& options,
                      std::vector<std::string>* warnings) {
  // Cassandra checks only batches of several mutations (CASSANDRA-10876).
  if (size.partitions > 1 && size.data_size > options.batch_size_warn_threshold) {
    if (size.data_size > options.batch_size_fail_threshold) {
      return Status::InvalidRequest("Batch too large");
    }
    std::string tables = "[";
    for (const std::string& table : size.tables) {
      if (tables.size() > 1) tables += ", ";
      tables += table;
    }
    tables += "]";
    warnings->push_back("Batch for " + tables + " is of size " + std::to_string(size.data_size) +
                        ", exceeding specified threshold of " +
                        std::to_string(options.batch_size_warn_threshold) + " by " +
                        std::to_string(size.data_size - options.batch_size_warn_threshold) + ".");
  }
  if (size.data_size > options.max_mutation_size) {
    return Status::InvalidRequest("Mutation of " + std::to_string(size.data_size) +
                                  " bytes is too large for the maximum size of " +
                                  std::to_string(options.max_mutation_size));
  }
  return Status::OK();
}

}  // namespace cassette::cql
