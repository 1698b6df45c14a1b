#include "tools/stats_command.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "engine/types/type_codec.h"
#include "tools/shell_directives.h"
#include "tools/stats_sstables.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

std::string Number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) return "null";
  return std::string(buffer, end);
}

// A ratio for people to read (the json output keeps every digit).
std::string Ratio(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3f", value);
  return buffer;
}

template <class T>
std::string JoinNumbers(const std::vector<T>& values, const char* separator) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += separator;
    out += std::to_string(values[i]);
  }
  return out;
}

// The tables `selector` names: "ks.table", "ks" (each of its tables), or
// empty (every table), sorted.
Result<std::vector<std::pair<std::string, std::string>>> SelectTables(Database* db,
                                                                      const std::string& selector) {
  std::vector<std::pair<std::string, std::string>> tables;
  std::vector<std::string> keyspaces;
  if (selector.empty()) {
    keyspaces = db->ListKeyspaces();
  } else {
    std::string keyspace;
    std::string table;
    if (!ParseTableName(selector, &keyspace, &table)) {
      return Status::InvalidArgument("'" + selector + "' is not a keyspace or keyspace.table");
    }
    if (!keyspace.empty()) {
      CASSETTE_RETURN_IF_ERROR(db->GetTable(keyspace, table).status());
      tables.emplace_back(keyspace, table);
      return tables;
    }
    keyspaces.push_back(table);  // a single name is a keyspace
  }
  for (const std::string& keyspace : keyspaces) {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> names, db->ListTables(keyspace));
    for (const std::string& name : names) tables.emplace_back(keyspace, name);
  }
  return tables;
}

// Data of the live SSTables past TTL (or deletion) + gc_grace: what the
// next compactions may purge (the engine's estimate), and how long the
// oldest of it has waited.
int64_t ExpiredBytesWaiting(const TableStats& stats) {
  uint64_t total = 0;
  for (const auto& [lag, bytes] : stats.purgeable_bytes_by_lag) total += bytes;
  return static_cast<int64_t>(total);
}

std::string LastStallJson(const TableStats& stats) {
  return stats.last_memtable_write_stall_micros != 0
             ? JsonQuote(FormatIsoMicros(stats.last_memtable_write_stall_micros))
             : std::string("null");
}

int64_t ExpiredLongestWait(const TableStats& stats) {
  return stats.purgeable_bytes_by_lag.empty() ? 0 : stats.purgeable_bytes_by_lag.rbegin()->first;
}

}  // namespace

std::string WindowJson(const CompactionWindow& window) {
  std::string out = "{\"window\":" + JsonQuote(FormatIsoMicros(window.start_micros));
  out += ",\"sstables\":[" + JoinNumbers(window.sstables, ",") + "]";
  out += ",\"live_bytes\":" + std::to_string(window.live_bytes);
  out += ",\"droppable_bytes\":" + std::to_string(window.droppable_bytes);
  out += ",\"droppable_at\":" + (window.droppable_at_micros
                                     ? JsonQuote(FormatIsoMicros(*window.droppable_at_micros))
                                     : std::string("null"));
  out += ",\"blocked_by\":[" + JoinNumbers(window.blocked_by, ",") + "]";
  out += ",\"blocked_by_memtable\":" + std::string(window.blocked_by_memtable ? "true" : "false");
  return out + "}";
}

std::string WindowText(const CompactionWindow& window) {
  std::string out = "\t\t\t" + FormatIsoMicros(window.start_micros) + ": SSTables [" +
                    JoinNumbers(window.sstables, ", ") + "]; " + std::to_string(window.live_bytes) +
                    " bytes live, " + std::to_string(window.droppable_bytes) +
                    " bytes droppable now; ";
  if (window.droppable_at_micros) {
    out += "all droppable at " + FormatIsoMicros(*window.droppable_at_micros);
  } else {
    out += "never droppable by expiry (holds data without a TTL)";
  }
  if (!window.blocked_by.empty()) {
    out += "; kept by older overlapping SSTables [" + JoinNumbers(window.blocked_by, ", ") + "]";
  }
  if (window.blocked_by_memtable) out += "; kept by overlapping data in the memtable";
  return out + "\n";
}

