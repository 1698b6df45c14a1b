// Compaction benchmarks (issue 3), on the in-memory file system:
//   BM_CompactionMerge/K  merge K input SSTables of time-series rows
//                         (~100-byte rows, 2000 partitions present in every
//                         input, 10% of each input's rows overwriting the
//                         previous input's) through CompactionIterator +
//                         CompactionOutputWriter, zstd level 3. bytes/s is
//                         the inputs' UNCOMPRESSED size merged per CPU
//                         second; items/s the input rows.
//   BM_CompactionCodecFloor/K  only the chunk codec work a merge of K
//                         inputs cannot avoid: zstd level-3 compression of
//                         the output's bytes in 16 KiB chunks (checksummed,
//                         as the writer stores them) and their
//                         decompression (standing in for the inputs', which
//                         hold the same rows). bytes/s on the same scale as
//                         BM_CompactionMerge: the ceiling of its throughput
//                         on this machine at the table defaults.
//   BM_TwcsTimeSeries/S   a week of S sensors writing one row per 10 s
//                         through the Database (TWCS, 1-hour windows, 2-day
//                         default TTL, gc_grace 1 hour) on a manual clock,
//                         flushing every simulated 10 minutes (or at the
//                         memtable threshold) and running the compactions
//                         the engine schedules after each flush. Its
//                         counters are the figures: write amplification,
//                         space used against live data, expired rows still
//                         readable (must be 0), SSTables, compactions.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/file_system.h"
#include "engine/compaction/compaction_controller.h"
#include "engine/compaction/compaction_iterator.h"
#include "engine/compaction/compaction_output_writer.h"
#include "engine/sstable/chunk_codec.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/sstable/sstable_writer.h"

