// `cassette sstable expired-blockers` and `cassette sstable layout`: a
// table's SSTables as the MANIFEST lists them, read from a data directory
// opened read-only (so they work beside a process holding it).
#include <cstdio>
#include <map>

#include "engine/db/manifest.h"
#include "engine/mutation/expiry.h"
#include "engine/types/type_codec.h"
#include "tools/shell_directives.h"
#include "tools/sstable_inspect.h"
#include "tools/stats_command.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

struct LoadedSSTable {
  uint64_t generation = 0;
  std::string path;
  std::shared_ptr<SSTableReader> reader;
};

// The database opened read-only at the settings' instant, the table's
// schema, and its live SSTables (the MANIFEST's list), each opened.
struct LoadedTable {
  std::unique_ptr<Database> db;
  TableSchema schema;
  std::vector<LoadedSSTable> sstables;
};

Result<LoadedTable> LoadTable(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs) {
  LoadedTable loaded;
  std::string keyspace;
  std::string table;
  if (!ParseTableName(settings.table, &keyspace, &table) || keyspace.empty()) {
    return Status::InvalidArgument("'" + settings.table + "' is not keyspace.table");
  }
  CASSETTE_ASSIGN_OR_RETURN(loaded.db, OpenReadOnly(fs, *settings.data_dir, settings.at_micros));
  CASSETTE_ASSIGN_OR_RETURN(loaded.schema, loaded.db->GetTable(keyspace, table));
  CASSETTE_ASSIGN_OR_RETURN(std::optional<ManifestState> manifest,
                            ReadManifest(fs.get(), *settings.data_dir));
  if (!manifest) return Status::NotFound("no MANIFEST in " + *settings.data_dir);
  auto state = manifest->tables.find(loaded.schema.id());
  if (state == manifest->tables.end()) return loaded;
  const std::string dir =
      *settings.data_dir + "/" + keyspace + "/" + table + "-" + std::to_string(loaded.schema.id());
  for (const SSTableEntry& entry : state->second.sstables) {
    char name[32];
    std::snprintf(name, sizeof(name), "%06llu.sst",
                  static_cast<unsigned long long>(entry.generation));
    LoadedSSTable sstable{entry.generation, dir + "/" + name, nullptr};
    CASSETTE_ASSIGN_OR_RETURN(sstable.reader, SSTableReader::Open(fs.get(), sstable.path));
    loaded.sstables.push_back(std::move(sstable));
  }
  return loaded;
}

// Cassandra's formatForExpiryTracing: "path (minTS = .., maxTS = .., maxLDT = ..)".
std::string ExpiryTracing(const LoadedSSTable& sstable) {
  const SSTableStats& s = sstable.reader->stats();
  return sstable.path + " (minTS = " + std::to_string(s.min_timestamp) +
         ", maxTS = " + std::to_string(s.max_timestamp) +
         ", maxLDT = " + std::to_string(s.max_local_deletion_time) + ")";
}

}  // namespace