std::string TableStatsJson(const TableStats& stats, const std::vector<CompactionWindow>* windows) {
  std::string out = "{";
  out += "\"keyspace\":" + JsonQuote(stats.keyspace);
  out += ",\"table\":" + JsonQuote(stats.table);
  const std::pair<const char*, int64_t> leading[] = {
      {"sstable_count", stats.sstable_count},
      {"live_bytes", stats.live_bytes},
      {"bytes_on_disk", stats.bytes_on_disk},
      {"bytes_written_by_users", stats.bytes_written_by_users},
      {"bytes_flushed", stats.bytes_flushed},
      {"bytes_compacted", stats.bytes_compacted},
  };
  for (const auto& [key, value] : leading) {
    out += ",\"" + std::string(key) + "\":" + std::to_string(value);
  }
  out += ",\"write_amplification\":" + Number(stats.write_amplification);
  const std::pair<const char*, int64_t> sizes[] = {
      {"partition_size_p50", stats.partition_size_p50},
      {"partition_size_p99", stats.partition_size_p99},
      {"partition_size_max", stats.partition_size_max},
      {"tombstone_cells", stats.tombstone_cells},
      {"expired_bytes_waiting", ExpiredBytesWaiting(stats)},
      {"expired_longest_wait_seconds", ExpiredLongestWait(stats)},
  };
  for (const auto& [key, value] : sizes) {
    out += ",\"" + std::string(key) + "\":" + std::to_string(value);
  }
  out += ",\"sstables_per_window\":{";
  bool first = true;
  for (const auto& [window, count] : stats.sstables_per_window) {
    if (!first) out += ",";
    first = false;
    out += JsonQuote(window) + ":" + std::to_string(count);
  }
  out += "}";
  out += ",\"sstables_per_level\":[" + JoinNumbers(stats.sstables_per_level, ",") + "]";
  out += ",\"memtable_bytes\":" + std::to_string(stats.memtable_bytes);
  out += ",\"memtable_write_stalls\":" + std::to_string(stats.memtable_write_stalls);
  out += ",\"memtable_write_stalls_total\":" + std::to_string(stats.memtable_write_stalls_total);
  out += ",\"memtable_write_stall_micros_total\":" +
         std::to_string(stats.memtable_write_stall_micros_total);
  out += ",\"last_memtable_write_stall\":" + LastStallJson(stats);
  out += ",\"partition_count\":" + std::to_string(stats.partition_count);
  out += ",\"compaction_strategy\":" + JsonQuote(stats.compaction_strategy);
  const std::pair<const char*, int64_t> compaction[] = {
      {"compactions_completed", stats.compactions_completed},
      {"compactions_running", stats.compactions_running},
      {"compactions_postponed_for_space", stats.compactions_postponed_for_space},
      {"expired_sstables_dropped", stats.expired_sstables_dropped},
      {"tombstones_purged", stats.tombstones_purged},
      {"late_writes", stats.late_writes},
      {"background_errors", stats.background_errors},
  };
  for (const auto& [key, value] : compaction) {
    out += ",\"" + std::string(key) + "\":" + std::to_string(value);
  }
  out += ",\"sstable_failures\":[";
  for (size_t i = 0; i < stats.sstable_failures.size(); ++i) {
    const SSTableFailure& failure = stats.sstable_failures[i];
    if (i > 0) out += ",";
    out += "{\"path\":" + JsonQuote(failure.path) +
           ",\"generation\":" + std::to_string(failure.generation) +
           ",\"found_by\":" + JsonQuote(failure.found_by) +
           ",\"out_of_service\":" + (failure.out_of_service ? "true" : "false") +
           ",\"error\":" + JsonQuote(failure.error) + "}";
  }
  out += "]";
  out += ",\"history_warnings\":[";
  for (size_t i = 0; i < stats.history_warnings.size(); ++i) {
    if (i > 0) out += ",";
    out += JsonQuote(stats.history_warnings[i]);
  }
  out += "]";
  if (windows != nullptr) {
    out += ",\"expiry\":[";
    for (size_t i = 0; i < windows->size(); ++i) {
      if (i > 0) out += ",";
      out += WindowJson((*windows)[i]);
    }
    out += "]";
  }
  return out + "}";
}

