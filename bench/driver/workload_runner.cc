#include "bench/driver/workload_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "bench/driver/process_stats.h"

namespace cassette::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

double Micros(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

// What the ingest wrote, per sensor: seconds 0 .. count-1.
class WrittenData {
 public:
  explicit WrittenData(const RunPlan& plan) : plan_(plan) {}
  int64_t Seconds(int sensor) const {
    return plan_.rows / plan_.sensors + (sensor < plan_.rows % plan_.sensors ? 1 : 0);
  }
  // Day index k (0: the first simulated day) holds seconds [86400k, 86400(k+1)).
  int64_t LastDayIndex(int sensor) const { return (Seconds(sensor) - 1) / 86400; }
  int64_t RowsInSlice(int sensor, int64_t from_second, int64_t to_second) const {
    return std::max<int64_t>(0, std::min(to_second, Seconds(sensor)) - from_second);
  }
  // The same sum the engines compute, over seconds [from, to) newest first.
  double TemperatureSum(int sensor, int64_t from_second, int64_t to_second) const {
    double sum = 0;
    for (int64_t t = std::min(to_second, Seconds(sensor)) - 1; t >= from_second; --t)
      sum += Temperature(sensor, t);
    return sum;
  }

 private:
  const RunPlan& plan_;
};

// The first reads of every workload are checked value by value.
constexpr int64_t kCheckedReads = 20;

Status CheckRowCount(const char* workload, const ReadOutcome& got, int64_t rows) {
  if (got.rows == rows) return Status::OK();
  return Status::Corruption(std::string(workload) + ": " + std::to_string(got.rows) +
                            " rows read, " + std::to_string(rows) + " written");
}

// The row count and the values (the sum over the temperatures).
Status CheckRead(const char* workload, const ReadOutcome& got, int64_t rows, double sum) {
  CASSETTE_RETURN_IF_ERROR(CheckRowCount(workload, got, rows));
  if (std::abs(got.temperature_sum - sum) > 1e-6 * std::max(1.0, std::abs(sum))) {
    return Status::Corruption(std::string(workload) + ": the rows read hold other values");
  }
  return Status::OK();
}

// The workload's name in the report: "W2", or "W2 x4" in a grown run.
std::string WorkloadName(const char* workload, const RunPlan& plan) {
  return plan.growth == 1 ? workload : std::string(workload) + " x" + std::to_string(plan.growth);
}

WorkloadResult NewResult(std::string workload, const BenchEngine& engine) {
  WorkloadResult result;
  result.workload = std::move(workload);
  result.engine = engine.name();
  return result;
}

Result<WorkloadResult> Ingest(BenchEngine* engine, const RunPlan& plan, const std::string& dir,
                              bool log, double disk_mb_per_s) {
  WorkloadResult result = NewResult(WorkloadName(log ? "W1" : "W1-nolog", plan), *engine);
  const uint64_t written_before = ProcessBytesWritten();
  const PeakRssSampler rss;
  std::vector<Reading> batch(static_cast<size_t>(plan.batch_rows));
  std::vector<double> latencies;
  latencies.reserve(static_cast<size_t>(plan.rows / plan.batch_rows + 1));
  const Clock::time_point start = Clock::now();
  for (int64_t r = 0; r < plan.rows; r += plan.batch_rows) {
    const int64_t n = std::min<int64_t>(plan.batch_rows, plan.rows - r);
    for (int64_t i = 0; i < n; ++i) batch[static_cast<size_t>(i)] = ReadingAt(r + i, plan.sensors);
    const Clock::time_point before = Clock::now();
    CASSETTE_RETURN_IF_ERROR(
        engine->Write(std::span<const Reading>(batch.data(), static_cast<size_t>(n))));
    latencies.push_back(Micros(before, Clock::now()));
  }
  const Clock::time_point written = Clock::now();
  CASSETTE_RETURN_IF_ERROR(engine->Settle());
  const Clock::time_point settled = Clock::now();
  const double seconds = Seconds(start, written);
  const double logical = static_cast<double>(plan.rows) * kLogicalBytesPerRow;
  const double bytes_written = static_cast<double>(ProcessBytesWritten() - written_before);
  result.seconds = Seconds(start, settled);
  result.ops_per_s = static_cast<double>(plan.rows) / seconds;
  result.mb_per_s = logical / seconds / 1e6;
  result.p50_us = Percentile(&latencies, 0.50);
  result.p99_us = Percentile(&latencies, 0.99);
  result.write_amplification = bytes_written / logical;
  result.space_amplification = static_cast<double>(DirectoryBytes(dir)) / logical;
  // Disk bytes per second over the ingest and the settling it owes.
  if (disk_mb_per_s > 0) {
    result.disk_fraction = bytes_written / result.seconds / 1e6 / disk_mb_per_s;
  }
  result.peak_rss_mb = static_cast<double>(rss.peak_bytes()) / (1 << 20);
  return result;
}

Result<WorkloadResult> NewestRows(BenchEngine* engine, const RunPlan& plan, const WrittenData& data,
                                  std::mt19937_64* rng) {
  WorkloadResult result = NewResult(WorkloadName("W2", plan), *engine);
  std::vector<double> latencies;
  latencies.reserve(static_cast<size_t>(plan.newest_queries));
  const Clock::time_point start = Clock::now();
  for (int64_t q = 0; q < plan.newest_queries; ++q) {
    const int sensor = static_cast<int>((*rng)() % static_cast<uint64_t>(plan.sensors));
    const int64_t day_index = data.LastDayIndex(sensor);
    const Clock::time_point before = Clock::now();
    CASSETTE_ASSIGN_OR_RETURN(ReadOutcome got,
                              engine->Newest(sensor, DayOf(day_index * 86400), 100));
    latencies.push_back(Micros(before, Clock::now()));
    const int64_t end = std::min(data.Seconds(sensor), (day_index + 1) * 86400);
    const int64_t from = std::max(day_index * 86400, end - 100);
    CASSETTE_RETURN_IF_ERROR(CheckRowCount("W2", got, end - from));
    if (q < kCheckedReads) {
      CASSETTE_RETURN_IF_ERROR(
          CheckRead("W2", got, end - from, data.TemperatureSum(sensor, from, end)));
    }
  }
  result.seconds = Seconds(start, Clock::now());
  result.ops_per_s = static_cast<double>(plan.newest_queries) / result.seconds;
  result.p50_us = Percentile(&latencies, 0.50);
  result.p99_us = Percentile(&latencies, 0.99);
  return result;
}

Result<WorkloadResult> HourSlices(BenchEngine* engine, const RunPlan& plan, const WrittenData& data,
                                  std::mt19937_64* rng) {
  WorkloadResult result = NewResult("W3", *engine);
  // Whole hours every sensor has (the last sensors may hold a second less).
  const int64_t hours = data.Seconds(plan.sensors - 1) / 3600;
  if (hours == 0) {
    result.available = false;
    result.note = "the ingest is shorter than an hour per sensor";
    return result;
  }
  std::vector<double> latencies;
  latencies.reserve(static_cast<size_t>(plan.slice_queries));
  int64_t rows = 0;
  const Clock::time_point start = Clock::now();
  for (int64_t q = 0; q < plan.slice_queries; ++q) {
    const int sensor = static_cast<int>((*rng)() % static_cast<uint64_t>(plan.sensors));
    const int64_t hour = static_cast<int64_t>((*rng)() % static_cast<uint64_t>(hours));
    const int64_t from = hour * 3600;
    const Clock::time_point before = Clock::now();
    CASSETTE_ASSIGN_OR_RETURN(ReadOutcome got,
                              engine->Slice(sensor, DayOf(from), ReadingTimeMillis(from),
                                            ReadingTimeMillis(from + 3600)));
    latencies.push_back(Micros(before, Clock::now()));
    rows += got.rows;
    CASSETTE_RETURN_IF_ERROR(CheckRowCount("W3", got, 3600));
    if (q < kCheckedReads) {
      CASSETTE_RETURN_IF_ERROR(
          CheckRead("W3", got, 3600, data.TemperatureSum(sensor, from, from + 3600)));
    }
  }
  result.seconds = Seconds(start, Clock::now());
  result.ops_per_s = static_cast<double>(rows) / result.seconds;
  result.mb_per_s = static_cast<double>(rows) * kLogicalBytesPerRow / result.seconds / 1e6;
  result.p50_us = Percentile(&latencies, 0.50);
  result.p99_us = Percentile(&latencies, 0.99);
  return result;
}

Result<WorkloadResult> MissingPartitions(BenchEngine* engine, const RunPlan& plan,
                                         const WrittenData& data, std::mt19937_64* rng) {
  WorkloadResult result = NewResult("W4", *engine);
  const int64_t days = data.LastDayIndex(0) + 1;
  std::vector<double> latencies;
  latencies.reserve(static_cast<size_t>(plan.missing_lookups));
  const Clock::time_point start = Clock::now();
  for (int64_t q = 0; q < plan.missing_lookups; ++q) {
    const int sensor =
        plan.sensors + static_cast<int>((*rng)() % static_cast<uint64_t>(plan.sensors));
    const int64_t day_index = static_cast<int64_t>((*rng)() % static_cast<uint64_t>(days));
    const Clock::time_point before = Clock::now();
    CASSETTE_ASSIGN_OR_RETURN(bool found, engine->HasPartition(sensor, DayOf(day_index * 86400)));
    latencies.push_back(Micros(before, Clock::now()));
    if (found) return Status::Corruption("W4: a partition never written was found");
  }
  result.seconds = Seconds(start, Clock::now());
  result.ops_per_s = static_cast<double>(plan.missing_lookups) / result.seconds;
  result.p50_us = Percentile(&latencies, 0.50);
  result.p99_us = Percentile(&latencies, 0.99);
  return result;
}

Result<WorkloadResult> SpaceAfterCompaction(BenchEngine* engine, const RunPlan& plan,
                                            const std::string& dir) {
  WorkloadResult result = NewResult("space", *engine);
  const Clock::time_point start = Clock::now();
  CASSETTE_RETURN_IF_ERROR(engine->CompactAll());
  result.seconds = Seconds(start, Clock::now());
  const double bytes = static_cast<double>(DirectoryBytes(dir));
  result.bytes_per_row = bytes / static_cast<double>(plan.rows);
  result.space_amplification = bytes / (static_cast<double>(plan.rows) * kLogicalBytesPerRow);
  return result;
}

}  // namespace

