#include "tools/copy_table.h"

#include <algorithm>

namespace cassette::tools {

std::string QuoteCqlName(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

std::string ColumnList(const std::vector<const ColumnDefinition*>& columns) {
  std::string out = "[";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += columns[i]->name;
  }
  return out + "]";
}

Status ResolveCopyTable(CqlSession* session, const CopyCommand& command, CopyTable* table) {
  std::string keyspace = command.keyspace.empty() ? session->keyspace() : command.keyspace;
  if (keyspace.empty()) return Status::InvalidRequest("Not in any keyspace.");
  CASSETTE_ASSIGN_OR_RETURN(table->schema, session->database()->GetTable(keyspace, command.table));
  const TableSchema& schema = table->schema;
  table->columns.clear();
  if (command.columns.empty()) {
    for (size_t index : schema.partition_key()) table->columns.push_back(&schema.columns()[index]);
    for (size_t index : schema.clustering()) table->columns.push_back(&schema.columns()[index]);
    std::vector<const ColumnDefinition*> others;
    for (const ColumnDefinition& column : schema.columns()) {
      if (column.kind == ColumnKind::kStatic || column.kind == ColumnKind::kRegular) {
        others.push_back(&column);
      }
    }
    std::sort(
        others.begin(), others.end(),
        [](const ColumnDefinition* a, const ColumnDefinition* b) { return a->name < b->name; });
    table->columns.insert(table->columns.end(), others.begin(), others.end());
    return Status::OK();
  }
  for (const std::string& name : command.columns) {
    const ColumnDefinition* column = schema.Find(name);
    if (column == nullptr) return Status::InvalidRequest("Invalid column name " + name);
    table->columns.push_back(column);
  }
  return Status::OK();
}

}  // namespace cassette::tools