std::string TableStatsText(const TableStats& stats, const std::vector<CompactionWindow>* windows) {
  std::string out = "\t\tTable: " + stats.table + "\n";
  auto line = [&out](const std::string& label, const std::string& value) {
    out += "\t\t" + label + ": " + value + "\n";
  };
  line("SSTable count", std::to_string(stats.sstable_count));
  if (stats.compaction_strategy == "LeveledCompactionStrategy") {
    line("SSTables in each level", "[" + JoinNumbers(stats.sstables_per_level, ", ") + "]");
  }
  if (!stats.sstables_per_window.empty()) {
    std::string windows_text;
    for (const auto& [window, count] : stats.sstables_per_window) {
      if (!windows_text.empty()) windows_text += ", ";
      windows_text += window + "=" + std::to_string(count);
    }
    line("SSTables in each window", windows_text);
  }
  line("Space used (total)", std::to_string(stats.bytes_on_disk));
  line("Live data size (uncompressed)", std::to_string(stats.live_bytes));
  line("Memtable data size", std::to_string(stats.memtable_bytes));
  line("Memtable write stalls (since opened)", std::to_string(stats.memtable_write_stalls));
  line("Memtable write stalls (total)", std::to_string(stats.memtable_write_stalls_total));
  line("Time stalled (total, ms)", std::to_string(stats.memtable_write_stall_micros_total / 1000));
  line("Last memtable write stall", stats.last_memtable_write_stall_micros != 0
                                        ? FormatIsoMicros(stats.last_memtable_write_stall_micros)
                                        : std::string("never"));
  line("Bytes written by users", std::to_string(stats.bytes_written_by_users));
  line("Bytes flushed", std::to_string(stats.bytes_flushed));
  line("Bytes compacted", std::to_string(stats.bytes_compacted));
  line("Write amplification", Ratio(stats.write_amplification));
  line("Number of partitions (estimate)", std::to_string(stats.partition_count));
  line("Partition size p50 (bytes)", std::to_string(stats.partition_size_p50));
  line("Partition size p99 (bytes)", std::to_string(stats.partition_size_p99));
  line("Compacted partition maximum bytes", std::to_string(stats.partition_size_max));
  line("Tombstone cells", std::to_string(stats.tombstone_cells));
  line("Data past TTL + gc_grace (bytes, estimate)", std::to_string(ExpiredBytesWaiting(stats)));
  line("Longest wait past TTL + gc_grace (seconds)", std::to_string(ExpiredLongestWait(stats)));
  line("Compaction strategy", stats.compaction_strategy);
  line("Compactions completed", std::to_string(stats.compactions_completed));
  line("Compactions running", std::to_string(stats.compactions_running));
  line("Compactions postponed for disk space",
       std::to_string(stats.compactions_postponed_for_space));
  line("Expired SSTables dropped", std::to_string(stats.expired_sstables_dropped));
  line("Tombstones purged", std::to_string(stats.tombstones_purged));
  line("Late writes", std::to_string(stats.late_writes));
  // Failed background flushes and compactions since the database opened
  // (a read-only view runs none, so 0 there): the LOG file says why.
  line("Background errors (since opened)", std::to_string(stats.background_errors));
  if (!stats.sstable_failures.empty()) {
    line("Damaged SSTables", std::to_string(stats.sstable_failures.size()));
    for (const SSTableFailure& failure : stats.sstable_failures) {
      const std::string state = failure.out_of_service       ? "out of service"
                                : failure.found_by == "open" ? "not loaded"
                                                             : "still live";
      out += "\t\t\t" + failure.path + ": " + state + " (found by " + failure.found_by +
             "): " + failure.error + "\n";
    }
  }
  for (const std::string& warning : stats.history_warnings) {
    line("Warning (history file)", warning);
  }
  if (windows != nullptr) {
    out += "\t\tExpiry by window:\n";
    if (windows->empty()) out += "\t\t\t(no SSTables)\n";
    for (const CompactionWindow& window : *windows) out += WindowText(window);
  }
  return out;
}

std::string DeviceStatsJson(const DeviceStats& device) {
  return "{\"device\":{\"bytes_written\":" + std::to_string(device.bytes_written) +
         ",\"commitlog_bytes_written\":" + std::to_string(device.commitlog_bytes_written) +
         ",\"syncs\":" + std::to_string(device.syncs) + "}}\n";
}

