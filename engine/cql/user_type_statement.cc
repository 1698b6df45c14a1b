// CREATE TYPE, ALTER TYPE and DROP TYPE: Cassandra 5.0's checks and
// messages (CreateTypeStatement, AlterTypeStatement, DropTypeStatement),
// then the change handed to the Database, which makes it durable and
// rewrites the columns that use an altered type.
#include "engine/cql/user_type_statement.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace cassette::cql {
namespace {

CqlResult ResultOf(CqlResult::Kind kind) {
  CqlResult result;
  result.kind = kind;
  return result;
}

// UserType.getCqlTypeName: keyspace.name.
std::string CqlTypeName(const DataType& type) {
  return type.udt_keyspace() + "." + type.udt_name();
}

// A field's type, resolved against the keyspace's user types.
Result<DataType> ParseFieldType(const ColumnDeclaration& field, const KeyspaceSchema& keyspace) {
  return DataType::Parse(field.type, keyspace.name, keyspace.user_types);
}

Result<CqlResult> CreateType(const UserTypeStatement& statement, const std::string& keyspace_name,
                             const ExecutionContext& context) {
  Result<KeyspaceSchema> keyspace = context.db->GetKeyspace(keyspace_name);
  if (!keyspace.ok()) {
    return Status::InvalidRequest("Keyspace '" + keyspace_name + "' doesn't exist");
  }
  const std::string& name = statement.type.name;
  if (keyspace->FindUserType(name) != nullptr) {
    if (statement.if_not_exists) return ResultOf(CqlResult::Kind::kVoid);
    return Status::InvalidRequest("A user type with name '" + name + "' already exists");
  }
  std::set<std::string> used;
  for (const ColumnDeclaration& field : statement.fields) {
    if (!used.insert(field.name).second) {
      return Status::InvalidRequest("Duplicate field name '" + field.name + "' in type '" + name +
                                    "'");
    }
  }
  std::vector<std::string> names;
  std::vector<DataType> types;
  for (const ColumnDeclaration& field : statement.fields) {
    CASSETTE_ASSIGN_OR_RETURN(DataType type, ParseFieldType(field, *keyspace));
    if (type.kind() == TypeKind::kCounter) {
      return Status::InvalidRequest("A user type cannot contain counters");
    }
    if (type.IsUserType() && !type.frozen()) {
      return Status::InvalidRequest("A user type cannot contain non-frozen UDTs");
    }
    names.push_back(field.name);
    types.push_back(std::move(type));
  }
  DataType type = DataType::UserType(keyspace_name, name, std::move(names), std::move(types));
  CASSETTE_RETURN_IF_ERROR(context.db->CreateUserType(type, statement.if_not_exists));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> AddField(const UserTypeStatement& statement, const KeyspaceSchema& keyspace,
                           const DataType& current, const ExecutionContext& context) {
  const ColumnDeclaration& field = statement.fields.at(0);
  if (current.FieldIndex(field.name) >= 0) {
    if (statement.if_field_not_exists) return ResultOf(CqlResult::Kind::kVoid);
    return Status::InvalidRequest("Cannot add field " + field.name + " to type " +
                                  CqlTypeName(current) + ": a field with name " + field.name +
                                  " already exists");
  }
  CASSETTE_ASSIGN_OR_RETURN(DataType type, ParseFieldType(field, keyspace));
  if (type.References(current.udt_keyspace(), current.udt_name())) {
    return Status::InvalidRequest("Cannot add new field " + field.name + " of type " + field.type +
                                  " to user type " + CqlTypeName(current) +
                                  " as it would create a circular reference");
  }
  // A partition key's bytes would change with the new field.
  std::vector<std::string> tables;
  CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> names, context.db->ListTables(keyspace.name));
  for (const std::string& name : names) {
    Result<TableSchema> table = context.db->GetTable(keyspace.name, name);
    if (!table.ok()) continue;
    for (size_t index : table->partition_key()) {
      if (table->columns()[index].type.References(current.udt_keyspace(), current.udt_name())) {
        tables.push_back(keyspace.name + "." + name);
        break;
      }
    }
  }
  if (!tables.empty()) {
    std::string list;
    for (const std::string& t : tables) list += (list.empty() ? "" : ", ") + t;
    return Status::InvalidRequest("Cannot add new field " + field.name + " of type " + field.type +
                                  " to user type " + CqlTypeName(current) +
                                  " as the type is being used in partition key by the following "
                                  "tables: " +
                                  list);
  }
  std::vector<std::string> field_names = current.field_names();
  std::vector<DataType> field_types = current.params();
  field_names.push_back(field.name);
  field_types.push_back(std::move(type));
  DataType updated = DataType::UserType(current.udt_keyspace(), current.udt_name(),
                                        std::move(field_names), std::move(field_types));
  CASSETTE_RETURN_IF_ERROR(context.db->AlterUserType(updated));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> RenameFields(const UserTypeStatement& statement, const DataType& current,
                               const ExecutionContext& context) {
  std::vector<std::string> field_names = current.field_names();
  for (const auto& [from, to] : statement.renames) {
    const int index = current.FieldIndex(from);
    if (index < 0) {
      if (statement.if_field_exists) continue;
      // "Unkown" is Cassandra's spelling.
      return Status::InvalidRequest("Unkown field " + from + " in user type " +
                                    CqlTypeName(current));
    }
    field_names[static_cast<size_t>(index)] = to;
  }
  for (const std::string& name : field_names) {
    if (std::count(field_names.begin(), field_names.end(), name) > 1) {
      // Cassandra's format string names the keyspace where it means the type.
      return Status::InvalidRequest("Duplicate field name " + name + " in type " +
                                    current.udt_keyspace());
    }
  }
  DataType updated = DataType::UserType(current.udt_keyspace(), current.udt_name(),
                                        std::move(field_names), current.params());
  CASSETTE_RETURN_IF_ERROR(context.db->AlterUserType(updated));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> AlterType(const UserTypeStatement& statement, const std::string& keyspace_name,
                            const ExecutionContext& context) {
  Result<KeyspaceSchema> keyspace = context.db->GetKeyspace(keyspace_name);
  const DataType* current = keyspace.ok() ? keyspace->FindUserType(statement.type.name) : nullptr;
  if (current == nullptr) {
    if (statement.if_exists) return ResultOf(CqlResult::Kind::kVoid);
    return Status::InvalidRequest("Type " + keyspace_name + "." + statement.type.name +
                                  " doesn't exist");
  }
  switch (statement.kind) {
    case UserTypeStatement::Kind::kAddField:
      return AddField(statement, *keyspace, *current, context);
    case UserTypeStatement::Kind::kRenameFields:
      return RenameFields(statement, *current, context);
    default:
      return Status::InvalidRequest("Altering field types is no longer supported");
  }
}

}  // namespace

Result<CqlResult> ExecuteUserTypeStatement(const UserTypeStatement& statement,
                                           const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(statement.type, context));
  switch (statement.kind) {
    case UserTypeStatement::Kind::kCreate:
      return CreateType(statement, keyspace, context);
    case UserTypeStatement::Kind::kDrop: {
      Result<KeyspaceSchema> schema = context.db->GetKeyspace(keyspace);
      if (statement.if_exists &&
          (!schema.ok() || schema->FindUserType(statement.type.name) == nullptr)) {
        return ResultOf(CqlResult::Kind::kVoid);
      }
      CASSETTE_RETURN_IF_ERROR(
          context.db->DropUserType(keyspace, statement.type.name, statement.if_exists));
      return ResultOf(CqlResult::Kind::kSchemaChange);
    }
    default:
      return AlterType(statement, keyspace, context);
  }
}

}  // namespace cassette::cql
