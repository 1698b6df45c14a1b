#include "bench/driver/retention_workload.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "bench/driver/process_stats.h"

namespace cassette::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

int64_t MicrosAt(int64_t second) { return ReadingTimeMillis(second) * 1000; }

// The rows of one sensor the ingest wrote with from <= second < to.
int64_t RowsBetween(const RetentionPlan& plan, int64_t from, int64_t to) {
  from = std::max<int64_t>(from, 0);
  to = std::min(to, plan.EndSecond());
  if (to <= from) return 0;
  const int64_t first = (from + plan.interval_seconds - 1) / plan.interval_seconds;
  const int64_t last = (to - 1) / plan.interval_seconds;
  return std::max<int64_t>(0, last - first + 1);
}

// The temperatures of those rows summed newest first, as the engines read them.
double TemperatureSum(const RetentionPlan& plan, int sensor, int64_t from, int64_t to) {
  double sum = 0;
  to = std::min(to, plan.EndSecond());
  for (int64_t k = (to - 1) / plan.interval_seconds; k >= 0; --k) {
    const int64_t second = k * plan.interval_seconds;
    if (second < from) break;
    sum += Temperature(sensor, second);
  }
  return sum;
}

// What reading every partition at the end found.
struct ReadBack {
  int64_t expired_readable = 0;
  int64_t live_missing = 0;
};

// Every partition (sensor, day), read in two slices: the rows older than
// end − TTL, which should be gone, and those newer, which should all be
// there (the row at exactly end − TTL is on the edge: engines may differ).
Result<ReadBack> ReadEveryPartition(BenchEngine* engine, const RetentionPlan& plan) {
  constexpr int kCheckedSlices = 20;  // the first full live slices are checked value by value
  const int64_t cutoff = plan.MeasureSecond() - plan.ttl_seconds;
  ReadBack back;
  int checked = 0;
  for (int sensor = 0; sensor < plan.sensors; ++sensor) {
    for (int64_t day_from = 0; day_from < plan.EndSecond(); day_from += 86400) {
      const int32_t day = DayOf(day_from);
      const int64_t day_to = std::min(day_from + 86400, plan.EndSecond());
      const int64_t expired_to = std::min(day_to, cutoff);
      if (expired_to > day_from) {
        CASSETTE_ASSIGN_OR_RETURN(
            ReadOutcome got,
            engine->Slice(sensor, day, ReadingTimeMillis(day_from), ReadingTimeMillis(expired_to)));
        if (got.rows > RowsBetween(plan, day_from, expired_to)) {
          return Status::Corruption("W5: a read returned more rows than were written");
        }
        back.expired_readable += got.rows;
      }
      const int64_t live_from = std::max(day_from, cutoff + 1);
      if (day_to > live_from) {
        CASSETTE_ASSIGN_OR_RETURN(
            ReadOutcome got,
            engine->Slice(sensor, day, ReadingTimeMillis(live_from), ReadingTimeMillis(day_to)));
        const int64_t written = RowsBetween(plan, live_from, day_to);
        if (got.rows > written) {
          return Status::Corruption("W5: a read returned more rows than were written");
        }
        back.live_missing += written - got.rows;
        if (got.rows == written && checked < kCheckedSlices) {
          ++checked;
          const double sum = TemperatureSum(plan, sensor, live_from, day_to);
          if (std::abs(got.temperature_sum - sum) > 1e-6 * std::max(1.0, std::abs(sum))) {
            return Status::Corruption("W5: the rows read hold other values");
          }
        }
      }
    }
  }
  return back;
}

Status Ingest(BenchEngine* engine, const RetentionPlan& plan, ManualClock* clock,
              std::vector<double>* latencies) {
  std::vector<Reading> batch(static_cast<size_t>(plan.sensors));
  latencies->reserve(static_cast<size_t>(plan.Steps()));
  for (int64_t k = 0; k < plan.Steps(); ++k) {
    // The sensors' readings of one instant arrive together, at that
    // instant: each row's write time is its reading time, so cassette
    // expires it exactly TTL after its reading_time, as the peers' filter
    // and the read-back judge it.
    const int64_t second = k * plan.interval_seconds;
    CASSETTE_RETURN_IF_ERROR(clock->Set(MicrosAt(second)));
    for (int s = 0; s < plan.sensors; ++s) batch[static_cast<size_t>(s)] = {s, second};
    const Clock::time_point before = Clock::now();
    CASSETTE_RETURN_IF_ERROR(engine->Write(batch));
    latencies->push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
  }
  return Status::OK();
}

