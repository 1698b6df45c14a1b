// The read path of W3 (docs/BENCHMARKS.md) without the rest of
// the driver, so its cost per row can be profiled and compared run to run:
//   BM_HourSlice  one whole hour (3,600 rows) of a random sensor streamed
//                 through Database::ReadEach, as cassette-bench reads W3,
//                 from one compacted SSTable of the workload's table.
//                 Arg: the block cache in MiB. The data decompresses to
//                 about 40 MiB, so 4 is W3's case (most chunks decompressed
//                 per read, as at full scale with the default 32 MiB cache)
//                 and 256 is every chunk cached (the per-row cost alone).
// The database is on the in-memory file system with a manual clock, so the
// figure is CPU, not disk. items_processed counts rows.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/driver/cassette_table.h"
#include "bench/driver/sensor_workload.h"
#include "cassette/clock.h"
#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/insert_batch.h"
#include "cassette/query.h"

namespace cassette::bench {
namespace {

constexpr int kSensors = 50;
constexpr int64_t kSeconds = 6 * 3600;  // W3 at full scale: 20 k seconds per sensor

Result<std::unique_ptr<Database>> OpenSlicedTable(uint64_t cache_bytes) {
  EngineConfig config;
  config.sensors = kSensors;
  config.log = false;
  Options options = BenchDatabaseOptions(config);
  options.file_system = NewMemFileSystem();
  options.clock = std::make_shared<ManualClock>(kWorkloadStartSeconds * 1'000'000);
  options.block_cache_size = cache_bytes;
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(options, "/db"));
  CASSETTE_RETURN_IF_ERROR(db->CreateKeyspace(KeyspaceSchema{kBenchKeyspace}, true));
  CASSETTE_RETURN_IF_ERROR(db->CreateTable(ReadingsTableSchema(config), true));
  InsertBatch batch{std::string(kBenchKeyspace),
                    std::string(kBenchTable),
                    {"sensor_id", "day", "reading_time", "temperature", "humidity", "tag"}};
  std::vector<Value> uuids, tags;
  for (int s = 0; s < kSensors; ++s) {
    uuids.push_back(Value::Uuid(SensorUuid(s)));
    tags.push_back(Value::Text(Tag(s)));
  }
  for (int64_t r = 0; r < kSeconds * kSensors; r += 100) {
    batch.Clear();
    for (int64_t i = r; i < r + 100; ++i) {
      const Reading reading = ReadingAt(i, kSensors);
      SetReadingRow(reading, uuids[reading.sensor], tags[reading.sensor], batch.AddRow());
    }
    CASSETTE_RETURN_IF_ERROR(db->ApplyInserts(batch));
  }
  CASSETTE_RETURN_IF_ERROR(db->Flush());
  CASSETTE_RETURN_IF_ERROR(db->CompactMajor(kBenchKeyspace, kBenchTable));
  return db;
}

void BM_HourSlice(benchmark::State& state) {
  auto db = OpenSlicedTable(static_cast<uint64_t>(state.range(0)) << 20);
  if (!db.ok()) return state.SkipWithError(db.status().ToString().c_str());
  std::mt19937_64 rng(42);
  int64_t rows = 0;
  double sum = 0;
  for (auto _ : state) {
    const int sensor = static_cast<int>(rng() % kSensors);
    const int64_t from = static_cast<int64_t>(rng() % (kSeconds / 3600)) * 3600;
    ReadQuery query;
    query.keyspace = kBenchKeyspace;
    query.table = kBenchTable;
    query.partition_keys.push_back({Value::Uuid(SensorUuid(sensor)), Value::Date(DayOf(from))});
    query.columns = {"temperature", "humidity", "tag"};
    query.slice_start = ClusteringBound{{Value::Timestamp(ReadingTimeMillis(from))}, true};
    query.slice_end = ClusteringBound{{Value::Timestamp(ReadingTimeMillis(from + 3600))}, false};
    int64_t got = 0;
    auto read = (*db)->ReadEach(query, [&](const RowView& row) {
      ++got;
      sum += row.values[0].AsDouble();
      return Status::OK();
    });
    if (!read.ok() || got != 3600) {
      state.SkipWithError(read.ok() ? "expected 3,600 rows" : read.status().ToString().c_str());
      break;
    }
    rows += got;
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_HourSlice)->Arg(4)->Arg(256);

}  // namespace
}  // namespace cassette::bench
