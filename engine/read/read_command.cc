#include "engine/read/read_command.h"

#include "engine/schema/key_codec.h"
#include "engine/schema/select_star_order.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += ", ";
    out += parts[i];
  }
  return out;
}

// "1" for a one-column key, "(1, 'a')" for a composite one.
std::string RenderKey(const TableSchema& schema, const DecoratedKey& key) {
  Result<std::vector<std::string>> values = DeserializePartitionKey(schema, key.key);
  if (!values.ok() || values->size() != schema.partition_key().size()) {
    return "token " + std::to_string(key.token);
  }
  std::vector<std::string> parts;
  for (size_t i = 0; i < values->size(); ++i) {
    parts.push_back(FormatValue(schema.columns()[schema.partition_key()[i]].type, (*values)[i]));
  }
  return parts.size() == 1 ? parts[0] : "(" + Join(parts) + ")";
}

}  // namespace

std::vector<size_t> SelectedColumns(const ReadCommand& cmd) {
  if (!cmd.selection.empty()) return cmd.selection;
  return SelectStarOrder(*cmd.schema);
}

std::string DescribeReadCommand(const ReadCommand& cmd) {
  const TableSchema& schema = *cmd.schema;
  std::string out = cmd.distinct ? "SELECT DISTINCT " : "SELECT ";
  if (cmd.selection.empty()) {
    out += "*";
  } else {
    std::vector<std::string> names;
    for (size_t index : cmd.selection) names.push_back(schema.columns()[index].name);
    out += Join(names);
  }
  out += " FROM " + schema.keyspace() + "." + schema.name();

  std::vector<std::string> key_names;
  for (size_t index : schema.partition_key()) key_names.push_back(schema.columns()[index].name);
  std::string key_columns = Join(key_names);
  if (key_names.size() > 1) key_columns = "(" + key_columns + ")";
  if (cmd.keys.size() == 1) {
    out += " WHERE " + key_columns + " = " + RenderKey(schema, cmd.keys[0]);
  } else if (!cmd.keys.empty()) {
    std::vector<std::string> keys;
    for (const DecoratedKey& key : cmd.keys) keys.push_back(RenderKey(schema, key));
    out += " WHERE " + key_columns + " IN (" + Join(keys) + ")";
  } else if (cmd.token_range) {
    const TokenRange& r = *cmd.token_range;
    std::string token = "token(" + Join(key_names) + ")";
    std::vector<std::string> bounds;
    if (!(r.start == INT64_MIN && r.start_inclusive)) {
      bounds.push_back(token + (r.start_inclusive ? " >= " : " > ") + std::to_string(r.start));
    }
    if (!(r.end == INT64_MAX && r.end_inclusive)) {
      bounds.push_back(token + (r.end_inclusive ? " <= " : " < ") + std::to_string(r.end));
    }
    for (size_t i = 0; i < bounds.size(); ++i) out += (i == 0 ? " WHERE " : " AND ") + bounds[i];
  }
  if (cmd.per_partition_limit > 0) {
    out += " PER PARTITION LIMIT " + std::to_string(cmd.per_partition_limit);
  }
  if (cmd.limit > 0) out += " LIMIT " + std::to_string(cmd.limit);
  return out;
}

}  // namespace cassette