Result<WorkloadResult> Measure(BenchEngine* engine, const RetentionPlan& plan,
                               const std::string& dir, ManualClock* clock) {
  WorkloadResult result;
  result.workload = "W5";
  result.engine = engine->name();
  const uint64_t written_before = ProcessBytesWritten();
  std::vector<double> latencies;
  const Clock::time_point start = Clock::now();
  CASSETTE_RETURN_IF_ERROR(Ingest(engine, plan, clock, &latencies));
  const Clock::time_point written = Clock::now();
  // The end of the week: the memtables are flushed and the compactions they
  // start finish; then once more a check period later (RetentionPlan), the
  // instant of the figures.
  CASSETTE_RETURN_IF_ERROR(clock->Set(MicrosAt(plan.EndSecond())));
  CASSETTE_RETURN_IF_ERROR(engine->Settle());
  CASSETTE_RETURN_IF_ERROR(clock->Set(MicrosAt(plan.MeasureSecond())));
  CASSETTE_RETURN_IF_ERROR(engine->Settle());
  const Clock::time_point settled = Clock::now();
  const uint64_t bytes_written = ProcessBytesWritten() - written_before;
  CASSETTE_ASSIGN_OR_RETURN(WriteCounters counters, engine->Counters());
  const double disk = static_cast<double>(DirectoryBytes(dir));

  const double rows = static_cast<double>(plan.Rows());
  const double logical = rows * kLogicalBytesPerRow;
  result.seconds = Seconds(start, settled);
  result.ops_per_s = rows / Seconds(start, written);
  result.mb_per_s = logical / Seconds(start, written) / 1e6;
  result.p50_us = Percentile(&latencies, 0.50);
  result.p99_us = Percentile(&latencies, 0.99);
  if (counters.sstable_bytes >= 0) {
    result.sstable_write_amplification = static_cast<double>(counters.sstable_bytes) / logical;
  }
  std::string total_from;
  if (counters.sstable_bytes >= 0 && counters.log_bytes >= 0) {
    result.write_amplification =
        static_cast<double>(counters.sstable_bytes + counters.log_bytes) / logical;
    total_from = "all bytes written = SSTable + log counters";
  } else {
    // No log counter (cassette): everything the process wrote, the log,
    // SSTables and manifests, as W1 counts it.
    result.write_amplification = static_cast<double>(bytes_written) / logical;
    total_from = "all bytes written = the process's write(2) bytes";
  }
  const int64_t live_rows =
      RowsBetween(plan, plan.MeasureSecond() - plan.ttl_seconds + 1, plan.EndSecond()) *
      plan.sensors;
  result.disk_mb = disk / 1e6;
  if (counters.sstable_disk_bytes >= 0) {
    result.sstable_disk_mb = static_cast<double>(counters.sstable_disk_bytes) / 1e6;
  }
  if (live_rows > 0) {
    result.space_amplification = disk / (static_cast<double>(live_rows) * kLogicalBytesPerRow);
  }

  CASSETTE_ASSIGN_OR_RETURN(ReadBack back, ReadEveryPartition(engine, plan));
  result.expired_rows_readable = static_cast<double>(back.expired_readable);
  result.live_rows_missing = static_cast<double>(back.live_missing);
  result.note = engine->description() + "; " + counters.detail + "; " + total_from;
  if (engine->ExpiresOnRead() && back.expired_readable > 0) {
    return Status::Corruption("W5: " + engine->name() + " returned " +
                              std::to_string(back.expired_readable) +
                              " rows past their TTL (it must return none)");
  }
  if (!engine->MayDropLiveRows() && back.live_missing > 0) {
    return Status::Corruption("W5: " + engine->name() + " lost " +
                              std::to_string(back.live_missing) + " rows within their TTL");
  }
  return result;
}

}  // namespace

RetentionPlan ScaledRetentionPlan(double scale) {
  RetentionPlan plan;
  plan.interval_seconds = std::max<int64_t>(1, std::llround(1 / scale));
  plan.memtable_bytes = std::max<uint64_t>(
      1ull << 20, plan.memtable_bytes / static_cast<uint64_t>(plan.interval_seconds));
  return plan;
}

Result<WorkloadResult> RunRetention(BenchEngine* engine, const RetentionPlan& plan,
                                    const std::string& dir, bool fifo, std::string* description) {
  auto clock = std::make_shared<ManualClock>(MicrosAt(0));
  EngineConfig config;
  config.dir = dir;
  config.sensors = plan.sensors;
  config.memtable_bytes = plan.memtable_bytes;
  config.zstd_level = plan.zstd_level;
  config.clock = clock;
  config.ttl_seconds = plan.ttl_seconds;
  config.fifo = fifo;
  config.log_compression = plan.log_compression;
  const Status opened = engine->Open(config);
  if (opened.code() == Status::Code::kNotSupported) {
    WorkloadResult result;
    result.workload = "W5";
    result.engine = engine->name();
    result.available = false;
    result.note = opened.message();
    *description = engine->description();
    return result;
  }
  CASSETTE_RETURN_IF_ERROR(opened);
  *description = engine->description();
  Result<WorkloadResult> result = Measure(engine, plan, dir, clock.get());
  Status closed = engine->Close();
  CASSETTE_RETURN_IF_ERROR(result.status());
  CASSETTE_RETURN_IF_ERROR(closed);
  return result;
}

}  // namespace cassette::bench
