#include "tools/sstable_inspect.h"

#include <charconv>
#include <cstdio>

#include "cassette/clock.h"
#include "engine/db/manifest.h"
#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/sstable_format.h"
#include "tools/shell_directives.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

// The part of `path` before its last '/', and the part after it.
std::pair<std::string, std::string> SplitLast(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

}  // namespace

std::optional<SSTableLocation> LocateSSTable(const std::string& path) {
  auto [table_dir, file] = SplitLast(path);
  if (file.size() < 5 || file.substr(file.size() - 4) != ".sst") return std::nullopt;
  auto [keyspace_dir, table_name] = SplitLast(table_dir);
  auto [data_dir, keyspace] = SplitLast(keyspace_dir);
  const size_t dash = table_name.find_last_of('-');
  if (dash == std::string::npos || dash == 0 || keyspace.empty()) return std::nullopt;
  SSTableLocation location;
  const std::string id = table_name.substr(dash + 1);
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), location.table_id);
  if (error != std::errc() || end != id.data() + id.size()) return std::nullopt;
  location.data_dir = data_dir;
  location.keyspace = keyspace;
  location.table = table_name.substr(0, dash);
  return location;
}

Result<std::unique_ptr<Database>> OpenReadOnly(std::shared_ptr<FileSystem> fs,
                                               const std::string& data_dir,
                                               std::optional<int64_t> at_micros) {
  Options options;
  options.file_system = std::move(fs);
  options.read_only = true;
  options.create_if_missing = false;
  options.disk_failure_policy = DiskFailurePolicy::kIgnore;
  if (at_micros) options.clock = std::make_shared<ManualClock>(*at_micros);
  return Database::Open(options, data_dir);
}

std::optional<TableSchema> ResolveSchema(const SSTableSettings& settings,
                                         std::shared_ptr<FileSystem> fs, const std::string& file,
                                         std::string* why) {
  std::string data_dir;
  std::string keyspace;
  std::string table;
  std::optional<uint64_t> table_id;
  if (settings.data_dir) {
    data_dir = *settings.data_dir;
    if (!ParseTableName(settings.table, &keyspace, &table) || keyspace.empty()) {
      *why = "--data needs ks.table";
      return std::nullopt;
    }
  } else {
    std::optional<SSTableLocation> location = LocateSSTable(file);
    if (!location) {
      *why = file + " is not inside a data directory (<data>/<ks>/<table>-<id>/<gen>.sst)";
      return std::nullopt;
    }
    data_dir = location->data_dir;
    keyspace = location->keyspace;
    table = location->table;
    table_id = location->table_id;
  }
  // The MANIFEST alone (atomically replaced, so readable beside a running
  // process): no commit-log replay, no SSTable loaded, so a damaged
  // directory still gives its schema.
  Result<std::optional<ManifestState>> manifest = ReadManifest(fs.get(), data_dir);
  if (!manifest.ok() || !manifest->has_value()) {
    *why = "cannot read the MANIFEST of " + data_dir +
           (manifest.ok() ? ": there is none" : ": " + manifest.status().ToString());
    return std::nullopt;
  }
  for (const auto& [id, state] : (*manifest)->tables) {
    if (state.schema.keyspace() != keyspace || state.schema.name() != table) continue;
    // A table dropped and created again under the same name has a new id:
    // the old one's files do not follow the new schema.
    if (table_id && *table_id != id) break;
    return state.schema;
  }
  *why = "no table " + keyspace + "." + table +
         (table_id ? " with id " + std::to_string(*table_id) : std::string()) + " in " + data_dir +
         "/MANIFEST";
  return std::nullopt;
}

Result<std::vector<IndexedPartition>> ReadPartitionIndex(const SSTableReader& reader) {
  std::vector<IndexedPartition> partitions;
  const IndexSummary& summary = reader.summary();
  for (size_t b = 0; b < summary.size(); ++b) {
    const BlockHandle& handle = summary[b].handle;
    std::string payload;
    CASSETTE_RETURN_IF_ERROR(
        reader.fetcher().LoadIndexBlock(handle, "partition index block", &payload));
    std::string_view in(payload);
    while (!in.empty()) {
      PartitionIndexEntry entry;
      if (!DecodePartitionIndexEntry(&in, &entry)) {
        return SSTableCorruption(reader.path(), handle.offset, "malformed partition index entry");
      }
      partitions.push_back({std::string(entry.sort_key), entry.data_position,
                            entry.partition_length, handle.offset});
    }
  }
  return partitions;
}

std::string FormatTimestampMicros(int64_t micros) {
  // Beyond these the seconds-level formatter has no calendar date.
  constexpr int64_t kLimit = 253402300799LL * 1000000;  // 9999-12-31T23:59:59Z
  if (micros < -kLimit || micros > kLimit) return std::to_string(micros);
  int64_t fraction = micros % 1000000;
  if (fraction < 0) fraction += 1000000;
  std::string text = FormatIsoMicros(micros - fraction);
  if (fraction == 0 || text.empty() || text.back() != 'Z') return text;
  char digits[16];
  std::snprintf(digits, sizeof(digits), ".%06lld", static_cast<long long>(fraction));
  text.insert(text.size() - 1, digits);
  return text;
}

std::string FormatLocalSeconds(int64_t seconds) {
  if (seconds > 253402300799LL || seconds < -253402300799LL) return std::to_string(seconds);
  return FormatIsoMicros(seconds * 1000000);
}

int64_t NowMicros(const SSTableSettings& settings) {
  return settings.at_micros ? *settings.at_micros : SystemClock()->WallMicros();
}

std::string HexBytes(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (const char c : bytes) {
    out.push_back(kDigits[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kDigits[static_cast<uint8_t>(c) & 15]);
  }
  return out;
}

}  // namespace cassette::tools
