#include "bench/driver/cassette_table.h"

namespace cassette::bench {

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
                        {"compaction_window_unit", "DAYS"},
                        {"compaction_window_size", "1"}};
  options.compression = {{"class", "ZstdCompressor"},
                         {"chunk_length_in_kb", "16"},
                         {"compression_level", std::to_string(config.zstd_level)}};
  return schema;
}

std::string ReadingsTableCql(const EngineConfig& config) {
  return "CREATE TABLE bench.readings (sensor_id uuid, day date, reading_time timestamp, "
         "temperature double, humidity double, tag text, "
         "PRIMARY KEY ((sensor_id, day), reading_time)) "
         "WITH CLUSTERING ORDER BY (reading_time DESC) "
         "AND compaction = {'class': 'TimeWindowCompactionStrategy', "
         "'compaction_window_unit': 'DAYS', 'compaction_window_size': 1} "
         "AND compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': 16, "
         "'compression_level': " +
         std::to_string(config.zstd_level) + "}";
}

Options BenchDatabaseOptions(const EngineConfig& config) {
  Options options;
  options.commitlog_enabled = config.log;
  options.commitlog_sync = CommitLogSync::kPeriodic;
  options.memtable_flush_threshold = config.memtable_bytes;
  // The peers run their compactions unthrottled by default; so does cassette
  // here (its own default is Cassandra's 64 MiB/s).
  options.compaction_throughput_mib_per_sec = 0;
  return options;
}

}  // namespace cassette::bench
