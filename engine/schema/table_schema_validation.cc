// TableSchema::Validate: CREATE TABLE's checks, in Cassandra's order (the
// statement's shape, then the table options, then the key columns, static
// columns and counters, then the names), with its messages.
#include "cassette/schema.h"
#include "engine/schema/table_options_validation.h"

namespace cassette {
namespace {

bool ReferencesDuration(const DataType& t) {
  if (t.kind() == TypeKind::kDuration) return true;
  for (const DataType& p : t.params()) {
    if (ReferencesDuration(p)) return true;
  }
  return false;
}

}  // namespace

Status TableSchema::Validate() const {
  std::string qualified = keyspace_ + "." + name_;
  for (size_t i = 0; i < columns_.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (columns_[i].name == columns_[j].name) {
        return Status::InvalidRequest("Duplicate column '" + columns_[i].name +
                                      "' declaration for table '" + qualified + "'");
      }
    }
  }
  if (partition_key_.empty()) {
    return Status::InvalidRequest("No PRIMARY KEY specifed for table '" + qualified +
                                  "' (exactly one required)");
  }
  CASSETTE_RETURN_IF_ERROR(ValidateTableOptions(options_));

  for (const ColumnDefinition& c : columns_) {
    if (!c.type.IsUserType() || !c.type.IsMultiCell()) continue;
    for (const DataType& field : c.type.params()) {
      if (field.IsMultiCell()) {
        return Status::InvalidRequest(
            "Non-frozen UDTs with nested non-frozen collections are not supported");
      }
    }
  }
  for (const ColumnDefinition& c : columns_) {
    if (c.kind != ColumnKind::kPartitionKey && c.kind != ColumnKind::kClustering) continue;
    if (c.type.IsMultiCell()) {
      // Cassandra words the two differently (CreateTableStatement).
      if (c.type.IsUserType()) {
        return Status::InvalidRequest(
            "Invalid non-frozen user-defined type for PRIMARY KEY component " + c.name);
      }
      return Status::InvalidRequest("Invalid non-frozen collection type " + c.type.ToString() +
                                    " for PRIMARY KEY column '" + c.name + "'");
    }
    if (c.type.kind() == TypeKind::kCounter) {
      return Status::InvalidRequest("counter type is not supported for PRIMARY KEY column '" +
                                    c.name + "'");
    }
    if (ReferencesDuration(c.type)) {
      return Status::InvalidRequest("duration type is not supported for PRIMARY KEY column '" +
                                    c.name + "'");
    }
  }
  if (clustering_.empty() && has_statics()) {
    return Status::InvalidRequest(
        "Static columns are only useful (and thus allowed) if the table has at least one "
        "clustering column");
  }

  bool has_counters = false, has_non_counters = false;
  for (const ColumnDefinition& c : columns_) {
    if (c.kind != ColumnKind::kRegular && c.kind != ColumnKind::kStatic) continue;
    (c.type.kind() == TypeKind::kCounter ? has_counters : has_non_counters) = true;
  }
  if (has_counters && has_non_counters) {
    return Status::InvalidRequest("Cannot mix counter and non counter columns in the same table");
  }
  if (has_counters && options_.default_time_to_live > 0) {
    return Status::InvalidRequest("Cannot set default_time_to_live on a table with counters");
  }

  if (!IsValidTableOrKeyspaceName(keyspace_)) {
    return Status::InvalidRequest(
        "Keyspace name must not be empty, more than 48 characters long, or contain "
        "non-alphanumeric-underscore characters (got '" +
        keyspace_ + "')");
  }
  if (!IsValidTableOrKeyspaceName(name_)) {
    return Status::InvalidRequest(
        "Table name must not be empty, more than 48 characters long, or contain "
        "non-alphanumeric-underscore characters (got '" +
        name_ + "')");
  }
  return Status::OK();
}

}  // namespace cassette
