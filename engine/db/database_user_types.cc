// DatabaseImpl's user types (CREATE / ALTER / DROP TYPE). A type lives in
// its keyspace's schema; the columns that use it carry a copy of its
// definition, so ALTER TYPE rewrites those columns' types too. Messages
// are Cassandra 5.0's (CreateTypeStatement, AlterTypeStatement,
// DropTypeStatement).
#include <algorithm>
#include <set>

#include "engine/db/database_impl.h"
#include "engine/schema/table_schema_internals.h"

namespace cassette {

namespace {

// Every field type's user types must be types of the keyspace as they are now.
Status CheckFieldTypes(const DataType& type, const KeyspaceSchema& keyspace) {
  for (const DataType& field : type.params()) {
    if (field.IsUserType()) {
      const DataType* known = keyspace.FindUserType(field.udt_name());
      if (known == nullptr || field.udt_keyspace() != keyspace.name ||
          known->field_names() != field.field_names()) {
        return Status::InvalidRequest("Unknown type " + keyspace.name + "." + field.udt_name());
      }
    }
    CASSETTE_RETURN_IF_ERROR(CheckFieldTypes(field, keyspace));
  }
  return Status::OK();
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

Status DatabaseImpl::CreateUserType(const DataType& type, bool if_not_exists) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  if (!type.IsUserType() || type.frozen() || type.udt_name().empty()) {
    return Status::InvalidRequest("CreateUserType needs a non-frozen user type");
  }
  std::unique_lock lock(state_mutex_);
  auto it = state_.keyspaces.find(type.udt_keyspace());
  if (it == state_.keyspaces.end()) {
    return Status::InvalidRequest("Keyspace '" + type.udt_keyspace() + "' doesn't exist");
  }
  if (it->second.FindUserType(type.udt_name()) != nullptr) {
    if (if_not_exists) return Status::OK();
    return Status::InvalidRequest("A user type with name '" + type.udt_name() + "' already exists");
  }
  std::set<std::string> names;
  for (const std::string& field : type.field_names()) {
    if (!names.insert(field).second) {
      return Status::InvalidRequest("Duplicate field name '" + field + "' in type '" +
                                    type.udt_name() + "'");
    }
  }
  CASSETTE_RETURN_IF_ERROR(CheckFieldTypes(type, it->second));
  it->second.user_types.push_back(type);
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    it->second.user_types.pop_back();
    return s;
  }
  BumpSchemaVersion();
  return Status::OK();
}

Status DatabaseImpl::AlterUserType(const DataType& type) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  if (!type.IsUserType() || type.frozen()) {
    return Status::InvalidRequest("AlterUserType needs a non-frozen user type");
  }
  std::unique_lock lock(state_mutex_);
  auto it = state_.keyspaces.find(type.udt_keyspace());
  const DataType* current =
      it == state_.keyspaces.end() ? nullptr : it->second.FindUserType(type.udt_name());
  if (current == nullptr) {
    return Status::InvalidRequest("Type " + type.udt_keyspace() + "." + type.udt_name() +
                                  " doesn't exist");
  }
  // Stored values keep their meaning: the old fields keep their types and
  // positions, new ones come after.
  if (type.params().size() < current->params().size() ||
      !std::equal(current->params().begin(), current->params().end(), type.params().begin())) {
    return Status::InvalidRequest("Altering field types is no longer supported");
  }
  std::set<std::string> names;
  for (const std::string& field : type.field_names()) {
    if (!names.insert(field).second) {
      return Status::InvalidRequest("Duplicate field name " + field + " in type " +
                                    type.udt_name());
    }
  }
  CASSETTE_RETURN_IF_ERROR(CheckFieldTypes(type, it->second));

  const ManifestState previous = state_;
  for (DataType& user_type : it->second.user_types) {
    user_type = user_type.udt_name() == type.udt_name() ? type : user_type.ReplacingUserType(type);
  }
  std::vector<std::pair<uint64_t, TableSchema>> changed;
  for (auto& [id, table] : state_.tables) {
    if (table.schema.keyspace() != type.udt_keyspace()) continue;
    std::vector<ColumnDefinition> columns = table.schema.columns();
    bool uses = false;
    for (ColumnDefinition& column : columns) {
      if (!column.type.References(type.udt_keyspace(), type.udt_name())) continue;
      uses = true;
      column.type = column.type.ReplacingUserType(type);
    }
    if (!uses) continue;
    const TableSchema& old = table.schema;
    Result<TableSchema> updated =
        TableSchemaInternals::Restore(old.keyspace(), old.name(), old.id(), std::move(columns),
                                      old.options(), old.dropped_columns(), old.next_column_id());
    if (!updated.ok()) {
      state_ = previous;
      return updated.status();
    }
    table.schema = *updated;
    changed.emplace_back(id, std::move(updated).value());
  }
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    state_ = previous;
    return s;
  }
  for (auto& [id, schema] : changed) {
    auto table = tables_.find(id);
    if (table != tables_.end()) table->second->set_schema(std::move(schema));
  }
  BumpSchemaVersion();
  return Status::OK();
}

Status DatabaseImpl::DropUserType(const std::string& keyspace, const std::string& name,
                                  bool if_exists) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  std::unique_lock lock(state_mutex_);
  auto it = state_.keyspaces.find(keyspace);
  if (it == state_.keyspaces.end() || it->second.FindUserType(name) == nullptr) {
    if (if_exists) return Status::OK();
    return Status::InvalidRequest("Type '" + keyspace + "." + name + "' doesn't exist");
  }
  std::vector<std::string> types, tables;
  for (const DataType& other : it->second.user_types) {
    if (other.udt_name() != name && other.References(keyspace, name)) {
      types.push_back(other.udt_name());
    }
  }
  if (!types.empty()) {
    return Status::InvalidRequest("Cannot drop user type '" + keyspace + "." + name +
                                  "' as it is still used by user types " + Join(types));
  }
  for (const auto& [id, table] : state_.tables) {
    if (table.schema.keyspace() != keyspace) continue;
    for (const ColumnDefinition& column : table.schema.columns()) {
      if (column.type.References(keyspace, name)) {
        tables.push_back(table.schema.name());
        break;
      }
    }
  }
  if (!tables.empty()) {
    return Status::InvalidRequest("Cannot drop user type '" + keyspace + "." + name +
                                  "' as it is still used by tables " + Join(tables));
  }
  const KeyspaceSchema previous = it->second;
  std::erase_if(it->second.user_types, [&](const DataType& t) { return t.udt_name() == name; });
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    it->second = previous;
    return s;
  }
  BumpSchemaVersion();
  return Status::OK();
}

}  // namespace cassette
