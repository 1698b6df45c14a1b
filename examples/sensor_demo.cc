// The quick-start demo: an embedded time-series table of sensor readings.
// Creates the schema (if missing), ingests a simulated day of readings from
// three sensors, flushes them to an SSTable and queries them back: the
// newest readings first, then a one-hour slice.
//
//   sensor_demo [DATA_DIR]      (default ./data)
#include <cmath>
#include <cstdio>
#include <string>

#include "cassette/db.h"

using namespace cassette;

namespace {

constexpr int64_t kDayMillis = 86'400'000;
constexpr int64_t kDayStartMillis = 1'705'276'800'000;  // 2024-01-15T00:00:00Z

int Fail(const Status& s) {
  std::fprintf(stderr, "error: %s\n", s.ToString().c_str());
  return 1;
}

void Print(const ResultSet& result) {
  for (const ColumnSpec& column : result.columns) std::printf(" %-32s", column.name.c_str());
  std::printf("\n");
  for (const ResultRow& row : result.rows) {
    for (const Value& value : row.values) std::printf(" %-32s", value.ToString().c_str());
    std::printf("\n");
  }
  std::printf("(%zu rows; sstables read %lld, memtables read %lld)\n\n", result.rows.size(),
              static_cast<long long>(result.stats.sstables_read),
              static_cast<long long>(result.stats.memtables_read));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "./data";
  Options options;
  auto opened = Database::Open(options, dir);
  if (!opened.ok()) return Fail(opened.status());
  Database& db = **opened;

  Status s = db.CreateKeyspace({.name = "iot"}, /*if_not_exists=*/true);
  if (!s.ok()) return Fail(s);
  TableSchema readings("iot", "readings");
  readings.AddPartitionKey("sensor_id", DataType::Text())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("reading_time", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddRegular("temperature", DataType::Double())
      .AddRegular("humidity", DataType::Double());
  TableOptions table_options;
  table_options.default_time_to_live = 7 * 86400;
  table_options.compaction = {{"class", "TimeWindowCompactionStrategy"},
                              {"compaction_window_unit", "DAYS"},
                              {"compaction_window_size", "1"}};
  readings.WithOptions(table_options);
  s = db.CreateTable(readings, /*if_not_exists=*/true);
  if (!s.ok()) return Fail(s);

  // One reading a minute from three sensors, written in time order, one
  // batch per minute (one commit-log record, one atomic unit).
  const int32_t day = static_cast<int32_t>(kDayStartMillis / kDayMillis);
  const char* sensors[] = {"sensor-1", "sensor-2", "sensor-3"};
  int64_t written = 0;
  for (int minute = 0; minute < 24 * 60; ++minute) {
    std::vector<Mutation> batch;
    for (int i = 0; i < 3; ++i) {
      Mutation m("iot", "readings", {Value::Text(sensors[i]), Value::Date(day)});
      m.Insert({Value::Timestamp(kDayStartMillis + minute * 60'000LL)})
          .Set("temperature", Value::Double(20 + 5 * std::sin(minute / 240.0 + i)))
          .Set("humidity", Value::Double(40 + (minute * 7 + i) % 30));
      batch.push_back(std::move(m));
    }
    s = db.ApplyBatch(batch);
    if (!s.ok()) return Fail(s);
    written += 3;
  }
  std::printf("ingested %lld readings into %s\n", static_cast<long long>(written), dir.c_str());
  s = db.FlushTable("iot", "readings");
  if (!s.ok()) return Fail(s);

  ReadQuery newest;
  newest.keyspace = "iot";
  newest.table = "readings";
  newest.partition_keys = {{Value::Text("sensor-1"), Value::Date(day)}};
  newest.columns = {"reading_time", "temperature", "humidity"};
  newest.limit = 5;
  auto result = db.Read(newest);
  if (!result.ok()) return Fail(result.status());
  std::printf("newest 5 readings of sensor-1:\n");
  Print(*result);

  ReadQuery hour = newest;
  hour.limit = 0;
  hour.slice_start = ClusteringBound{{Value::Timestamp(kDayStartMillis + 10 * 3'600'000LL)}, true};
  hour.slice_end =
      ClusteringBound{{Value::Timestamp(kDayStartMillis + 10 * 3'600'000LL + 4 * 60'000)}, false};
  result = db.Read(hour);
  if (!result.ok()) return Fail(result.status());
  std::printf("sensor-1 from 10:00 to 10:04:\n");
  Print(*result);

  auto stats = db.GetTableStats("iot", "readings");
  if (!stats.ok()) return Fail(stats.status());
  std::printf("iot.readings: %lld sstables, %lld bytes on disk, write amplification %.2f\n",
              static_cast<long long>(stats->sstable_count),
              static_cast<long long>(stats->bytes_on_disk), stats->write_amplification);
  s = db.Close();
  return s.ok() ? 0 : Fail(s);
}
