// SSTable micro benchmarks on the in-memory file system:
//   BM_SSTableWrite          write N time-series rows (one partition per
//                            1000 rows), rows/s as items_processed
//   BM_SSTableNewestRows     the newest 100 rows of a 100k-row partition from
//                            a warm reader with a block cache: /0 clustering
//                            ASC read reversed, /1 clustering DESC read forward
//   BM_SSTableBloomNegative  MayContainKey on absent keys
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "engine/sstable/block_cache.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/sstable/sstable_writer.h"

namespace cassette {
namespace {

constexpr int64_t kBaseTs = 1'700'000'000'000'000;

std::string Clustering(uint64_t i) {
  std::string s(8, '\0');
  for (int b = 0; b < 8; ++b) s[b] = static_cast<char>(i >> (8 * (7 - b)));
  return s;
}

Row SensorRow(uint64_t i) {
  Row row;
  row.clustering = Clustering(i);
  row.marker = LivenessInfo{kBaseTs + static_cast<int64_t>(i) * 1000, 0, kNoDeletionTime};
  ColumnData col;
  col.column_id = 1;
  col.cells.push_back(Cell::Live(row.marker.timestamp, std::string(16, static_cast<char>(i))));
  row.columns.push_back(std::move(col));
  return row;
}

std::vector<DecoratedKey> SortedKeys(int n, const std::string& prefix) {
  std::map<DecoratedKey, bool> keys;
  for (int i = 0; i < n; ++i) keys[DecoratedKey::FromKey(prefix + std::to_string(i))] = true;
  std::vector<DecoratedKey> out;
  for (const auto& [k, unused] : keys) out.push_back(k);
  return out;
}

void BM_SSTableWrite(benchmark::State& state) {
  const int64_t rows = state.range(0);
  const int partitions = static_cast<int>(std::max<int64_t>(1, rows / 1000));
  const std::vector<DecoratedKey> keys = SortedKeys(partitions, "sensor-");
  std::vector<Row> prepared;
  for (int64_t i = 0; i < rows / partitions; ++i) prepared.push_back(SensorRow(i));
  auto fs = NewMemFileSystem();
  for (auto _ : state) {
    SSTableWriterOptions options;
    options.expected_partitions = keys.size();
    options.encoding_stats.min_timestamp = kBaseTs;
    auto writer = SSTableWriter::Create(fs.get(), "/w.sst", options);
    if (!writer.ok()) {
      state.SkipWithError("create failed");
      return;
    }
    for (const DecoratedKey& key : keys) {
      (*writer)->BeginPartition(key, {}, {}, {}).IgnoreError();
      for (const Row& row : prepared) (*writer)->AddRow(row).IgnoreError();
      (*writer)->EndPartition().IgnoreError();
    }
    auto stats = (*writer)->Finish();
    if (!stats.ok()) {
      state.SkipWithError("finish failed");
      return;
    }
    benchmark::DoNotOptimize(stats->compressed_size);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(keys.size()) *
                          static_cast<int64_t>(prepared.size()));
}
BENCHMARK(BM_SSTableWrite)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// state.range(0) == 1: the table clusters reading_time DESC (the time-series
// idiom: newest first in storage order, read forward); 0: ASC, read reversed.
void BM_SSTableNewestRows(benchmark::State& state) {
  const bool descending = state.range(0) == 1;
  auto fs = NewMemFileSystem();
  const DecoratedKey key = DecoratedKey::FromKey("sensor-1");
  {
    SSTableWriterOptions options;
    options.encoding_stats.min_timestamp = kBaseTs;
    auto writer = SSTableWriter::Create(fs.get(), "/r.sst", options);
    (*writer)->BeginPartition(key, {}, {}, {}).IgnoreError();
    for (uint64_t i = 0; i < 100'000; ++i) {
      // DESC: the comparable encoding inverts the bytes, so the newest row
      // (largest i) sorts first.
      Row row = SensorRow(descending ? 99'999 - i : i);
      if (descending) {
        for (char& c : row.clustering) c = static_cast<char>(~c);
      }
      (*writer)->AddRow(row).IgnoreError();
    }
    (*writer)->EndPartition().IgnoreError();
    if (!(*writer)->Finish().ok()) {
      state.SkipWithError("write failed");
      return;
    }
  }
  BlockCache cache(64 << 20);
  auto reader = SSTableReader::Open(fs.get(), "/r.sst", &cache);
  if (!reader.ok()) {
    state.SkipWithError("open failed");
    return;
  }
  int64_t rows = 0;
  for (auto _ : state) {
    auto content = (*reader)->ReadPartition(key, ClusteringRange::All(), !descending, nullptr);
    RowIterator* it = (*content)->rows.get();
    for (int n = 0; n < 100 && it->Valid(); ++n, it->Next()) {
      benchmark::DoNotOptimize(it->row().clustering.data());
      ++rows;
    }
  }
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_SSTableNewestRows)->Arg(0)->Arg(1);

void BM_SSTableBloomNegative(benchmark::State& state) {
  auto fs = NewMemFileSystem();
  const std::vector<DecoratedKey> keys = SortedKeys(100'000, "present-");
  {
    SSTableWriterOptions options;
    options.expected_partitions = keys.size();
    auto writer = SSTableWriter::Create(fs.get(), "/b.sst", options);
    for (const DecoratedKey& k : keys) {
      (*writer)->BeginPartition(k, {}, {}, {}).IgnoreError();
      (*writer)->EndPartition().IgnoreError();
    }
    if (!(*writer)->Finish().ok()) {
      state.SkipWithError("write failed");
      return;
    }
  }
  auto reader = SSTableReader::Open(fs.get(), "/b.sst", nullptr);
  if (!reader.ok()) {
    state.SkipWithError("open failed");
    return;
  }
  std::vector<DecoratedKey> absent;
  for (int i = 0; i < 4096; ++i)
    absent.push_back(DecoratedKey::FromKey("absent-" + std::to_string(i)));
  size_t i = 0;
  int64_t positives = 0;
  for (auto _ : state) {
    positives += (*reader)->MayContainKey(absent[i++ & 4095]) ? 1 : 0;
  }
  state.counters["false_positive_rate"] =
      static_cast<double>(positives) / static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SSTableBloomNegative);

}  // namespace
}  // namespace cassette
