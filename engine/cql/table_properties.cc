#include "engine/cql/table_properties.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "engine/types/float_format.h"
#include "engine/util/ascii.h"

namespace cassette::cql {
namespace {

constexpr char kCompressorPackage[] = "org.apache.cassandra.io.compress.";

const std::set<std::string>& KnownProperties() {
  static const std::set<std::string> known = [] {
    std::set<std::string> names = {
        "bloom_filter_fp_chance", "comment",         "compaction", "compression",
        "default_time_to_live",   "gc_grace_seconds"};
    for (const OtherTableOption& option : OtherTableOptionDefaults()) names.insert(option.name);
    return names;
  }();
  return known;
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

Result<std::string> Simple(const Property& property) {
  if (property.is_map) {
    return Status::SyntaxError("Invalid value for property '" + property.name +
                               "'. It should be a string");
  }
  return property.value;
}

Result<std::map<std::string, std::string>> Map(const Property& property) {
  if (!property.is_map) {
    return Status::SyntaxError("Invalid value for property '" + property.name +
                               "'. It should be a map.");
  }
  std::map<std::string, std::string> map;
  for (const auto& [key, value] : property.map) map[key] = value;
  return map;
}

// Java's Integer.parseInt.
Result<int32_t> Int(const Property& property) {
  CASSETTE_ASSIGN_OR_RETURN(std::string text, Simple(property));
  errno = 0;
  char* end = nullptr;
  const long long value = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || errno != 0 || end != text.c_str() + text.size() ||
      value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max() ||
      text[0] == ' ') {
    return Status::SyntaxError("Invalid integer value " + text + " for '" + property.name + "'");
  }
  return static_cast<int32_t>(value);
}

Result<double> ParseDouble(const std::string& text, const std::string& error) {
  char* end = nullptr;
  const double value = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return Status::SyntaxError(error);
  return value;
}

Result<double> Double(const Property& property) {
  CASSETTE_ASSIGN_OR_RETURN(std::string text, Simple(property));
  return ParseDouble(text, "Invalid double value " + text + " for '" + property.name + "'");
}

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

// CompressionParams.fromMap's renames and the codecs cassette lacks.
Result<std::map<std::string, std::string>> NormalizeCompression(
    std::map<std::string, std::string> map, TableOptions* options) {
  auto rename = [&](const std::string& legacy, const std::string& current,
                    const std::string& what) -> Status {
    auto it = map.find(legacy);
    if (it == map.end()) return Status::OK();
    if (map.count(current)) {
      return Config("The '" + legacy + "' option must not be used if the " + what +
                    " is already specified by the '" + current + "' option");
    }
    map[current] = it->second;
    map.erase(legacy);
    return Status::OK();
  };
  CASSETTE_RETURN_IF_ERROR(rename("sstable_compression", "class", "compression algorithm"));
  CASSETTE_RETURN_IF_ERROR(rename("chunk_length_kb", "chunk_length_in_kb", "chunk length"));
  // crc_check_chance moved out of the compression map (CASSANDRA-9839);
  // Cassandra still takes it there.
  auto crc = map.find("crc_check_chance");
  if (crc != map.end()) {
    CASSETTE_ASSIGN_OR_RETURN(double chance,
                              ParseDouble(crc->second, "Invalid double value " + crc->second +
                                                           " for crc_check_chance.'"));
    options->other["crc_check_chance"] = FormatDoubleJava(chance);
    map.erase(crc);
  }
  if (map.empty()) return std::map<std::string, std::string>{{"enabled", "false"}};
  auto enabled = map.find("enabled");
  if (enabled != map.end()) {
    if (!EqualsIgnoreCase(enabled->second, "true")) {
      if (map.size() == 1) return std::map<std::string, std::string>{{"enabled", "false"}};
      return map;  // the db's validation reports the extra options
    }
    map.erase(enabled);
  }
  auto cls = map.find("class");
  if (cls != map.end()) {
    std::string name = cls->second;
    if (name.rfind(kCompressorPackage, 0) == 0) name = name.substr(sizeof(kCompressorPackage) - 1);
    if (name == "LZ4Compressor" || name == "SnappyCompressor" || name == "DeflateCompressor") {
      return Config("Compression class " + cls->second +
                    " is not supported: cassette compresses with ZstdCompressor only (or use "
                    "{'enabled': 'false'} for no compression)");
    }
  }
  return map;
}

Result<std::string> CachingValue(const Property& property) {
  CASSETTE_ASSIGN_OR_RETURN(auto map, Map(property));
  std::string keys = "ALL", rows = "NONE";
  std::vector<std::string> unknown;
  for (const auto& [key, value] : map) {
    if (key == "keys") {
      if (!EqualsIgnoreCase(value, "ALL") && !EqualsIgnoreCase(value, "NONE")) {
        return Config("Invalid value '" + value +
                      "' for caching sub-option 'keys': only 'ALL' and 'NONE' are allowed");
      }
      keys = EqualsIgnoreCase(value, "ALL") ? "ALL" : "NONE";
    } else if (key == "rows_per_partition") {
      if (EqualsIgnoreCase(value, "ALL") || EqualsIgnoreCase(value, "NONE")) {
        rows = EqualsIgnoreCase(value, "ALL") ? "ALL" : "NONE";
      } else {
        char* end = nullptr;
        const long n = value.empty() ? -1 : std::strtol(value.c_str(), &end, 10);
        if (value.empty() || end != value.c_str() + value.size() || n <= 0) {
          return Config("Invalid value '" + value +
                        "' for caching sub-option 'rows_per_partition': only 'ALL', 'NONE' or a "
                        "positive integer are allowed");
        }
        rows = value;
      }
    } else {
      unknown.push_back(key);
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& key : unknown) list += (list.empty() ? "" : ", ") + key;
    return Config("Invalid caching sub-options [" + list +
                  "]: only 'keys' and 'rows_per_partition' are allowed");
  }
  return FormatCqlMap({{"keys", keys}, {"rows_per_partition", rows}});
}

// One of the options cassette records without acting on them.
Result<std::string> OtherValue(const Property& property) {
  const std::string& name = property.name;
  if (name == "caching") return CachingValue(property);
  if (name == "extensions") {
    CASSETTE_ASSIGN_OR_RETURN(auto map, Map(property));
    return FormatCqlMap(map);
  }
  if (name == "cdc" || name == "allow_auto_snapshot" || name == "incremental_backups") {
    CASSETTE_ASSIGN_OR_RETURN(std::string text, Simple(property));
    CASSETTE_ASSIGN_OR_RETURN(bool value, ParsePropertyBoolean(name, text));
    return std::string(value ? "true" : "false");
  }
  if (name == "crc_check_chance") {
    CASSETTE_ASSIGN_OR_RETURN(double value, Double(property));
    if (!(value >= 0 && value <= 1)) {
      return Config(
          "crc_check_chance must be larger than or equal to 0 and smaller than or "
          "equal to 1.0 (got " +
          FormatDoubleJava(value) + ")");
    }
    return FormatDoubleJava(value);
  }
  if (name == "memtable_flush_period_in_ms" || name == "min_index_interval" ||
      name == "max_index_interval") {
    CASSETTE_ASSIGN_OR_RETURN(int32_t value, Int(property));
    const int32_t minimum = name == "memtable_flush_period_in_ms" ? 0 : 1;
    if (value < minimum) {
      return Config(name + " must be greater than or equal to " + std::to_string(minimum) +
                    " (got " + std::to_string(value) + ")");
    }
    return std::to_string(value);
  }
  CASSETTE_ASSIGN_OR_RETURN(std::string text, Simple(property));
  if (name == "read_repair") {
    if (!EqualsIgnoreCase(text, "BLOCKING") && !EqualsIgnoreCase(text, "NONE")) {
      return Config(
          "No enum constant org.apache.cassandra.service.reads.repair.ReadRepairStrategy." + text);
    }
    return Quote(EqualsIgnoreCase(text, "NONE") ? "NONE" : "BLOCKING");
  }
  if (name == "memtable") {
    // The configurations a default cassandra.yaml (5.0) defines.
    if (text != "default" && text != "skiplist" && text != "trie") {
      return Config("Memtable configuration \"" + text + "\" not found.");
    }
  }
  return Quote(text);  // speculative_retry, additional_write_policy, memtable
}

}  // namespace

const std::vector<OtherTableOption>& OtherTableOptionDefaults() {
  static const std::vector<OtherTableOption> defaults = {
      {"additional_write_policy", "'99p'"},
      {"allow_auto_snapshot", "true"},
      {"caching", "{'keys': 'ALL', 'rows_per_partition': 'NONE'}"},
      {"cdc", "false"},
      {"memtable", "'default'"},
      {"crc_check_chance", "1.0"},
      {"extensions", "{}"},
      {"incremental_backups", "true"},
      {"max_index_interval", "2048"},
      {"memtable_flush_period_in_ms", "0"},
      {"min_index_interval", "128"},
      {"read_repair", "'BLOCKING'"},
      {"speculative_retry", "'99p'"},
  };
  return defaults;
}

Result<bool> ParsePropertyBoolean(const std::string& name, const std::string& value) {
  if (EqualsIgnoreCase(value, "true") || EqualsIgnoreCase(value, "yes") || value == "1") {
    return true;
  }
  if (EqualsIgnoreCase(value, "false") || EqualsIgnoreCase(value, "no") || value == "0") {
    return false;
  }
  return Status::SyntaxError("Invalid boolean value " + value + " for '" + name +
                             "'. Positive values can be '1', 'true' or 'yes'. Negative values "
                             "can be '0', 'false' or 'no'.");
}

Status CheckNoRepeatedProperty(const std::vector<Property>& properties) {
  std::set<std::string> seen;
  for (const Property& property : properties) {
    if (!seen.insert(property.name).second) {
      return Status::SyntaxError("Multiple definition for property '" + property.name + "'");
    }
  }
  return Status::OK();
}

std::string FormatCqlMap(const std::map<std::string, std::string>& map) {
  std::string out = "{";
  for (const auto& [key, value] : map) {
    if (out.size() > 1) out += ", ";
    out += Quote(key) + ": " + Quote(value);
  }
  return out + "}";
}

Result<TableOptions> ApplyTableProperties(const std::vector<Property>& properties,
                                          TableOptions base) {
  CASSETTE_RETURN_IF_ERROR(CheckNoRepeatedProperty(properties));
  for (const Property& property : properties) {
    if (!KnownProperties().count(property.name)) {
      return Status::SyntaxError("Unknown property '" + property.name + "'");
    }
  }
  TableOptions options = std::move(base);
  for (const Property& property : properties) {
    const std::string& name = property.name;
    if (name == "default_time_to_live") {
      CASSETTE_ASSIGN_OR_RETURN(options.default_time_to_live, Int(property));
    } else if (name == "gc_grace_seconds") {
      CASSETTE_ASSIGN_OR_RETURN(options.gc_grace_seconds, Int(property));
    } else if (name == "bloom_filter_fp_chance") {
      CASSETTE_ASSIGN_OR_RETURN(options.bloom_filter_fp_chance, Double(property));
    } else if (name == "comment") {
      CASSETTE_ASSIGN_OR_RETURN(options.comment, Simple(property));
    } else if (name == "compaction") {
      CASSETTE_ASSIGN_OR_RETURN(options.compaction, Map(property));
    } else if (name == "compression") {
      CASSETTE_ASSIGN_OR_RETURN(auto map, Map(property));
      CASSETTE_ASSIGN_OR_RETURN(options.compression,
                                NormalizeCompression(std::move(map), &options));
    } else {
      CASSETTE_ASSIGN_OR_RETURN(options.other[name], OtherValue(property));
    }
  }
  auto min_index = options.other.find("min_index_interval");
  auto max_index = options.other.find("max_index_interval");
  const int64_t min_interval =
      min_index == options.other.end() ? 128 : std::atoll(min_index->second.c_str());
  const int64_t max_interval =
      max_index == options.other.end() ? 2048 : std::atoll(max_index->second.c_str());
  if (max_interval < min_interval) {
    return Config("max_index_interval must be greater than or equal to min_index_interval (" +
                  std::to_string(min_interval) + ") (got " + std::to_string(max_interval) + ")");
  }
  return options;
}

}  // namespace cassette::cql
