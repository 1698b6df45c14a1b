#include "engine/cql/describe.h"

#include <map>
#include <string>

#include "engine/cql/reserved_keywords.h"
#include "engine/cql/schema_statement.h"
#include "engine/cql/table_properties.h"
#include "engine/types/float_format.h"
#include "engine/util/ascii.h"

namespace cassette::cql {
namespace {

constexpr char kCompactionPackage[] = "org.apache.cassandra.db.compaction.";
constexpr char kCompressorPackage[] = "org.apache.cassandra.io.compress.";

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string Qualified(const std::string& class_name, const char* package) {
  return class_name.find('.') == std::string::npos ? package + class_name : class_name;
}

// CompactionParams.asMap: the class in full and the thresholds every
// strategy has.
std::string CompactionCql(const std::map<std::string, std::string>& compaction) {
  std::map<std::string, std::string> shown = compaction;
  auto cls = shown.find("class");
  if (cls != shown.end()) cls->second = Qualified(cls->second, kCompactionPackage);
  shown.emplace("max_threshold", "32");
  shown.emplace("min_threshold", "4");
  return FormatCqlMap(shown);
}

// CompressionParams.asMap: {'enabled': 'false'}, or the class in full with
// the chunk length.
std::string CompressionCql(const std::map<std::string, std::string>& compression) {
  auto enabled = compression.find("enabled");
  auto cls = compression.find("class");
  if (compression.empty() || cls == compression.end() || cls->second.empty() ||
      (enabled != compression.end() && !EqualsIgnoreCase(enabled->second, "true"))) {
    return "{'enabled': 'false'}";
  }
  std::map<std::string, std::string> shown = compression;
  shown.erase("enabled");
  std::string name = cls->second;
  if (EqualsIgnoreCase(name, "zstd")) name = "ZstdCompressor";
  if (EqualsIgnoreCase(name, "none") || EqualsIgnoreCase(name, "noop")) name = "NoopCompressor";
  shown["class"] = Qualified(name, kCompressorPackage);
  shown.emplace("chunk_length_in_kb", "16");
  return FormatCqlMap(shown);
}

std::string OtherOption(const TableOptions& options, const OtherTableOption& option) {
  auto it = options.other.find(option.name);
  return it == options.other.end() ? option.default_value : it->second;
}

}  // namespace

std::string QuoteIdentifierIfNeeded(std::string_view name) {
  bool plain = !name.empty() && name[0] >= 'a' && name[0] <= 'z';
  for (char c : name) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  }
  if (plain && !IsReservedKeyword(name)) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

std::string DescribeKeyspaceCql(const KeyspaceSchema& keyspace) {
  // ReplicationParams.appendCqlTo: the class first, then the options.
  std::string replication = "{'class': ";
  auto cls = keyspace.replication.find("class");
  replication += Quote(cls == keyspace.replication.end() ? "SimpleStrategy" : cls->second);
  for (const auto& [key, value] : keyspace.replication) {
    if (key == "class") continue;
    replication += ", " + Quote(key) + ": " + Quote(value);
  }
  replication += "}";
  return "CREATE KEYSPACE " + QuoteIdentifierIfNeeded(keyspace.name) +
         " WITH replication = " + replication +
         "  AND durable_writes = " + (keyspace.durable_writes ? "true" : "false") + ";";
}

std::string DescribeUserTypeCql(const DataType& type) {
  std::string out = "CREATE TYPE " + QuoteIdentifierIfNeeded(type.udt_keyspace()) + "." +
                    QuoteIdentifierIfNeeded(type.udt_name()) + " (\n";
  for (size_t i = 0; i < type.params().size(); ++i) {
    out += "    " + QuoteIdentifierIfNeeded(type.field_names()[i]) + " " +
           type.params()[i].ToString() + (i + 1 < type.params().size() ? ",\n" : "\n");
  }
  return out + ");";
}

std::vector<const DataType*> UserTypesInDescribeOrder(const KeyspaceSchema& keyspace) {
  std::map<std::string, const DataType*> pending;
  for (const DataType& type : keyspace.user_types) pending[type.udt_name()] = &type;
  std::vector<const DataType*> ordered;
  while (!pending.empty()) {
    // The first type by name that uses no type still pending.
    auto next = pending.begin();
    for (auto it = pending.begin(); it != pending.end(); ++it) {
      bool ready = true;
      for (const auto& [name, other] : pending) {
        if (name != it->first && it->second->References(keyspace.name, name)) ready = false;
      }
      if (ready) {
        next = it;
        break;
      }
    }
    ordered.push_back(next->second);
    pending.erase(next);
  }
  return ordered;
}

std::string DescribeTableCql(const TableSchema& table) {
  std::string out = "CREATE TABLE " + QuoteIdentifierIfNeeded(table.keyspace()) + "." +
                    QuoteIdentifierIfNeeded(table.name()) + " (\n";
  const auto& columns = table.columns();
  const bool single_key = table.partition_key().size() == 1 && table.clustering().empty();
  // Key columns in key order, then statics and regulars, each alphabetical
  // (TableMetadata.allColumnsInCreateOrder).
  std::vector<const ColumnDefinition*> ordered;
  for (size_t index : table.partition_key()) ordered.push_back(&columns[index]);
  for (size_t index : table.clustering()) ordered.push_back(&columns[index]);
  for (ColumnKind kind : {ColumnKind::kStatic, ColumnKind::kRegular}) {
    std::map<std::string, const ColumnDefinition*> by_name;
    for (const ColumnDefinition& column : columns) {
      if (column.kind == kind) by_name[column.name] = &column;
    }
    for (const auto& [name, column] : by_name) ordered.push_back(column);
  }
  for (size_t i = 0; i < ordered.size(); ++i) {
    const ColumnDefinition& column = *ordered[i];
    out += "    " + QuoteIdentifierIfNeeded(column.name) + " " + column.type.ToString();
    if (column.kind == ColumnKind::kStatic) out += " static";
    if (single_key && i == 0) out += " PRIMARY KEY";
    if (i + 1 < ordered.size() || !single_key) out += ",";
    out += "\n";
  }
  if (!single_key) {
    auto names = [&](const std::vector<size_t>& indexes) {
      std::string list;
      for (size_t index : indexes) {
        list += (list.empty() ? "" : ", ") + QuoteIdentifierIfNeeded(columns[index].name);
      }
      return list;
    };
    out += "    PRIMARY KEY (";
    out += table.partition_key().size() == 1 ? names(table.partition_key())
                                             : "(" + names(table.partition_key()) + ")";
    if (!table.clustering().empty()) out += ", " + names(table.clustering());
    out += ")\n";
  }
  out += ") WITH ";
  if (!table.clustering().empty()) {
    out += "CLUSTERING ORDER BY (";
    for (size_t i = 0; i < table.clustering().size(); ++i) {
      const ColumnDefinition& column = columns[table.clustering()[i]];
      if (i > 0) out += ", ";
      out += QuoteIdentifierIfNeeded(column.name) +
             (column.order == ClusteringOrder::kDesc ? " DESC" : " ASC");
    }
    out += ")\n    AND ";
  }
  // TableParams.appendCqlTo's order (alphabetical, but for memtable).
  const TableOptions& options = table.options();
  const auto& others = OtherTableOptionDefaults();
  auto other = [&](const char* name) {
    for (const OtherTableOption& option : others) {
      if (std::string_view(option.name) == name) return OtherOption(options, option);
    }
    return std::string();
  };
  std::vector<std::pair<std::string, std::string>> lines = {
      {"additional_write_policy", other("additional_write_policy")},
      {"allow_auto_snapshot", other("allow_auto_snapshot")},
      {"bloom_filter_fp_chance", FormatDoubleJava(options.bloom_filter_fp_chance)},
      {"caching", other("caching")},
      {"cdc", other("cdc")},
      {"comment", Quote(options.comment)},
      {"compaction", CompactionCql(options.compaction)},
      {"compression", CompressionCql(options.compression)},
      {"memtable", other("memtable")},
      {"crc_check_chance", other("crc_check_chance")},
      {"default_time_to_live", std::to_string(options.default_time_to_live)},
      {"extensions", other("extensions")},
      {"gc_grace_seconds", std::to_string(options.gc_grace_seconds)},
      {"incremental_backups", other("incremental_backups")},
      {"max_index_interval", other("max_index_interval")},
      {"memtable_flush_period_in_ms", other("memtable_flush_period_in_ms")},
      {"min_index_interval", other("min_index_interval")},
      {"read_repair", other("read_repair")},
      {"speculative_retry", other("speculative_retry")},
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += "\n    AND ";
    out += lines[i].first + " = " + lines[i].second;
  }
  return out + ";";
}

}  // namespace cassette::cql
