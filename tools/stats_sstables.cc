#include "tools/stats_sstables.h"

#include <cstdio>
#include <limits>

#include "engine/db/manifest.h"
#include "engine/mutation/expiry.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/types/type_codec.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

std::string Fixed(double value, int digits) {
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

std::string Generations(const std::vector<uint64_t>& generations, const char* separator) {
  std::string out;
  for (size_t i = 0; i < generations.size(); ++i) {
    if (i > 0) out += separator;
    out += std::to_string(generations[i]);
  }
  return out;
}

std::string OptionalInstant(const std::optional<int64_t>& micros) {
  return micros ? FormatIsoMicros(*micros) : std::string("-");
}

std::string OptionalInstantJson(const std::optional<int64_t>& micros) {
  return micros ? JsonQuote(FormatIsoMicros(*micros)) : std::string("null");
}

// Local deletion times are seconds; INT64_MAX marks a cell that never
// expires.
std::optional<int64_t> FullyExpiredAt(const SSTableStats& stats, int32_t gc_grace_seconds) {
  const int64_t last = stats.max_local_deletion_time;
  if (last == std::numeric_limits<int64_t>::max()) return std::nullopt;
  if (last == std::numeric_limits<int64_t>::min()) return std::nullopt;  // empty file
  if (last > std::numeric_limits<int64_t>::max() / 1000000 - gc_grace_seconds - 1) {
    return std::nullopt;
  }
  // Droppable once gc_before (now - gc_grace) is past it, as the expiry
  // view (Database::ExplainExpiry) says: a second later.
  return (last + gc_grace_seconds + 1) * 1000000;
}

}  // namespace

Result<std::vector<SSTableSummary>> ListSSTables(FileSystem* fs, const std::string& data_dir,
                                                 const TableSchema& schema, int64_t now_micros) {
  std::vector<SSTableSummary> out;
  CASSETTE_ASSIGN_OR_RETURN(std::optional<ManifestState> manifest, ReadManifest(fs, data_dir));
  if (!manifest) return out;
  auto state = manifest->tables.find(schema.id());
  if (state == manifest->tables.end()) return out;
  // <data>/<ks>/<table>-<id>/<generation>.sst, as the MANIFEST names files.
  const std::string dir =
      data_dir + "/" + schema.keyspace() + "/" + schema.name() + "-" + std::to_string(schema.id());
  const int32_t gc_grace = schema.options().gc_grace_seconds;
  const int64_t gc_before_seconds = GcBefore(NowInSeconds(now_micros), gc_grace);
  for (const SSTableEntry& entry : state->second.sstables) {
    char name[32];
    std::snprintf(name, sizeof(name), "%06llu.sst",
                  static_cast<unsigned long long>(entry.generation));
    Result<std::shared_ptr<SSTableReader>> reader = SSTableReader::Open(fs, dir + "/" + name);
    if (!reader.ok()) continue;
    const SSTableStats& stats = (*reader)->stats();
    SSTableSummary summary;
    summary.generation = entry.generation;
    summary.level = entry.level;
    summary.bytes_on_disk = (*reader)->file_size();
    summary.partitions = stats.partition_count;
    summary.rows = stats.row_count;
    summary.cells = stats.cell_count;
    summary.tombstone_cells = stats.tombstone_cell_count;
    if (stats.min_timestamp <= stats.max_timestamp) {
      summary.min_timestamp = stats.min_timestamp;
      summary.max_timestamp = stats.max_timestamp;
    }
    summary.max_ttl = stats.max_ttl;
    summary.fully_expired_at_micros = FullyExpiredAt(stats, gc_grace);
    summary.droppable_tombstone_ratio = stats.DroppableTombstoneRatio(gc_before_seconds);
    out.push_back(std::move(summary));
  }
  return out;
}

std::string SSTableListText(const std::vector<SSTableSummary>& sstables) {
  std::string out = "\t\tSSTables:\n";
  if (sstables.empty()) return out + "\t\t\t(none)\n";
  for (const SSTableSummary& s : sstables) {
    out += "\t\t\t" + std::to_string(s.generation) + ": level " + std::to_string(s.level) + ", " +
           std::to_string(s.bytes_on_disk) + " bytes, " + std::to_string(s.partitions) +
           " partitions, " + std::to_string(s.rows) + " rows, " + std::to_string(s.cells) +
           " cells (" + std::to_string(s.tombstone_cells) + " tombstones), timestamps " +
           OptionalInstant(s.min_timestamp) + " .. " + OptionalInstant(s.max_timestamp) +
           ", max TTL " + std::to_string(s.max_ttl) + " s, fully expired " +
           (s.fully_expired_at_micros ? "at " + FormatIsoMicros(*s.fully_expired_at_micros)
                                      : std::string("never")) +
           ", droppable tombstones " + Fixed(s.droppable_tombstone_ratio, 3) + "\n";
  }
  return out;
}