std::string DeviceStatsText(const DeviceStats& device) {
  return "Device (the whole database, since it was created):\n"
         "\tBytes written to the device: " +
         std::to_string(device.bytes_written) +
         "\n"
         "\tof which commit log: " +
         std::to_string(device.commitlog_bytes_written) +
         "\n"
         "\tfsyncs: " +
         std::to_string(device.syncs) + "\n";
}

Result<std::string> TableReport(Database* db, FileSystem* fs, const std::string& data_dir,
                                const std::string& keyspace, const std::string& table,
                                OutputFormat format) {
  CASSETTE_ASSIGN_OR_RETURN(TableStats stats, db->GetTableStats(keyspace, table));
  // Only TWCS tables have windows; other strategies answer InvalidRequest.
  Result<std::vector<CompactionWindow>> windows = db->ExplainExpiry(keyspace, table);
  const std::vector<CompactionWindow>* explained = windows.ok() ? &*windows : nullptr;
  CASSETTE_ASSIGN_OR_RETURN(TableSchema schema, db->GetTable(keyspace, table));
  CASSETTE_ASSIGN_OR_RETURN(std::vector<SSTableSummary> sstables,
                            ListSSTables(fs, data_dir, schema, db->NowMicros()));
  if (format == OutputFormat::kJson) {
    std::string json = TableStatsJson(stats, explained);
    json.pop_back();  // the closing brace: the SSTables and history follow
    return json + ",\"sstables\":" + SSTableListJson(sstables) +
           ",\"compaction_history\":" + CompactionHistoryJson(stats.recent_compactions) + "}\n";
  }
  return TableStatsText(stats, explained) + SSTableListText(sstables) +
         CompactionHistoryText(stats.recent_compactions) + "\n";
}

int RunStatsCommand(const StatsSettings& settings, std::shared_ptr<FileSystem> file_system,
                    std::ostream& out, std::ostream& err) {
  Options options;
  options.file_system = std::move(file_system);
  options.read_only = true;
  options.create_if_missing = false;
  // A damaged SSTable is reported with the table's statistics, never a
  // reason to show none.
  options.disk_failure_policy = DiskFailurePolicy::kIgnore;
  // Data written on a shell's manual clock is judged at that clock's time
  // (TTLs, gc_grace), not at today's.
  if (settings.manual_clock_micros) {
    options.clock = std::make_shared<ManualClock>(*settings.manual_clock_micros);
  }
  std::shared_ptr<FileSystem> fs = options.file_system;
  Result<std::unique_ptr<Database>> db = Database::Open(options, settings.data_dir);
  if (!db.ok()) {
    err << "cassette stats: cannot open " << settings.data_dir << ": " << db.status().ToString()
        << "\n";
    return 1;
  }
  auto tables = SelectTables(db->get(), settings.table);
  if (!tables.ok()) {
    err << "cassette stats: " << tables.status().ToString() << "\n";
    return 1;
  }
  if (settings.format == OutputFormat::kTable) {
    out << "Total number of tables: " << tables->size() << "\n----------------\n";
  }
  std::string current_keyspace;
  int exit_code = 0;
  for (const auto& [keyspace, table] : *tables) {
    Result<std::string> report =
        TableReport(db->get(), fs.get(), settings.data_dir, keyspace, table, settings.format);
    if (!report.ok()) {
      err << "cassette stats: " << keyspace << "." << table << ": " << report.status().ToString()
          << "\n";
      exit_code = 1;
      continue;
    }
    if (settings.format == OutputFormat::kJson) {
      out << *report;
      continue;
    }
    if (keyspace != current_keyspace) {
      if (!current_keyspace.empty()) out << "----------------\n";
      out << "Keyspace : " << keyspace << "\n";
      current_keyspace = keyspace;
    }
    out << *report;
  }
  if (settings.format == OutputFormat::kTable && !current_keyspace.empty()) {
    out << "----------------\n";
  }
  const DeviceStats device = (*db)->GetDeviceStats();
  out << (settings.format == OutputFormat::kJson ? DeviceStatsJson(device)
                                                 : DeviceStatsText(device));
  Status closed = (*db)->Close();
  if (!closed.ok()) {
    err << "cassette stats: " << closed.ToString() << "\n";
    exit_code = 1;
  }
  return exit_code;
}

}  // namespace cassette::tools
