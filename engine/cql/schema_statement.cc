// Schema statements. Each checks what Cassandra 5 checks before the
// change, in the same order and with the same messages, then hands the
// change to the Database (which validates option ranges and makes it
// durable). Statements that change nothing (IF [NOT] EXISTS that matched)
// return a void result, as Cassandra does.
#include "engine/cql/schema_statement.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/cql/describe.h"
#include "engine/cql/keyspace_properties.h"
#include "engine/cql/table_properties.h"
#include "engine/cql/term_evaluator.h"

namespace cassette::cql {
namespace {

CqlResult ResultOf(CqlResult::Kind kind) {
  CqlResult result;
  result.kind = kind;
  return result;
}

bool KeyspaceExists(const ExecutionContext& context, const std::string& keyspace) {
  return context.db->GetKeyspace(keyspace).ok();
}

bool TableExists(const ExecutionContext& context, const std::string& keyspace,
                 const std::string& table) {
  return context.db->GetTable(keyspace, table).ok();
}

Status KeyspaceDoesNotExist(const std::string& keyspace) {
  return Status::InvalidRequest("Keyspace '" + keyspace + "' doesn't exist");
}

// The table as the statement named it (Cassandra's QualifiedName.toString).
std::string WrittenName(const QualifiedName& name) {
  return name.keyspace.empty() ? name.name : name.keyspace + "." + name.name;
}

// ALTER / DROP TABLE's existence checks (AlterSchemaStatement).
Status CheckTableExists(const ExecutionContext& context, const std::string& keyspace,
                        const std::string& table) {
  if (!KeyspaceExists(context, keyspace)) return KeyspaceDoesNotExist(keyspace);
  if (!TableExists(context, keyspace, table)) {
    return Status::InvalidRequest("Table '" + keyspace + "." + table + "' doesn't exist");
  }
  return Status::OK();
}

// A column's type; other names than CQL's are the keyspace's user types.
Result<DataType> ParseColumnType(const ColumnDeclaration& column, const ExecutionContext& context,
                                 const std::string& keyspace) {
  Result<KeyspaceSchema> schema = context.db->GetKeyspace(keyspace);
  if (!schema.ok()) return DataType::Parse(column.type);
  return DataType::Parse(column.type, keyspace, schema->user_types);
}

// CreateTableStatement's key and CLUSTERING ORDER checks.
Status CheckPrimaryKey(const CreateTableStatement& statement,
                       const std::map<std::string, DataType>& types,
                       const std::set<std::string>& statics) {
  const std::string written = WrittenName(statement.table);
  std::set<std::string> key_columns;
  std::vector<std::string> key = statement.partition_key;
  key.insert(key.end(), statement.clustering.begin(), statement.clustering.end());
  for (const std::string& column : key) {
    if (!types.count(column)) {
      return Status::InvalidRequest("Unknown column '" + column +
                                    "' referenced in PRIMARY KEY for table '" +
                                    statement.table.name + "'");
    }
    if (!key_columns.insert(column).second) {
      return Status::InvalidRequest("Duplicate column '" + column +
                                    "' in PRIMARY KEY clause for table '" + statement.table.name +
                                    "'");
    }
    if (statics.count(column)) {
      return Status::InvalidRequest("Static column '" + column +
                                    "' cannot be part of the PRIMARY KEY");
    }
  }
  std::set<std::string> ordered;
  std::vector<std::string> not_clustering;
  for (const auto& [column, descending] : statement.clustering_order) {
    if (!ordered.insert(column).second) {
      return Status::InvalidRequest("Duplicate column '" + column +
                                    "' in CLUSTERING ORDER BY clause for table '" + written + "'");
    }
    if (std::find(statement.clustering.begin(), statement.clustering.end(), column) ==
        statement.clustering.end()) {
      not_clustering.push_back(column);
    }
  }
  if (!not_clustering.empty()) {
    std::string list;
    for (const std::string& column : not_clustering) list += (list.empty() ? "" : ", ") + column;
    return Status::InvalidRequest(
        "Only clustering key columns can be defined in CLUSTERING ORDER directive: [" + list +
        "] are not clustering columns");
  }
  for (size_t i = 0; i < statement.clustering_order.size(); ++i) {
    const std::string& named = statement.clustering_order[i].first;
    const std::string& expected = statement.clustering[i];
    if (named == expected) continue;
    if (ordered.count(expected)) {
      return Status::InvalidRequest(
          "The order of columns in the CLUSTERING ORDER directive must match that of the "
          "clustering columns (" +
          expected + " must appear before " + named + ")");
    }
    return Status::InvalidRequest("Missing CLUSTERING ORDER for column " + expected);
  }
  return Status::OK();
}

// ALTER TABLE ... DROP ... USING TIMESTAMP t, else the statement's time.
Result<int64_t> DropTimestamp(const AlterTableStatement& statement,
                              const ExecutionContext& context) {
  if (!statement.using_clause || !statement.using_clause->timestamp) return context.now_micros;
  CASSETTE_ASSIGN_OR_RETURN(Value value, EvaluateTerm(*statement.using_clause->timestamp,
                                                      DataType::Bigint(), "[timestamp]", context));
  if (value.is_null()) return Status::InvalidRequest("Invalid null value of timestamp");
  return value.AsInt64();
}

// ---- DESCRIBE ----

struct DescribedObject {
  std::string keyspace;
  std::string type;  // "keyspace", "type" or "table"
  std::string name;
  std::string create_statement;
};

CqlResult DescribeResult(const std::vector<DescribedObject>& objects, bool with_statements,
                         std::string text) {
  CqlResult result = ResultOf(CqlResult::Kind::kRows);
  result.columns = {
      {"keyspace_name", DataType::Text()}, {"type", DataType::Text()}, {"name", DataType::Text()}};
  if (with_statements) result.columns.push_back({"create_statement", DataType::Text()});
  for (const DescribedObject& object : objects) {
    std::vector<Value> row = {Value::Text(object.keyspace), Value::Text(object.type),
                              Value::Text(object.name)};
    if (with_statements) row.push_back(Value::Text(object.create_statement));
    result.rows.push_back(std::move(row));
  }
  result.describe_text = std::move(text);
  return result;
}

Status KeyspaceNotFound(const std::string& keyspace) {
  return Status::InvalidRequest("'" + keyspace + "' not found in keyspaces");
}

// The keyspace and its tables, in name order.
Result<std::vector<DescribedObject>> DescribeKeyspaceObjects(const ExecutionContext& context,
                                                             const std::string& name) {
  auto keyspace = context.db->GetKeyspace(name);
  if (!keyspace.ok()) return KeyspaceNotFound(name);
  std::vector<DescribedObject> objects = {{name, "keyspace", name, DescribeKeyspaceCql(*keyspace)}};
  // Types before tables, as Cassandra's DESCRIBE KEYSPACE lists them.
  for (const DataType* type : UserTypesInDescribeOrder(*keyspace)) {
    objects.push_back({name, "type", type->udt_name(), DescribeUserTypeCql(*type)});
  }
  CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> tables, context.db->ListTables(name));
  for (const std::string& table : tables) {
    CASSETTE_ASSIGN_OR_RETURN(TableSchema schema, context.db->GetTable(name, table));
    objects.push_back({name, "table", table, DescribeTableCql(schema)});
  }
  return objects;
}

std::string StatementsText(const std::vector<DescribedObject>& objects) {
  std::string text;
  for (const DescribedObject& object : objects) {
    if (!text.empty()) text += "\n";
    text += object.create_statement + "\n";
  }
  return text;
}

std::string NamesText(const std::vector<DescribedObject>& objects) {
  std::string text;
  for (const DescribedObject& object : objects) {
    text += (text.empty() ? "" : "  ") + QuoteIdentifierIfNeeded(object.name);
  }
  return text + "\n";
}

Result<std::string> DescribedKeyspace(const std::string& named, const ExecutionContext& context) {
  if (!named.empty()) return named;
  if (context.keyspace != nullptr && !context.keyspace->empty()) return *context.keyspace;
  return Status::InvalidRequest("No keyspace specified and no current keyspace");
}

Result<CqlResult> DescribeTables(const ExecutionContext& context) {
  std::vector<std::string> keyspaces;
  if (context.keyspace != nullptr && !context.keyspace->empty()) {
    keyspaces.push_back(*context.keyspace);
  } else {
    keyspaces = context.db->ListKeyspaces();
  }
  std::vector<DescribedObject> all;
  std::string text;
  for (const std::string& keyspace : keyspaces) {
    auto tables = context.db->ListTables(keyspace);
    if (!tables.ok()) return KeyspaceNotFound(keyspace);
    std::vector<DescribedObject> objects;
    for (const std::string& table : *tables) objects.push_back({keyspace, "table", table, ""});
    if (keyspaces.size() > 1 || context.keyspace == nullptr || context.keyspace->empty()) {
      const std::string heading = "Keyspace " + QuoteIdentifierIfNeeded(keyspace);
      text += (text.empty() ? "" : "\n") + heading + "\n" + std::string(heading.size(), '-') + "\n";
    }
    text += NamesText(objects);
    all.insert(all.end(), objects.begin(), objects.end());
  }
  return DescribeResult(all, /*with_statements=*/false, std::move(text));
}

// DESCRIBE TYPES: the current keyspace's type names, or every keyspace's
// under a heading, as DESCRIBE TABLES.
Result<CqlResult> DescribeTypes(const ExecutionContext& context) {
  const bool current = context.keyspace != nullptr && !context.keyspace->empty();
  std::vector<std::string> keyspaces =
      current ? std::vector<std::string>{*context.keyspace} : context.db->ListKeyspaces();
  std::vector<DescribedObject> all;
  std::string text;
  for (const std::string& keyspace : keyspaces) {
    auto schema = context.db->GetKeyspace(keyspace);
    if (!schema.ok()) return KeyspaceNotFound(keyspace);
    std::vector<DescribedObject> objects;
    for (const DataType* type : UserTypesInDescribeOrder(*schema)) {
      objects.push_back({keyspace, "type", type->udt_name(), ""});
    }
    if (!current) {
      const std::string heading = "Keyspace " + QuoteIdentifierIfNeeded(keyspace);
      text += (text.empty() ? "" : "\n") + heading + "\n" + std::string(heading.size(), '-') + "\n";
    }
    text += NamesText(objects);
    all.insert(all.end(), objects.begin(), objects.end());
  }
  return DescribeResult(all, /*with_statements=*/false, std::move(text));
}

}  // namespace

