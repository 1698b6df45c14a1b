// Keyspace and table definitions, as CREATE KEYSPACE / CREATE TABLE state them.
// Plain, thread-compatible values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette {

// Do not renumber: stored in the schema file.
enum class ColumnKind : uint8_t { kPartitionKey = 0, kClustering = 1, kStatic = 2, kRegular = 3 };
enum class ClusteringOrder : uint8_t { kAsc = 0, kDesc = 1 };

struct ColumnDefinition {
  std::string name;
  DataType type;
  ColumnKind kind = ColumnKind::kRegular;
  ClusteringOrder order = ClusteringOrder::kAsc;  // clustering columns only
  // Stable id within the table; cells on disk refer to it. Never reused.
  uint32_t id = 0;
};

struct TableOptions {
  int32_t default_time_to_live = 0;
  int32_t gc_grace_seconds = 864000;
  double bloom_filter_fp_chance = 0.01;
  std::map<std::string, std::string> compaction = {{"class", "SizeTieredCompactionStrategy"}};
  std::map<std::string, std::string> compression = {
      {"class", "ZstdCompressor"}, {"chunk_length_in_kb", "16"}, {"compression_level", "3"}};
  std::string comment;
  // Other options Cassandra accepts (caching, speculative_retry, ...), kept
  // verbatim so DESCRIBE shows them.
  std::map<std::string, std::string> other;
};

class TableSchema {
 public:
  TableSchema() = default;
  TableSchema(std::string keyspace, std::string name)
      : keyspace_(std::move(keyspace)), name_(std::move(name)) {}

  // Builders, in declaration order. Column ids are assigned in call order.
  TableSchema& AddPartitionKey(std::string name, DataType type);
  TableSchema& AddClustering(std::string name, DataType type,
                             ClusteringOrder order = ClusteringOrder::kAsc);
  TableSchema& AddStatic(std::string name, DataType type);
  TableSchema& AddRegular(std::string name, DataType type);
  TableSchema& WithOptions(TableOptions options) {
    options_ = std::move(options);
    return *this;
  }

  const std::string& keyspace() const { return keyspace_; }
  const std::string& name() const { return name_; }
  // Stable numeric id of the table within the database (assigned when the
  // table is created, stored in the schema file; 0 until then).
  uint64_t id() const { return id_; }
  // All columns in declaration order.
  const std::vector<ColumnDefinition>& columns() const { return columns_; }
  const TableOptions& options() const { return options_; }
  TableOptions& mutable_options() { return options_; }

  // Indexes into columns(), in key order.
  const std::vector<size_t>& partition_key() const { return partition_key_; }
  const std::vector<size_t>& clustering() const { return clustering_; }
  bool has_statics() const;
  const ColumnDefinition* Find(std::string_view name) const;
  const ColumnDefinition* FindById(uint32_t id) const;
  uint32_t next_column_id() const { return next_column_id_; }

  // Checks names (Cassandra identifier rules), key shape and option ranges;
  // errors carry Cassandra's class and message.
  Status Validate() const;

  // Schema evolution (ALTER TABLE). Dropped columns keep their id reserved.
  Status AddColumn(ColumnDefinition column);
  Status DropColumn(std::string_view name, int64_t drop_timestamp);
  // Columns dropped at some timestamp: their cells with timestamp <= it are ignored.
  const std::map<uint32_t, int64_t>& dropped_columns() const { return dropped_; }

 private:
  // The engine assigns the id and restores stored schemas
  // (engine/schema/table_schema_internals.h).
  friend class TableSchemaInternals;

  TableSchema& Add(std::string name, DataType type, ColumnKind kind, ClusteringOrder order);

  void RebuildKeyIndexes();

  std::string keyspace_;
  std::string name_;
  uint64_t id_ = 0;
  std::vector<ColumnDefinition> columns_;
  std::vector<size_t> partition_key_;
  std::vector<size_t> clustering_;
  TableOptions options_;
  uint32_t next_column_id_ = 0;
  std::map<uint32_t, int64_t> dropped_;
};

struct KeyspaceSchema {
  std::string name;
  std::map<std::string, std::string> replication = {{"class", "SimpleStrategy"},
                                                    {"replication_factor", "1"}};
  bool durable_writes = true;
  // CREATE TYPE's user types (each DataType::UserType, non-frozen), in
  // creation order: a type only refers to types before it.
  std::vector<DataType> user_types = {};
  // The user type `name`, or null.
  const DataType* FindUserType(std::string_view name) const {
    for (const DataType& t : user_types) {
      if (t.udt_name() == name) return &t;
    }
    return nullptr;
  }
};

// Cassandra's rule for unquoted identifiers, also applied to quoted ones
// that name directories: [A-Za-z0-9_]{1,48} (keyspaces and tables).
bool IsValidTableOrKeyspaceName(std::string_view name);

}  // namespace cassette