double Percentile(std::vector<double>* samples, double p) {
  if (samples->empty()) return 0;
  const size_t k =
      std::min(samples->size() - 1, static_cast<size_t>(p * static_cast<double>(samples->size())));
  std::nth_element(samples->begin(), samples->begin() + static_cast<ptrdiff_t>(k), samples->end());
  return (*samples)[k];
}

RunPlan ScaledPlan(double scale) {
  RunPlan plan;
  auto scaled = [scale](int64_t n) {
    return std::max<int64_t>(1, std::llround(static_cast<double>(n) * scale));
  };
  plan.sensors = static_cast<int>(scaled(plan.sensors));
  plan.rows = scaled(plan.rows);
  plan.newest_queries = scaled(plan.newest_queries);
  plan.slice_queries = scaled(plan.slice_queries);
  plan.missing_lookups = scaled(plan.missing_lookups);
  return plan;
}

Result<std::vector<WorkloadResult>> RunWorkloads(BenchEngine* engine, const RunPlan& plan,
                                                 const std::string& dir, bool log,
                                                 double disk_mb_per_s) {
  EngineConfig config;
  config.dir = dir;
  config.sensors = plan.sensors;
  config.log = log;
  config.memtable_bytes = plan.memtable_bytes;
  config.zstd_level = plan.zstd_level;
  config.log_compression = plan.log_compression;
  std::vector<WorkloadResult> results;
  const Status opened = engine->Open(config);
  if (opened.code() == Status::Code::kNotSupported) {
    WorkloadResult result = NewResult(WorkloadName(log ? "W1" : "W1-nolog", plan), *engine);
    result.available = false;
    result.note = opened.message();
    results.push_back(result);
    return results;
  }
  CASSETTE_RETURN_IF_ERROR(opened);
  auto run = [&]() -> Status {
    CASSETTE_ASSIGN_OR_RETURN(WorkloadResult ingest, Ingest(engine, plan, dir, log, disk_mb_per_s));
    results.push_back(ingest);
    if (!log) return Status::OK();
    const WrittenData data(plan);
    std::mt19937_64 rng(plan.seed);
    CASSETTE_ASSIGN_OR_RETURN(WorkloadResult newest, NewestRows(engine, plan, data, &rng));
    results.push_back(newest);
    if (plan.growth != 1) return Status::OK();
    CASSETTE_ASSIGN_OR_RETURN(WorkloadResult slices, HourSlices(engine, plan, data, &rng));
    results.push_back(slices);
    CASSETTE_ASSIGN_OR_RETURN(WorkloadResult missing, MissingPartitions(engine, plan, data, &rng));
    results.push_back(missing);
    CASSETTE_ASSIGN_OR_RETURN(WorkloadResult space, SpaceAfterCompaction(engine, plan, dir));
    results.push_back(space);
    return Status::OK();
  };
  Status s = run();
  Status closed = engine->Close();
  CASSETTE_RETURN_IF_ERROR(s);
  CASSETTE_RETURN_IF_ERROR(closed);
  return results;
}

}  // namespace cassette::bench