Result<CqlResult> ExecuteCreateKeyspace(const CreateKeyspaceStatement& statement,
                                        const ExecutionContext& context) {
  KeyspaceSchema base;
  base.name = statement.keyspace;
  CASSETTE_ASSIGN_OR_RETURN(KeyspaceSchema keyspace,
                            ApplyKeyspaceProperties(statement.properties, std::move(base),
                                                    /*require_replication=*/true));
  if (statement.if_not_exists && KeyspaceExists(context, keyspace.name)) {
    return ResultOf(CqlResult::Kind::kVoid);
  }
  CASSETTE_RETURN_IF_ERROR(context.db->CreateKeyspace(keyspace, statement.if_not_exists));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> ExecuteAlterKeyspace(const AlterKeyspaceStatement& statement,
                                       const ExecutionContext& context) {
  auto current = context.db->GetKeyspace(statement.keyspace);
  if (!current.ok()) return KeyspaceDoesNotExist(statement.keyspace);
  CASSETTE_ASSIGN_OR_RETURN(KeyspaceSchema keyspace,
                            ApplyKeyspaceProperties(statement.properties, *current,
                                                    /*require_replication=*/false));
  CASSETTE_RETURN_IF_ERROR(context.db->AlterKeyspace(keyspace));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> ExecuteDropKeyspace(const DropKeyspaceStatement& statement,
                                      const ExecutionContext& context) {
  if (!KeyspaceExists(context, statement.keyspace)) {
    if (statement.if_exists) return ResultOf(CqlResult::Kind::kVoid);
    return KeyspaceDoesNotExist(statement.keyspace);
  }
  CASSETTE_RETURN_IF_ERROR(context.db->DropKeyspace(statement.keyspace, statement.if_exists));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> ExecuteCreateTable(const CreateTableStatement& statement,
                                     const ExecutionContext& context) {
  const std::string written = WrittenName(statement.table);
  std::set<std::string> declared;
  for (const ColumnDeclaration& column : statement.columns) {
    if (!declared.insert(column.name).second) {
      return Status::InvalidRequest("Duplicate column '" + column.name +
                                    "' declaration for table '" + written + "'");
    }
  }
  if (statement.partition_key.empty()) {
    return Status::InvalidRequest("No PRIMARY KEY specifed for table '" + written +
                                  "' (exactly one required)");
  }
  CASSETTE_ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(statement.table, context));
  if (statement.compact_storage) {
    return Status::InvalidRequest(
        "COMPACT STORAGE tables are not allowed starting with version 4.0");
  }
  if (!KeyspaceExists(context, keyspace)) return KeyspaceDoesNotExist(keyspace);
  if (TableExists(context, keyspace, statement.table.name)) {
    if (statement.if_not_exists) return ResultOf(CqlResult::Kind::kVoid);
    return Status::AlreadyExists("Cannot add already existing table \"" + statement.table.name +
                                 "\" to keyspace \"" + keyspace + "\"");
  }
  CASSETTE_ASSIGN_OR_RETURN(TableOptions options,
                            ApplyTableProperties(statement.properties, TableOptions{}));

  std::map<std::string, DataType> types;
  std::set<std::string> statics;
  for (const ColumnDeclaration& column : statement.columns) {
    CASSETTE_ASSIGN_OR_RETURN(DataType type, ParseColumnType(column, context, keyspace));
    types.emplace(column.name, std::move(type));
    if (column.is_static) statics.insert(column.name);
  }
  CASSETTE_RETURN_IF_ERROR(CheckPrimaryKey(statement, types, statics));

  TableSchema schema(keyspace, statement.table.name);
  for (const std::string& column : statement.partition_key) {
    schema.AddPartitionKey(column, types.at(column));
  }
  for (size_t i = 0; i < statement.clustering.size(); ++i) {
    const std::string& column = statement.clustering[i];
    const bool descending =
        i < statement.clustering_order.size() && statement.clustering_order[i].second;
    schema.AddClustering(column, types.at(column),
                         descending ? ClusteringOrder::kDesc : ClusteringOrder::kAsc);
  }
  for (const ColumnDeclaration& column : statement.columns) {
    if (schema.Find(column.name) != nullptr) continue;  // a key column
    if (column.is_static) {
      schema.AddStatic(column.name, types.at(column.name));
    } else {
      schema.AddRegular(column.name, types.at(column.name));
    }
  }
  schema.WithOptions(std::move(options));
  CqlResult result = ResultOf(CqlResult::Kind::kSchemaChange);
  CASSETTE_RETURN_IF_ERROR(
      context.db->CreateTable(schema, statement.if_not_exists, &result.warnings));
  return result;
}

Result<CqlResult> ExecuteAlterTable(const AlterTableStatement& statement,
                                    const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(statement.table, context));
  const std::string& table = statement.table.name;
  CASSETTE_RETURN_IF_ERROR(CheckTableExists(context, keyspace, table));
  CqlResult result = ResultOf(CqlResult::Kind::kSchemaChange);
  switch (statement.kind) {
    case AlterTableStatement::Kind::kAdd: {
      std::vector<ColumnDefinition> columns;
      for (const ColumnDeclaration& declaration : statement.add) {
        CASSETTE_ASSIGN_OR_RETURN(DataType type, ParseColumnType(declaration, context, keyspace));
        ColumnDefinition column;
        column.name = declaration.name;
        column.type = std::move(type);
        column.kind = declaration.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
        columns.push_back(std::move(column));
      }
      CASSETTE_RETURN_IF_ERROR(context.db->AddColumns(keyspace, table, columns));
      return result;
    }
    case AlterTableStatement::Kind::kDrop: {
      CASSETTE_ASSIGN_OR_RETURN(int64_t timestamp, DropTimestamp(statement, context));
      CASSETTE_RETURN_IF_ERROR(context.db->DropColumns(keyspace, table, statement.drop, timestamp));
      return result;
    }
    case AlterTableStatement::Kind::kWith: {
      CASSETTE_ASSIGN_OR_RETURN(TableSchema current, context.db->GetTable(keyspace, table));
      CASSETTE_ASSIGN_OR_RETURN(TableOptions options,
                                ApplyTableProperties(statement.properties, current.options()));
      CASSETTE_RETURN_IF_ERROR(
          context.db->AlterTableOptions(keyspace, table, options, &result.warnings));
      return result;
    }
    case AlterTableStatement::Kind::kRename:
      CASSETTE_RETURN_IF_ERROR(context.db->RenameColumns(keyspace, table, statement.rename));
      return result;
    case AlterTableStatement::Kind::kAlterType:
      return Status::InvalidRequest("Altering column types is no longer supported");
  }
  return Status::InvalidRequest("Unsupported ALTER TABLE");
}

Result<CqlResult> ExecuteDropTable(const DropTableStatement& statement,
                                   const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(statement.table, context));
  if (!TableExists(context, keyspace, statement.table.name)) {
    if (statement.if_exists) return ResultOf(CqlResult::Kind::kVoid);
    return CheckTableExists(context, keyspace, statement.table.name);
  }
  CASSETTE_RETURN_IF_ERROR(
      context.db->DropTable(keyspace, statement.table.name, statement.if_exists));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> ExecuteTruncate(const TruncateStatement& statement,
                                  const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(statement.table, context));
  CASSETTE_RETURN_IF_ERROR(context.db->Truncate(keyspace, statement.table.name));
  return ResultOf(CqlResult::Kind::kSchemaChange);
}