std::string SSTableListJson(const std::vector<SSTableSummary>& sstables) {
  std::string out = "[";
  for (size_t i = 0; i < sstables.size(); ++i) {
    const SSTableSummary& s = sstables[i];
    if (i > 0) out += ",";
    out += "{\"generation\":" + std::to_string(s.generation) +
           ",\"level\":" + std::to_string(s.level) +
           ",\"bytes_on_disk\":" + std::to_string(s.bytes_on_disk) +
           ",\"partitions\":" + std::to_string(s.partitions) +
           ",\"rows\":" + std::to_string(s.rows) + ",\"cells\":" + std::to_string(s.cells) +
           ",\"tombstone_cells\":" + std::to_string(s.tombstone_cells) +
           ",\"min_timestamp\":" + OptionalInstantJson(s.min_timestamp) +
           ",\"max_timestamp\":" + OptionalInstantJson(s.max_timestamp) +
           ",\"max_ttl\":" + std::to_string(s.max_ttl) +
           ",\"fully_expired_at\":" + OptionalInstantJson(s.fully_expired_at_micros) +
           ",\"droppable_tombstone_ratio\":" + Fixed(s.droppable_tombstone_ratio, 6) + "}";
  }
  return out + "]";
}

// nodetool compactionhistory's columns (compacted_at, bytes_in, bytes_out,
// rows_merged) with what cassette records besides: why, which files.
std::string CompactionHistoryText(const std::vector<CompactionRecord>& history) {
  // Earlier processes' compactions included (the table's HISTORY file).
  std::string out =
      "\t\tCompaction history (last 7 days, at most 100; nodetool compactionhistory):\n";
  if (history.empty()) return out + "\t\t\t(none)\n";
  for (const CompactionRecord& record : history) {
    out += "\t\t\t" + FormatIsoMicros(record.started_micros) + ": " +
           (record.major ? std::string("major") : record.reason) + "; [" +
           Generations(record.inputs, ", ") + "] -> [" + Generations(record.outputs, ", ") + "]";
    if (!record.expired.empty()) {
      out += ", dropped expired [" + Generations(record.expired, ", ") + "]";
    }
    out += "; bytes in " + std::to_string(record.bytes_read) + ", out " +
           std::to_string(record.bytes_written) + ", rows in " + std::to_string(record.rows_in) +
           ", out " + std::to_string(record.rows_out) + ", tombstones purged " +
           std::to_string(record.tombstones_purged) + ", " +
           std::to_string(record.duration_micros / 1000) + " ms\n";
  }
  return out;
}

std::string CompactionHistoryJson(const std::vector<CompactionRecord>& history) {
  std::string out = "[";
  for (size_t i = 0; i < history.size(); ++i) {
    const CompactionRecord& r = history[i];
    if (i > 0) out += ",";
    out += "{\"compacted_at\":" + JsonQuote(FormatIsoMicros(r.started_micros)) +
           ",\"strategy\":" + JsonQuote(r.strategy) + ",\"reason\":" + JsonQuote(r.reason) +
           ",\"major\":" + (r.major ? "true" : "false") + ",\"inputs\":[" +
           Generations(r.inputs, ",") + "],\"expired\":[" + Generations(r.expired, ",") +
           "],\"outputs\":[" + Generations(r.outputs, ",") +
           "],\"bytes_in\":" + std::to_string(r.bytes_read) +
           ",\"bytes_out\":" + std::to_string(r.bytes_written) +
           ",\"bytes_dropped\":" + std::to_string(r.bytes_dropped) +
           ",\"rows_in\":" + std::to_string(r.rows_in) +
           ",\"rows_out\":" + std::to_string(r.rows_out) +
           ",\"tombstones_purged\":" + std::to_string(r.tombstones_purged) +
           ",\"duration_micros\":" + std::to_string(r.duration_micros) + "}";
  }
  return out + "]";
}

}  // namespace cassette::tools