// Cassandra's SSTableExpiredBlockers (tools/SSTableExpiredBlockers.java):
// an SSTable whose newest local deletion time is before gc_before (now -
// gc_grace_seconds) is fully expired; another SSTable blocks it from being
// dropped when its oldest timestamp is not newer than the expired one's
// newest (its data might be shadowed by the expired one's tombstones) and
// it is not itself expired.
int RunExpiredBlockers(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs,
                       std::ostream& out, std::ostream& err) {
  Result<LoadedTable> table = LoadTable(settings, fs);
  if (!table.ok()) {
    err << "cassette sstable expired-blockers: " << table.status().ToString() << "\n";
    return 1;
  }
  const int64_t gc_before = GcBefore(NowInSeconds(table->db->options().clock->WallMicros()),
                                     table->schema.options().gc_grace_seconds);
  std::map<size_t, std::vector<size_t>> blocked_by_blocker;  // indexes into sstables
  const std::vector<LoadedSSTable>& sstables = table->sstables;
  size_t expired_count = 0;
  for (size_t e = 0; e < sstables.size(); ++e) {
    const SSTableStats& expired = sstables[e].reader->stats();
    if (!CanPurge(expired.max_local_deletion_time, gc_before)) continue;
    ++expired_count;
    for (size_t b = 0; b < sstables.size(); ++b) {
      const SSTableStats& blocker = sstables[b].reader->stats();
      if (b != e && blocker.min_timestamp <= expired.max_timestamp &&
          !CanPurge(blocker.max_local_deletion_time, gc_before)) {
        blocked_by_blocker[b].push_back(e);
      }
    }
  }
  const bool json = settings.format == OutputFormat::kJson;
  std::string body;
  for (const auto& [b, blocked] : blocked_by_blocker) {
    if (json) {
      if (!body.empty()) body += ",";
      body += "{\"blocker\":" + JsonQuote(sstables[b].path) +
              ",\"generation\":" + std::to_string(sstables[b].generation) + ",\"blocks\":[";
      for (size_t i = 0; i < blocked.size(); ++i) {
        body += (i > 0 ? "," : "") + JsonQuote(sstables[blocked[i]].path);
      }
      body += "]}";
      continue;
    }
    body += ExpiryTracing(sstables[b]) + " blocks " + std::to_string(blocked.size()) +
            " expired sstables from getting dropped:";
    for (size_t e : blocked) body += " " + ExpiryTracing(sstables[e]);
    body += "\n";
  }
  if (json) {
    out << "{\"table\":" << JsonQuote(settings.table)
        << ",\"gc_before\":" << JsonQuote(FormatLocalSeconds(gc_before))
        << ",\"sstables\":" << sstables.size() << ",\"fully_expired\":" << expired_count
        << ",\"blockers\":[" << body << "]}\n";
  } else {
    out << settings.table << ": " << sstables.size() << " SSTables, " << expired_count
        << " fully expired (every local deletion time before gc_before "
        << FormatLocalSeconds(gc_before) << ")\n";
    out << (body.empty() ? "No SSTables block expired SSTables from being dropped\n" : body);
  }
  Status closed = table->db->Close();
  return closed.ok() ? 0 : 1;
}

int RunLayout(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs, std::ostream& out,
              std::ostream& err) {
  Result<LoadedTable> table = LoadTable(settings, fs);
  Result<std::vector<CompactionWindow>> windows =
      table.ok() ? table->db->ExplainExpiry(table->schema.keyspace(), table->schema.name())
                 : table.status();
  if (!windows.ok()) {
    err << "cassette sstable layout: " << windows.status().ToString() << "\n";
    return 1;
  }
  std::map<uint64_t, const LoadedSSTable*> by_generation;
  for (const LoadedSSTable& sstable : table->sstables) by_generation[sstable.generation] = &sstable;
  const int64_t now = table->db->options().clock->WallMicros();
  if (settings.format == OutputFormat::kJson) {
    out << "{\"table\":" << JsonQuote(settings.table)
        << ",\"now\":" << JsonQuote(FormatIsoMicros(now)) << ",\"windows\":[";
    for (size_t i = 0; i < windows->size(); ++i) {
      out << (i > 0 ? "," : "") << WindowJson((*windows)[i]);
    }
    out << "]}\n";
    return table->db->Close().ok() ? 0 : 1;
  }
  out << settings.table << " at " << FormatIsoMicros(now) << ": " << windows->size()
      << " windows\n";
  for (const CompactionWindow& window : *windows) {
    out << WindowText(window);
    for (uint64_t generation : window.sstables) {
      auto it = by_generation.find(generation);
      if (it == by_generation.end()) continue;  // flushed after the MANIFEST was read
      const SSTableStats& s = it->second->reader->stats();
      out << "\t\t\t\t" << it->second->path << ": " << it->second->reader->file_size()
          << " bytes, timestamps " << FormatTimestampMicros(s.min_timestamp) << " .. "
          << FormatTimestampMicros(s.max_timestamp) << ", last expiry "
          << (s.max_local_deletion_time == INT64_MAX
                  ? std::string("never (no TTL)")
                  : FormatLocalSeconds(s.max_local_deletion_time))
          << "\n";
    }
  }
  return table->db->Close().ok() ? 0 : 1;
}

}  // namespace cassette::tools
