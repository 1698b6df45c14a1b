// Memtable apply throughput for time-series writes: 100-byte rows, one per
// update, appended in time order across 1000 partitions (each partition's
// rows arrive in clustering order, partitions interleaved). Reports rows/s
// as items_processed. The target is >= 1.5 million rows/s on one core.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/memtable/memtable.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

constexpr int kPartitions = 1000;
constexpr size_t kValueSize = 100;
// Rows per memtable before it is replaced (about 40 MB of arena), as a
// flush would; keeps the benchmark's footprint bounded.
constexpr int64_t kRowsPerMemtable = 256 * 1024;

// One update per partition, reused: only the clustering and timestamps
// change between applies, so the loop measures Apply, not construction.
std::vector<PartitionUpdate> MakeUpdates(int rows_per_update) {
  std::vector<PartitionUpdate> updates;
  for (int p = 0; p < kPartitions; ++p) {
    PartitionUpdate u;
    std::string key = "sensor-";
    key += std::to_string(p);
    u.key = DecoratedKey::FromKey(std::move(key));
    for (int r = 0; r < rows_per_update; ++r) {
      Row row;
      row.clustering.assign(8, '\0');
      row.marker = LivenessInfo{0, 0, kNoDeletionTime};
      ColumnData col;
      col.column_id = 1;
      col.cells.push_back(Cell::Live(0, std::string(kValueSize, 'v')));
      row.columns.push_back(std::move(col));
      u.rows.push_back(std::move(row));
    }
    updates.push_back(std::move(u));
  }
  return updates;
}

void SetTime(Row* row, uint64_t t) {
  std::string be;
  PutBigEndian64(&be, t);
  row->clustering.replace(0, 8, be);
  const int64_t ts = 1700000000000000 + static_cast<int64_t>(t);
  row->marker.timestamp = ts;
  row->columns[0].cells[0].timestamp = ts;
}

void BM_MemtableApplyTimeSeries(benchmark::State& state) {
  const int rows_per_update = static_cast<int>(state.range(0));
  std::vector<PartitionUpdate> updates = MakeUpdates(rows_per_update);
  auto memtable = std::make_unique<Memtable>();
  int64_t rows_in_memtable = 0;
  double bytes_per_row = 0;
  uint64_t t = 0;
  for (auto _ : state) {
    // One batch: every partition gets its next rows in time order.
    for (PartitionUpdate& u : updates) {
      for (Row& row : u.rows) SetTime(&row, t++);
      memtable->Apply(u);
    }
    rows_in_memtable += int64_t{kPartitions} * rows_per_update;
    if (rows_in_memtable >= kRowsPerMemtable) {
      state.PauseTiming();
      bytes_per_row = static_cast<double>(memtable->ApproximateMemoryUsage()) /
                      static_cast<double>(rows_in_memtable);
      memtable = std::make_unique<Memtable>();
      rows_in_memtable = 0;
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations() * kPartitions * rows_per_update);
  // Memory accounted per row when the memtable was replaced.
  state.counters["mem_bytes_per_row"] = bytes_per_row;
  state.SetBytesProcessed(state.iterations() * kPartitions * rows_per_update * kValueSize);
}
BENCHMARK(BM_MemtableApplyTimeSeries)->Arg(1)->Arg(10);

}  // namespace
}  // namespace cassette
