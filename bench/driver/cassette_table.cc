#include "bench/driver/cassette_table.h"

namespace cassette::bench {
namespace {

// W5: one window per hour, and expired data kept one window past its TTL
// (gc_grace_seconds) instead of Cassandra's 10 days, which would keep a
// 7-day run's every row on disk. On one node there is no repair for
// gc_grace to wait for (docs/COMPACTION.md): what a TWCS user with TTL'd
// rows sets, as compaction_bench's week of TWCS does.
constexpr int kRetentionGcGraceSeconds = 3600;
// W5: the commit log's periodic sync, in simulated time (see BenchDatabaseOptions).
constexpr int64_t kSimulatedSyncPeriodMs = 3600 * 1000;

}  // namespace

TableSchema ReadingsTableSchema(const EngineConfig& config) {
  TableSchema schema(kBenchKeyspace, kBenchTable);
  schema.AddPartitionKey("sensor_id", DataType::Uuid())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("reading_time", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddRegular("temperature", DataType::Double())
      .AddRegular("humidity", DataType::Double())
      .AddRegular("tag", DataType::Text());
  TableOptions& options = schema.mutable_options();
  options.compaction = {{"class", "TimeWindowCompactionStrategy"},
                        {"compaction_window_unit", config.ttl_seconds > 0 ? "HOURS" : "DAYS"},
                        {"compaction_window_size", "1"}};
  if (config.ttl_seconds > 0) {
    options.default_time_to_live = static_cast<int32_t>(config.ttl_seconds);
    options.gc_grace_seconds = kRetentionGcGraceSeconds;
  }
  options.compression = {{"class", "ZstdCompressor"},
                         {"chunk_length_in_kb", "16"},
                         {"compression_level", std::to_string(config.zstd_level)}};
  return schema;
}

void SetReadingRow(const Reading& r, const Value& uuid, const Value& tag, std::span<Value> row) {
  row[0] = uuid;
  row[1] = Value::Date(DayOf(r.second));
  row[2] = Value::Timestamp(ReadingTimeMillis(r.second));
  row[3] = Value::Double(Temperature(r.sensor, r.second));
  row[4] = Value::Double(Humidity(r.sensor, r.second));
  row[5] = tag;
}

std::string ReadingsTableCql(const EngineConfig& config) {
  const bool retention = config.ttl_seconds > 0;
  std::string cql =
      "CREATE TABLE bench.readings (sensor_id uuid, day date, reading_time timestamp, "
      "temperature double, humidity double, tag text, "
      "PRIMARY KEY ((sensor_id, day), reading_time)) "
      "WITH CLUSTERING ORDER BY (reading_time DESC) "
      "AND compaction = {'class': 'TimeWindowCompactionStrategy', "
      "'compaction_window_unit': '" +
      std::string(retention ? "HOURS" : "DAYS") +
      "', 'compaction_window_size': 1} "
      "AND compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': 16, "
      "'compression_level': " +
      std::to_string(config.zstd_level) + "}";
  if (retention) {
    cql += " AND default_time_to_live = " + std::to_string(config.ttl_seconds) +
           " AND gc_grace_seconds = " + std::to_string(kRetentionGcGraceSeconds);
  }
  return cql;
}

Options BenchDatabaseOptions(const EngineConfig& config) {
  Options options;
  options.commitlog_enabled = config.log;
  options.commitlog_sync = CommitLogSync::kPeriodic;
  if (config.log_compression) options.commitlog_compression = CommitLogCompression::kZstd;
  options.memtable_flush_threshold = config.memtable_bytes;
  // The peers run their compactions unthrottled by default; so does cassette
  // here (its own default is Cassandra's 64 MiB/s).
  options.compaction_throughput_mib_per_sec = 0;
  // W5: the simulated clock. Background compaction still runs after every
  // flush (Options::auto_compaction); a manual clock only stops the
  // real-time timer thread, so TWCS checks for expired SSTables at each
  // flush, as docs/COMPACTION.md says.
  if (config.clock != nullptr) {
    options.clock = config.clock;
    // The periodic sync's period runs on that clock too, and the simulated
    // week passes thousands of times faster than real time: the 10 s
    // default would fsync on every write call (RocksDB never syncs its WAL
    // here). One simulated hour is still more often than 10 real seconds
    // at these ingest rates.
    options.commitlog_sync_period_ms = kSimulatedSyncPeriodMs;
  }
  return options;
}

std::string ReadingsTableDescription(const EngineConfig& config) {
  std::string d = config.ttl_seconds > 0
                      ? "TWCS 1-hour windows, default_time_to_live " +
                            std::to_string(config.ttl_seconds) + ", gc_grace_seconds " +
                            std::to_string(kRetentionGcGraceSeconds)
                      : std::string("TWCS 1-day windows");
  d += ", zstd-" + std::to_string(config.zstd_level) + ", 16 KiB chunks";
  if (config.clock != nullptr) {
    d += ", simulated clock (commit log synced every " +
         std::to_string(kSimulatedSyncPeriodMs / 1000) + " simulated s)";
  }
  if (!config.log) d += ", commit log off";
  if (config.log && config.log_compression) d += ", commit log zstd-compressed";
  return d;
}

Result<WriteCounters> ReadingsTableCounters(Database* db) {
  CASSETTE_ASSIGN_OR_RETURN(TableStats stats, db->GetTableStats(kBenchKeyspace, kBenchTable));
  WriteCounters counters;
  counters.sstable_bytes = stats.bytes_flushed + stats.bytes_compacted;
  counters.sstable_disk_bytes = stats.bytes_on_disk;
  counters.detail = std::to_string(stats.bytes_flushed) + " bytes flushed, " +
                    std::to_string(stats.bytes_compacted) + " compacted; " +
                    std::to_string(stats.compactions_completed) + " compactions, " +
                    std::to_string(stats.expired_sstables_dropped) +
                    " expired SSTables dropped whole, " + std::to_string(stats.sstable_count) +
                    " SSTables at the end";
  return counters;
}

}  // namespace cassette::bench
