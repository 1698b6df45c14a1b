// TableSchema: building, lookup and evolution (ALTER TABLE ADD/DROP).
#include <algorithm>
#include <set>

#include "cassette/schema.h"
#include "engine/schema/table_schema_internals.h"

namespace cassette {

TableSchema& TableSchema::Add(std::string name, DataType type, ColumnKind kind,
                              ClusteringOrder order) {
  ColumnDefinition c;
  c.name = std::move(name);
  c.type = std::move(type);
  c.kind = kind;
  c.order = kind == ColumnKind::kClustering ? order : ClusteringOrder::kAsc;
  c.id = next_column_id_++;
  columns_.push_back(std::move(c));
  RebuildKeyIndexes();
  return *this;
}

TableSchema& TableSchema::AddPartitionKey(std::string name, DataType type) {
  return Add(std::move(name), std::move(type), ColumnKind::kPartitionKey, ClusteringOrder::kAsc);
}

TableSchema& TableSchema::AddClustering(std::string name, DataType type, ClusteringOrder order) {
  return Add(std::move(name), std::move(type), ColumnKind::kClustering, order);
}

TableSchema& TableSchema::AddStatic(std::string name, DataType type) {
  return Add(std::move(name), std::move(type), ColumnKind::kStatic, ClusteringOrder::kAsc);
}

TableSchema& TableSchema::AddRegular(std::string name, DataType type) {
  return Add(std::move(name), std::move(type), ColumnKind::kRegular, ClusteringOrder::kAsc);
}

// Key order is declaration order among the key columns.
void TableSchema::RebuildKeyIndexes() {
  partition_key_.clear();
  clustering_.clear();
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].kind == ColumnKind::kPartitionKey) partition_key_.push_back(i);
    if (columns_[i].kind == ColumnKind::kClustering) clustering_.push_back(i);
  }
}

bool TableSchema::has_statics() const {
  return std::any_of(columns_.begin(), columns_.end(),
                     [](const ColumnDefinition& c) { return c.kind == ColumnKind::kStatic; });
}

const ColumnDefinition* TableSchema::Find(std::string_view name) const {
  for (const ColumnDefinition& c : columns_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const ColumnDefinition* TableSchema::FindById(uint32_t id) const {
  for (const ColumnDefinition& c : columns_) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

Status TableSchema::AddColumn(ColumnDefinition column) {
  if (Find(column.name) != nullptr) {
    return Status::InvalidRequest("Column with name '" + column.name + "' already exists");
  }
  if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
    return Status::InvalidRequest("Cannot add new column " + column.name +
                                  " to the PRIMARY KEY of table " + keyspace_ + "." + name_);
  }
  if (column.kind == ColumnKind::kStatic && clustering_.empty()) {
    return Status::InvalidRequest(
        "Static columns are only useful (and thus allowed) if the table has at least one "
        "clustering column");
  }
  bool counter_table = false, has_regular = false;
  for (const ColumnDefinition& c : columns_) {
    if (c.kind == ColumnKind::kRegular || c.kind == ColumnKind::kStatic) {
      has_regular = true;
      counter_table = c.type.kind() == TypeKind::kCounter;
    }
  }
  bool is_counter = column.type.kind() == TypeKind::kCounter;
  if (has_regular && is_counter && !counter_table) {
    // Cassandra 5.0's TableMetadata.validate: a ConfigurationException.
    return Status::ConfigurationError("Cannot have a counter column (\"" + column.name +
                                      "\") in a non counter table");
  }
  if (has_regular && !is_counter && counter_table) {
    return Status::ConfigurationError("Cannot have a non counter column (\"" + column.name +
                                      "\") in a counter table");
  }
  column.order = ClusteringOrder::kAsc;
  column.id = next_column_id_++;  // ids are never reused, even for a re-added name
  columns_.push_back(std::move(column));
  RebuildKeyIndexes();
  return Status::OK();
}

Status TableSchema::DropColumn(std::string_view name, int64_t drop_timestamp) {
  auto it = std::find_if(columns_.begin(), columns_.end(),
                         [&](const ColumnDefinition& c) { return c.name == name; });
  if (it == columns_.end()) {
    return Status::InvalidRequest("Column " + std::string(name) + " was not found in table " +
                                  keyspace_ + "." + name_);
  }
  if (it->kind == ColumnKind::kPartitionKey || it->kind == ColumnKind::kClustering) {
    return Status::InvalidRequest("Cannot drop PRIMARY KEY column " + std::string(name));
  }
  dropped_[it->id] = drop_timestamp;
  columns_.erase(it);
  RebuildKeyIndexes();
  return Status::OK();
}

Result<TableSchema> TableSchemaInternals::Restore(
    std::string keyspace, std::string name, uint64_t id, std::vector<ColumnDefinition> columns,
    TableOptions options, std::map<uint32_t, int64_t> dropped, uint32_t next_column_id) {
  std::set<uint32_t> ids;
  std::set<std::string> names;
  for (const ColumnDefinition& c : columns) {
    if (c.id >= next_column_id || !ids.insert(c.id).second) {
      return Status::Corruption("table " + keyspace + "." + name + ": bad column id " +
                                std::to_string(c.id));
    }
    if (!names.insert(c.name).second) {
      return Status::Corruption("table " + keyspace + "." + name + ": duplicate column " + c.name);
    }
    if (static_cast<uint8_t>(c.kind) > static_cast<uint8_t>(ColumnKind::kRegular) ||
        static_cast<uint8_t>(c.order) > static_cast<uint8_t>(ClusteringOrder::kDesc)) {
      return Status::Corruption("table " + keyspace + "." + name + ": bad column kind");
    }
  }
  for (const auto& [dropped_id, ts] : dropped) {
    if (dropped_id >= next_column_id || ids.count(dropped_id) != 0) {
      return Status::Corruption("table " + keyspace + "." + name + ": bad dropped column id " +
                                std::to_string(dropped_id));
    }
  }
  TableSchema t(std::move(keyspace), std::move(name));
  t.id_ = id;
  t.columns_ = std::move(columns);
  t.options_ = std::move(options);
  t.dropped_ = std::move(dropped);
  t.next_column_id_ = next_column_id;
  t.RebuildKeyIndexes();
  return t;
}

bool IsValidTableOrKeyspaceName(std::string_view name) {
  if (name.empty() || name.size() > 48) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace cassette