Result<CqlResult> ExecuteUse(const UseStatement& statement, const ExecutionContext& context) {
  if (!KeyspaceExists(context, statement.keyspace)) {
    return Status::InvalidRequest("Keyspace '" + statement.keyspace + "' does not exist");
  }
  if (context.keyspace != nullptr) *context.keyspace = statement.keyspace;
  return ResultOf(CqlResult::Kind::kSetKeyspace);
}

Result<CqlResult> ExecuteDescribe(const DescribeStatement& statement,
                                  const ExecutionContext& context) {
  using Kind = DescribeStatement::Kind;
  switch (statement.kind) {
    case Kind::kKeyspaces: {
      std::vector<DescribedObject> objects;
      for (const std::string& keyspace : context.db->ListKeyspaces()) {
        objects.push_back({keyspace, "keyspace", keyspace, ""});
      }
      return DescribeResult(objects, /*with_statements=*/false, NamesText(objects));
    }
    case Kind::kKeyspace: {
      CASSETTE_ASSIGN_OR_RETURN(std::string keyspace,
                                DescribedKeyspace(statement.keyspace, context));
      CASSETTE_ASSIGN_OR_RETURN(auto objects, DescribeKeyspaceObjects(context, keyspace));
      return DescribeResult(objects, /*with_statements=*/true, StatementsText(objects));
    }
    case Kind::kTables:
      return DescribeTables(context);
    case Kind::kTable: {
      if (statement.keyspace_or_table && KeyspaceExists(context, statement.table.name)) {
        CASSETTE_ASSIGN_OR_RETURN(auto objects,
                                  DescribeKeyspaceObjects(context, statement.table.name));
        return DescribeResult(objects, /*with_statements=*/true, StatementsText(objects));
      }
      CASSETTE_ASSIGN_OR_RETURN(std::string keyspace,
                                DescribedKeyspace(statement.table.keyspace, context));
      if (!KeyspaceExists(context, keyspace)) return KeyspaceNotFound(keyspace);
      auto schema = context.db->GetTable(keyspace, statement.table.name);
      if (!schema.ok()) {
        return Status::InvalidRequest("'" + statement.table.name + "' not found in keyspace '" +
                                      keyspace + "'");
      }
      std::vector<DescribedObject> objects = {
          {keyspace, "table", statement.table.name, DescribeTableCql(*schema)}};
      return DescribeResult(objects, /*with_statements=*/true, StatementsText(objects));
    }
    case Kind::kTypes:
      return DescribeTypes(context);
    case Kind::kType: {
      CASSETTE_ASSIGN_OR_RETURN(std::string keyspace,
                                DescribedKeyspace(statement.table.keyspace, context));
      auto schema = context.db->GetKeyspace(keyspace);
      if (!schema.ok()) return KeyspaceNotFound(keyspace);
      const DataType* type = schema->FindUserType(statement.table.name);
      if (type == nullptr) {
        return Status::InvalidRequest("User defined type '" + statement.table.name +
                                      "' not found in '" + keyspace + "'");
      }
      std::vector<DescribedObject> objects = {
          {keyspace, "type", type->udt_name(), DescribeUserTypeCql(*type)}};
      return DescribeResult(objects, /*with_statements=*/true, StatementsText(objects));
    }
    case Kind::kSchema: {
      std::vector<DescribedObject> all;
      for (const std::string& keyspace : context.db->ListKeyspaces()) {
        CASSETTE_ASSIGN_OR_RETURN(auto objects, DescribeKeyspaceObjects(context, keyspace));
        all.insert(all.end(), objects.begin(), objects.end());
      }
      return DescribeResult(all, /*with_statements=*/true, StatementsText(all));
    }
  }
  return Status::InvalidRequest("Unsupported DESCRIBE");
}

}  // namespace cassette::cql