namespace cassette {
namespace {

// ---------------------------------------------------------------------------
// BM_CompactionMerge

constexpr int64_t kBaseTs = 1'700'000'000'000'000;  // micros
constexpr int64_t kNowSec = kBaseTs / 1'000'000 + 86400;
constexpr int32_t kTtl = 2 * 86400;
constexpr int kMergePartitions = 2000;
// Rows over all inputs, whatever K: ~33 MB of uncompressed input.
constexpr int kMergeTotalRows = 320'000;

// splitmix64: readings that compress like real ones (a double such as
// 21.374 has a busy mantissa), not like a counter.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A reading with three decimals in [base, base + 100).
double Reading(uint64_t x, double base) {
  return base + static_cast<double>(Mix(x) % 100000) / 1000.0;
}

uint64_t DoubleBits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

std::string BigEndian64(uint64_t v) {
  std::string s(8, '\0');
  for (int b = 0; b < 8; ++b) s[b] = static_cast<char>(v >> (8 * (7 - b)));
  return s;
}

// A sensor reading taken at second `t` and written at `write_ts`: the
// marker, two doubles, a status text and a small payload, all with the
// table's TTL (the TWCS idiom), none expired at kNowSec.
Row ReadingRow(uint64_t t, int64_t write_ts, uint64_t salt) {
  const int64_t write_sec = write_ts / 1'000'000;
  Row row;
  row.clustering = BigEndian64(t * 1000);  // timestamp column, millis
  row.marker = LivenessInfo{write_ts, kTtl, write_sec + kTtl};
  const uint64_t x = (t * 2654435761u) ^ salt;
  const std::string values[] = {
      BigEndian64(DoubleBits(Reading(x, -20))),    // temperature
      BigEndian64(DoubleBits(Reading(x + 1, 0))),  // humidity
      (x % 97 == 0) ? std::string("WARN battery-low") : std::string("OK nominal-range"),
      "fw=2.4.1;rssi=-" + std::to_string(60 + x % 30) + ";seq=" + std::to_string(t),
  };
  for (uint32_t c = 0; c < 4; ++c) {
    ColumnData col;
    col.column_id = c + 1;
    col.cells.push_back(Cell::Expiring(write_ts, kTtl, write_sec, values[c]));
    row.columns.push_back(std::move(col));
  }
  return row;
}

std::vector<DecoratedKey> SortedKeys(int n) {
  std::vector<DecoratedKey> keys;
  for (int i = 0; i < n; ++i) keys.push_back(DecoratedKey::FromKey("sensor-" + std::to_string(i)));
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Input k holds, for every partition, `per_partition` readings of the k-th
// time slice (one per 10 s), of which the first 10% are re-writes of the
// previous slice's last readings (newer write timestamps: overwrites).
Status WriteMergeInput(FileSystem* fs, const std::string& path,
                       const std::vector<DecoratedKey>& keys, int k, int per_partition) {
  const int overwrites = k == 0 ? 0 : per_partition / 10;
  const int64_t slice_ts = kBaseTs + static_cast<int64_t>(k) * 600'000'000;
  SSTableWriterOptions options;  // zstd level 3, 16 KiB chunks
  options.expected_partitions = keys.size();
  options.encoding_stats.min_timestamp = slice_ts;
  options.encoding_stats.min_local_deletion_time = slice_ts / 1'000'000 + kTtl;
  options.encoding_stats.min_ttl = kTtl;
  CASSETTE_ASSIGN_OR_RETURN(auto writer, SSTableWriter::Create(fs, path, options));
  for (size_t p = 0; p < keys.size(); ++p) {
    CASSETTE_RETURN_IF_ERROR(writer->BeginPartition(keys[p], {}, {}, {}));
    const uint64_t first = static_cast<uint64_t>(k) * per_partition - overwrites;
    for (int i = 0; i < per_partition; ++i) {
      const uint64_t t = (kBaseTs / 1'000'000) + (first + i) * 10;
      CASSETTE_RETURN_IF_ERROR(
          writer->AddRow(ReadingRow(t, slice_ts + i, static_cast<uint64_t>(k) * 131 + p)));
    }
    CASSETTE_RETURN_IF_ERROR(writer->EndPartition());
  }
  return writer->Finish().status();
}

// The inputs of one merge benchmark, written once per process per K.
struct MergeInputs {
  std::shared_ptr<FileSystem> fs;
  std::vector<std::shared_ptr<SSTableReader>> readers;
  std::vector<const SSTableStats*> stats;
  uint64_t uncompressed = 0;
  uint64_t compressed = 0;
  uint64_t rows = 0;
  Status status;
};

const MergeInputs& GetMergeInputs(int inputs) {
  static std::map<int, MergeInputs> cache;
  auto [it, inserted] = cache.try_emplace(inputs);
  MergeInputs& in = it->second;
  if (!inserted) return in;
  const int per_partition = kMergeTotalRows / inputs / kMergePartitions;
  const std::vector<DecoratedKey> keys = SortedKeys(kMergePartitions);
  in.fs = NewMemFileSystem();
  for (int k = 0; k < inputs && in.status.ok(); ++k) {
    const std::string path = "/in-" + std::to_string(k) + ".sst";
    in.status = WriteMergeInput(in.fs.get(), path, keys, k, per_partition);
    if (!in.status.ok()) break;
    auto reader = SSTableReader::Open(in.fs.get(), path, nullptr);
    if (!reader.ok()) {
      in.status = reader.status();
      break;
    }
    in.uncompressed += (*reader)->stats().uncompressed_size;
    in.compressed += (*reader)->file_size();
    in.rows += (*reader)->stats().row_count;
    in.readers.push_back(std::move(reader).value());
    in.stats.push_back(&in.readers.back()->stats());
  }
  return in;
}

std::vector<std::unique_ptr<PartitionIterator>> Scanners(const MergeInputs& in) {
  std::vector<std::unique_ptr<PartitionIterator>> scanners;
  for (const auto& reader : in.readers)
    scanners.push_back(reader->NewScanner(TokenInterval::All(), nullptr));
  return scanners;
}

// What a merge does, cut at a stage (the breakdown of BM_CompactionMerge).
enum MergeStage : int {
  kScanOnly = 0,   // decompress and decode every input row
  kMergeOnly = 1,  // + merge, shadowing and purge checks (CompactionIterator)
  kWriteRaw = 2,   // + encode and write the output, compression off
  kWriteZstd = 3,  // + zstd level 3: the whole compaction
};

// Writes the merge into SSTables on the inputs' file system, named by
// `new_output`, with the table defaults (compressed or not).
Result<CompactionOutputResult> WriteMerged(
    const MergeInputs& in, CompactionIterator* merged, bool compress,
    std::function<Result<std::pair<uint64_t, std::string>>()> new_output) {
  CompactionOutputOptions options;
  options.fs = in.fs.get();
  options.new_output = std::move(new_output);
  SSTableWriterOptions table_options;  // the table defaults: zstd level 3
  table_options.compress = compress;
  options.writer_options = CompactionWriterOptions(table_options, in.stats, kNowSec * 1'000'000);
  options.input_bytes = in.compressed;
  CompactionOutputWriter writer(std::move(options));
  return writer.Write(merged);
}

void RunMerge(benchmark::State& state, int inputs, MergeStage stage) {
  const MergeInputs& in = GetMergeInputs(inputs);
  if (!in.status.ok()) {
    state.SkipWithError(in.status.ToString().c_str());
    return;
  }
  FileSystem* fs = in.fs.get();
  // gc_grace of 10 days: nothing here is a deletion, and nothing has
  // expired, so the controller only gets asked nothing.
  const CompactionController controller(kNowSec - 864000, {});
  uint64_t output_bytes = 0;
  uint64_t output_uncompressed = 0;
  uint64_t output_rows = 0;
  uint64_t generation = 0;
  for (auto _ : state) {
    if (stage == kScanOnly) {
      for (auto& scanner : Scanners(in)) {
        for (; scanner->Valid(); scanner->Next()) {
          RowIterator* rows = scanner->partition().rows.get();
          for (; rows != nullptr && rows->Valid(); rows->Next()) {
            benchmark::DoNotOptimize(rows->row().clustering.data());
            ++output_rows;
          }
        }
      }
      continue;
    }
    CompactionIterator merged(Scanners(in), &controller, kNowSec);
    if (stage == kMergeOnly) {
      for (; merged.Valid(); merged.Next()) {
        RowIterator* rows = merged.partition().rows.get();
        for (; rows->Valid(); rows->Next()) benchmark::DoNotOptimize(rows->row().clustering.data());
      }
      output_rows = merged.stats().rows_written;
      continue;
    }
    std::vector<std::string> paths;
    auto result = WriteMerged(in, &merged, stage == kWriteZstd,
                              [&]() -> Result<std::pair<uint64_t, std::string>> {
                                ++generation;
                                paths.push_back("/out-" + std::to_string(generation) + ".sst");
                                return std::make_pair(generation, paths.back());
                              });
    if (!result.ok()) {
      state.SkipWithError(result.status().ToString().c_str());
      return;
    }
    output_bytes = result->bytes_written;
    output_uncompressed = 0;
    for (const CompactionOutput& out : result->outputs)
      output_uncompressed += out.stats.uncompressed_size;
    output_rows = merged.stats().rows_written;
    for (const std::string& path : paths) fs->DeleteFile(path).IgnoreError();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(in.uncompressed));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(in.rows));
  state.counters["in_MB_raw"] = static_cast<double>(in.uncompressed) / 1e6;
  state.counters["in_MB_disk"] = static_cast<double>(in.compressed) / 1e6;
  if (stage >= kWriteRaw) {
    state.counters["out_MB_raw"] = static_cast<double>(output_uncompressed) / 1e6;
    state.counters["out_MB_disk"] = static_cast<double>(output_bytes) / 1e6;
  }
  state.counters["row_bytes"] = static_cast<double>(in.uncompressed) / static_cast<double>(in.rows);
  if (stage != kScanOnly) state.counters["rows_out"] = static_cast<double>(output_rows);
}

void BM_CompactionMerge(benchmark::State& state) {
  RunMerge(state, static_cast<int>(state.range(0)), kWriteZstd);
}
BENCHMARK(BM_CompactionMerge)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond);

// state.range(1): the MergeStage the work stops at.
void BM_CompactionMergeStages(benchmark::State& state) {
  RunMerge(state, static_cast<int>(state.range(0)), static_cast<MergeStage>(state.range(1)));
}
BENCHMARK(BM_CompactionMergeStages)
    ->ArgsProduct({{4}, {kScanOnly, kMergeOnly, kWriteRaw}})
    ->Unit(benchmark::kMillisecond);

// The uncompressed bytes of a merge's output (the file written with
// compression off), computed once per K.
const std::string& MergeOutputBytes(int inputs) {
  static std::map<int, std::string> cache;
  auto [it, inserted] = cache.try_emplace(inputs);
  if (!inserted) return it->second;
  const MergeInputs& in = GetMergeInputs(inputs);
  const CompactionController controller(kNowSec - 864000, {});
  CompactionIterator merged(Scanners(in), &controller, kNowSec);
  const auto written =
      WriteMerged(in, &merged, false, []() -> Result<std::pair<uint64_t, std::string>> {
        return std::make_pair(uint64_t{1000}, std::string("/floor.sst"));
      });
  if (!written.ok()) return it->second;
  auto file = in.fs->NewRandomAccessFile("/floor.sst");
  if (file.ok()) (*file)->Read(0, (*file)->Size(), &it->second).IgnoreError();
  in.fs->DeleteFile("/floor.sst").IgnoreError();
  return it->second;
}

void BM_CompactionCodecFloor(benchmark::State& state) {
  const int inputs = static_cast<int>(state.range(0));
  const MergeInputs& in = GetMergeInputs(inputs);
  const std::string& output = MergeOutputBytes(inputs);
  if (!in.status.ok() || output.empty()) {
    state.SkipWithError("no merge output");
    return;
  }
  const SSTableWriterOptions defaults;
  const size_t chunk = defaults.chunk_length;
  ChunkCompressor compressor(true, defaults.compression_level);
  std::string stored;
  std::string back;
  const std::string path = "/floor.sst";
  for (auto _ : state) {
    for (size_t at = 0; at < output.size(); at += chunk) {
      const std::string_view raw = std::string_view(output).substr(at, chunk);
      stored.clear();
      compressor.Compress(raw, &stored);
      const Status s = DecompressChunk(stored, raw.size(), path, at, &back);
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        return;
      }
      benchmark::DoNotOptimize(back.data());
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(in.uncompressed));
  state.counters["out_MB_raw"] = static_cast<double>(output.size()) / 1e6;
}
BENCHMARK(BM_CompactionCodecFloor)->Arg(4)->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------
// BM_TwcsTimeSeries

constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01T00:00:00Z
constexpr int64_t kDay = 86400;
constexpr int32_t kTwcsTtl = 2 * kDay;
constexpr int32_t kGcGrace = 3600;
constexpr int64_t kStepSec = 10;         // one reading per sensor per step
constexpr int64_t kFlushEverySec = 600;  // plus the memtable threshold

TableSchema ReadingsTable(const std::string& name, std::map<std::string, std::string> compaction) {
  TableSchema schema("ks", name);
  schema.AddPartitionKey("sensor", DataType::Text())
      .AddClustering("ts", DataType::Timestamp())
      .AddRegular("temperature", DataType::Double())
      .AddRegular("humidity", DataType::Double())
      .AddRegular("status", DataType::Text())
      .AddRegular("payload", DataType::Text());
  schema.mutable_options().compaction = std::move(compaction);
  schema.mutable_options().default_time_to_live = kTwcsTtl;
  schema.mutable_options().gc_grace_seconds = kGcGrace;
  return schema;
}

std::string SensorName(int s) {
  char buf[32];
  snprintf(buf, sizeof(buf), "sensor-%04d", s);
  return buf;
}

void AddReading(Mutation* m, int64_t millis, uint64_t x) {
  m->Insert({Value::Timestamp(millis)})
      .Set("temperature", Value::Double(Reading(x, -20)))
      .Set("humidity", Value::Double(Reading(x + 1, 0)))
      .Set("status", Value::Text(x % 97 == 0 ? "WARN battery-low" : "OK nominal-range"))
      .Set("payload", Value::Text("fw=2.4.1;rssi=-" + std::to_string(60 + x % 30) +
                                  ";seq=" + std::to_string(millis / 10000)));
}

// A row read back from the TWCS table, with its write time.
struct LiveRow {
  int64_t writetime = 0;
  int sensor = 0;
  std::vector<Value> values;  // ts, temperature, humidity, status, payload
};

// Every row of ks.readings readable now. `expired` counts those whose
// reading is older than the TTL: they must not be readable.
Status ReadAll(Database* db, int sensors, std::vector<LiveRow>* rows, int64_t* expired) {
  const int64_t now = db->NowMicros();
  for (int s = 0; s < sensors; ++s) {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = "readings";
    query.partition_keys = {{Value::Text(SensorName(s))}};
    query.columns = {"ts", "temperature", "humidity", "status", "payload"};
    query.with_cell_metadata = true;
    query.page_size = 5000;
    do {
      CASSETTE_ASSIGN_OR_RETURN(ResultSet result, db->Read(query));
      for (ResultRow& row : result.rows) {
        // A reading is written at its own time, with the default TTL.
        const int64_t written = row.values[0].AsInt64() * 1000;
        if (written + int64_t{kTwcsTtl} * 1'000'000 <= now) ++*expired;
        rows->push_back({row.writetimes[1].value_or(0), s, std::move(row.values)});
      }
      query.paging_state = result.paging_state;
    } while (!query.paging_state.empty());
  }
  return Status::OK();
}

// "Live data": the on-disk size of `rows` written afresh into a new
// database, each at its original write time (so with the same timestamp,
// TTL and expiry), into a table that is then major-compacted into one
// SSTable. The same rows can hardly take less room.
Result<TableStats> LiveDataReference(std::vector<LiveRow> rows, int64_t end_micros) {
  std::sort(rows.begin(), rows.end(), [](const LiveRow& a, const LiveRow& b) {
    return a.writetime != b.writetime ? a.writetime < b.writetime : a.sensor < b.sensor;
  });
  auto clock = std::make_shared<ManualClock>(rows.empty() ? end_micros : rows.front().writetime);
  auto scheduler = std::make_shared<ManualScheduler>();
  Options options;
  options.file_system = NewMemFileSystem();
  options.clock = clock;
  options.scheduler = scheduler;
  options.commitlog_enabled = false;
  options.auto_compaction = false;
  CASSETTE_ASSIGN_OR_RETURN(auto db, Database::Open(options, "/live"));
  CASSETTE_RETURN_IF_ERROR(db->CreateKeyspace({.name = "ks"}));
  CASSETTE_RETURN_IF_ERROR(
      db->CreateTable(ReadingsTable("readings", {{"class", "SizeTieredCompactionStrategy"}})));
  for (LiveRow& row : rows) {
    if (row.writetime > clock->WallMicros()) CASSETTE_RETURN_IF_ERROR(clock->Set(row.writetime));
    Mutation m("ks", "readings", {Value::Text(SensorName(row.sensor))});
    m.UsingTimestamp(row.writetime);
    m.Insert({row.values[0]})
        .Set("temperature", std::move(row.values[1]))
        .Set("humidity", std::move(row.values[2]))
        .Set("status", std::move(row.values[3]))
        .Set("payload", std::move(row.values[4]));
    CASSETTE_RETURN_IF_ERROR(db->Apply(m));
    if (scheduler->pending() > 0) scheduler->RunUntilIdle();
  }
  CASSETTE_RETURN_IF_ERROR(clock->Set(std::max(end_micros, clock->WallMicros())));
  CASSETTE_RETURN_IF_ERROR(db->Flush());
  scheduler->RunUntilIdle();
  CASSETTE_RETURN_IF_ERROR(db->CompactMajor("ks", "readings"));
  return db->GetTableStats("ks", "readings");
}

void BM_TwcsTimeSeries(benchmark::State& state) {
  const int sensors = static_cast<int>(state.range(0));
  const int days = static_cast<int>(state.range(1));
  auto fs = NewMemFileSystem();
  auto clock = std::make_shared<ManualClock>(kStartMicros);
  auto scheduler = std::make_shared<ManualScheduler>();
  Options options;
  options.file_system = fs;
  options.clock = clock;
  options.scheduler = scheduler;
  options.commitlog_enabled = false;  // not part of the figures; saves memory
  options.memtable_flush_threshold = 8ull << 20;
  TableStats stats;
  TableStats live;
  int64_t live_rows = 0;
  int64_t expired = 0;
  int64_t flushes = 0;
  for (auto _ : state) {
    auto db = Database::Open(options, "/db");
    if (!db.ok()) {
      state.SkipWithError(db.status().ToString().c_str());
      return;
    }
    Database& d = **db;
    Status s = d.CreateKeyspace({.name = "ks"});
    std::vector<std::string> warnings;  // none expected: 48 windows, a TTL
    if (s.ok()) {
      s = d.CreateTable(ReadingsTable("readings", {{"class", "TimeWindowCompactionStrategy"},
                                                   {"compaction_window_unit", "HOURS"},
                                                   {"compaction_window_size", "1"}}),
                        false, &warnings);
    }
    for (int64_t t = 0; s.ok() && t < days * kDay; t += kStepSec) {
      const int64_t millis = clock->WallMicros() / 1000;
      for (int sensor = 0; s.ok() && sensor < sensors; ++sensor) {
        Mutation m("ks", "readings", {Value::Text(SensorName(sensor))});
        AddReading(&m, millis, static_cast<uint64_t>(t) * 7919 + static_cast<uint64_t>(sensor));
        s = d.Apply(m);
      }
      // A flush at the memtable threshold, and the compactions it schedules.
      if (scheduler->pending() > 0) scheduler->RunUntilIdle();
      if (s.ok()) s = clock->Advance(kStepSec * 1'000'000);
      if (s.ok() && (t + kStepSec) % kFlushEverySec == 0) {
        s = d.Flush();
        ++flushes;
        scheduler->RunUntilIdle();
      }
    }
    Result<TableStats> final_stats = s.ok() ? d.GetTableStats("ks", "readings") : s;
    if (!final_stats.ok()) {
      state.SkipWithError(final_stats.status().ToString().c_str());
      return;
    }
    stats = *final_stats;

    state.PauseTiming();
    std::vector<LiveRow> rows;
    s = ReadAll(&d, sensors, &rows, &expired);
    live_rows = static_cast<int64_t>(rows.size());
    Result<TableStats> reference = s.ok() ? LiveDataReference(std::move(rows), d.NowMicros()) : s;
    if (!reference.ok()) {
      state.SkipWithError(reference.status().ToString().c_str());
      return;
    }
    live = *reference;
    if (!warnings.empty()) state.SkipWithError(warnings[0].c_str());
    state.ResumeTiming();
  }
  int64_t max_per_window = 0;
  for (const auto& [window, count] : stats.sstables_per_window) {
    max_per_window = std::max(max_per_window, count);
  }
  // Rows written less than a TTL ago (the one written exactly a TTL ago
  // expired this second).
  const int64_t expected_live = static_cast<int64_t>(sensors) * (kTwcsTtl / kStepSec - 1);
  state.counters["user_rows"] = static_cast<double>(sensors) * days * kDay / kStepSec;
  state.counters["flushes"] = static_cast<double>(flushes);
  state.counters["user_MB"] = static_cast<double>(stats.bytes_written_by_users) / 1e6;
  state.counters["flushed_MB"] = static_cast<double>(stats.bytes_flushed) / 1e6;
  state.counters["compacted_MB"] = static_cast<double>(stats.bytes_compacted) / 1e6;
  state.counters["write_amp"] = stats.write_amplification;
  // Compression-neutral: bytes rewritten by compaction per byte flushed.
  state.counters["rewrite_per_flushed"] =
      stats.bytes_flushed > 0
          ? static_cast<double>(stats.bytes_compacted) / static_cast<double>(stats.bytes_flushed)
          : 0;
  state.counters["disk_MB"] = static_cast<double>(stats.bytes_on_disk) / 1e6;
  state.counters["live_MB"] = static_cast<double>(live.bytes_on_disk) / 1e6;
  state.counters["space_vs_live"] =
      live.bytes_on_disk > 0
          ? static_cast<double>(stats.bytes_on_disk) / static_cast<double>(live.bytes_on_disk)
          : 0;
  state.counters["live_rows"] = static_cast<double>(live_rows);
  state.counters["missing_rows"] = static_cast<double>(expected_live - (live_rows - expired));
  state.counters["expired_readable"] = static_cast<double>(expired);
  state.counters["sstables"] = static_cast<double>(stats.sstable_count);
  state.counters["windows"] = static_cast<double>(stats.sstables_per_window.size());
  state.counters["max_per_window"] = static_cast<double>(max_per_window);
  state.counters["compactions"] = static_cast<double>(stats.compactions_completed);
  state.counters["expired_dropped"] = static_cast<double>(stats.expired_sstables_dropped);
  state.counters["tombstones_purged"] = static_cast<double>(stats.tombstones_purged);
}
// 50 sensors x one row per 10 s for 7 days: 3.02 M rows.
BENCHMARK(BM_TwcsTimeSeries)->Args({50, 7})->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
}  // namespace cassette
