#include "tools/lab_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <thread>

#include "cassette/clock.h"
#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/insert_batch.h"
#include "cassette/scheduler.h"
#include "engine/env/counting_file_system.h"
#include "engine/util/random.h"
#include "tools/lab_figures.h"
#include "tools/lab_row_maker.h"
#include "tools/lab_sampling.h"

namespace cassette::tools {
namespace {

const std::map<std::string, std::string>& ShortNames() {
  static const std::map<std::string, std::string> names = {
      {"twcs", "TimeWindowCompactionStrategy"},
      {"stcs", "SizeTieredCompactionStrategy"},
      {"lcs", "LeveledCompactionStrategy"},
      {"ucs", "UnifiedCompactionStrategy"},
  };
  return names;
}

// CPU time of the calling thread: the lab runs flushes and compactions
// inline, so what they cost is what this thread spends in them.
double ThreadCpuSeconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double Percentile(std::vector<int64_t> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(values.size())));
  return static_cast<double>(values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)]);
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// The writes per second of the whole workload at `second` (UTC).
double RateAt(const WorkloadSpec& spec, int64_t second) {
  const double base = static_cast<double>(spec.identifiers) / spec.interval_seconds;
  if (spec.shape != "diurnal") return base;
  // Lowest at 03:00, highest at 15:00.
  const double day = static_cast<double>(second % 86400) / 86400.0;
  return base * (1 - spec.amplitude * std::cos(2 * M_PI * (day - 0.125)));
}

// What the lab adds up from the engine's compaction records, which it
// reads after every flush (the engine keeps the last 100).
struct CompactionTally {
  uint64_t compactions = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t dropped_whole = 0;
  uint64_t rewritten_purged = 0;
  // What compactions took off disk past TTL + gc_grace, by minutes waited.
  std::map<int64_t, uint64_t> purged_by_lag_minutes;
  int64_t last_seen_micros = -1;
  size_t last_seen_count = 0;

  void Take(const std::vector<CompactionRecord>& records) {
    // Records are oldest first; those at or before the last seen instant
    // were taken already (several can share an instant under a manual clock).
    size_t at_last = 0;
    for (const CompactionRecord& r : records) {
      if (r.started_micros < last_seen_micros) continue;
      if (r.started_micros == last_seen_micros && at_last++ < last_seen_count) continue;
      ++compactions;
      bytes_read += r.bytes_read;
      bytes_written += r.bytes_written;
      dropped_whole += r.bytes_dropped;
      for (const auto& [lag, bytes] : r.purged_bytes_by_lag) {
        purged_by_lag_minutes[lag / 60] += bytes;
      }
      if (r.rows_in > 0 && r.rows_in > r.rows_out) {
        rewritten_purged += static_cast<uint64_t>(static_cast<double>(r.bytes_read) *
                                                  static_cast<double>(r.rows_in - r.rows_out) /
                                                  static_cast<double>(r.rows_in));
      }
    }
    if (!records.empty()) {
      const int64_t newest = records.back().started_micros;
      size_t same = 0;
      for (const CompactionRecord& r : records) same += r.started_micros == newest;
      last_seen_count = newest == last_seen_micros ? std::max(last_seen_count, same) : same;
      last_seen_micros = newest;
    }
  }
};

uint64_t TotalBytes(const std::map<int64_t, uint64_t>& bytes_by_lag) {
  uint64_t total = 0;
  for (const auto& [lag, bytes] : bytes_by_lag) total += bytes;
  return total;
}

// The lag (seconds, a minute's resolution) below which a share `p` of the
// bytes of `bytes_by_lag_minutes` lies.
int64_t LagPercentile(const std::map<int64_t, uint64_t>& bytes_by_lag_minutes, double p) {
  const uint64_t total = TotalBytes(bytes_by_lag_minutes);
  if (total == 0) return 0;
  const double rank = p * static_cast<double>(total);
  uint64_t seen = 0;
  for (const auto& [minutes, bytes] : bytes_by_lag_minutes) {
    seen += bytes;
    if (static_cast<double>(seen) >= rank) return minutes * 60;
  }
  return bytes_by_lag_minutes.rbegin()->first * 60;
}

// The TWCS windows as the engine explains them at a sample point, their
// starts counted from the run's start.
Result<LabWindowSample> SampleWindows(Database& db, const WorkloadSpec& spec, int64_t second) {
  CASSETTE_ASSIGN_OR_RETURN(std::vector<CompactionWindow> windows,
                            db.ExplainExpiry(spec.keyspace, spec.table));
  const int64_t now = db.NowMicros();
  LabWindowSample sample;
  sample.second = second;
  for (const CompactionWindow& w : windows) {
    LabWindow window;
    // Floor: a window before the epoch starts at a negative second.
    const int64_t start = w.start_micros / 1'000'000 - (w.start_micros % 1'000'000 < 0 ? 1 : 0);
    window.start_second = start - spec.start_seconds;
    window.sstables = static_cast<int64_t>(w.sstables.size());
    window.live_bytes = static_cast<uint64_t>(std::max<int64_t>(0, w.live_bytes));
    window.droppable_bytes = static_cast<uint64_t>(std::max<int64_t>(0, w.droppable_bytes));
    window.expired = w.droppable_at_micros.has_value() && *w.droppable_at_micros <= now;
    window.blocked = !w.blocked_by.empty() || w.blocked_by_memtable;
    sample.windows.push_back(window);
  }
  return sample;
}

}  // namespace

bool IsTimeWindowStrategy(const std::map<std::string, std::string>& compaction) {
  auto it = compaction.find("class");
  const std::string_view name = "TimeWindowCompactionStrategy";
  return it != compaction.end() && it->second.ends_with(name);
}

Result<std::map<std::string, std::string>> ParseStrategySpec(const std::string& spec) {
  const size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  std::map<std::string, std::string> compaction;
  auto known = ShortNames().find(name);
  if (known != ShortNames().end()) {
    compaction["class"] = known->second;
  } else if (name.find("CompactionStrategy") != std::string::npos) {
    compaction["class"] = name;
  } else {
    return Status::InvalidArgument("unknown strategy '" + name +
                                   "' (twcs, stcs, lcs, ucs, or a class name)");
  }
  if (colon == std::string::npos) return compaction;
  std::string rest = spec.substr(colon + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    const size_t comma = rest.find(',', start);
    const std::string option = rest.substr(start, comma - start);
    const size_t eq = option.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == option.size()) {
      return Status::InvalidArgument("strategy option '" + option + "' in '" + spec +
                                     "' is not key=value");
    }
    compaction[option.substr(0, eq)] = option.substr(eq + 1);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return compaction;
}

namespace {

// RunStrategy of a workload that is not sampled (any more).
Result<LabResult> RunWorkload(const WorkloadSpec& spec, const std::string& strategy,
                              const std::string& scratch_dir, const LabProgress& progress,
                              bool keep_files) {
  const auto wall_start = std::chrono::steady_clock::now();
  LabResult result;
  result.strategy = strategy;
  CASSETTE_ASSIGN_OR_RETURN(result.compaction, ParseStrategySpec(strategy));
  std::string scaled_sizes;
  const std::map<std::string, std::string> compaction =
      ScaleStrategySizes(result.compaction, spec.size_scale, &scaled_sizes);
  if (!scaled_sizes.empty()) {
    result.notes.push_back("strategy sizes scaled x" + Exact(spec.size_scale) + ": " +
                           scaled_sizes);
  }

  const bool in_memory = scratch_dir.empty();
  std::error_code ec;
  if (!in_memory) {
    std::filesystem::remove_all(scratch_dir, ec);
    std::filesystem::create_directories(scratch_dir, ec);
    if (ec) return Status::IOError("cannot create " + scratch_dir + ": " + ec.message());
  }

  auto counting =
      std::make_shared<CountingFileSystem>(in_memory ? NewMemFileSystem() : NewPosixFileSystem());
  auto clock = std::make_shared<ManualClock>(spec.start_seconds * 1'000'000);
  Options options;
  options.file_system = counting;
  options.clock = clock;
  auto scheduler = std::make_shared<ManualScheduler>();
  options.scheduler = scheduler;
  options.compaction_threads = 0;  // inline: deterministic
  options.memtable_flush_threshold = spec.memtable_bytes;
  options.compaction_throughput_mib_per_sec = 0;
  // No LOG file: its lines carry wall-clock durations and the data
  // directory's path, so its bytes would differ between two runs of the
  // same workload (in a child process or this one), and the lab reports
  // what the engine writes for the data, not its diagnostics.
  options.log_file_enabled = false;
  CASSETTE_ASSIGN_OR_RETURN(
      std::unique_ptr<Database> db,
      Database::Open(options, in_memory ? "/lab/data" : scratch_dir + "/data"));
  CqlSession session(db.get());
  CASSETTE_RETURN_IF_ERROR(
      session
          .Execute("CREATE KEYSPACE " + spec.keyspace +
                   " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
          .status());
  CASSETTE_RETURN_IF_ERROR(session.Execute(spec.create_table_cql).status());
  std::string compaction_cql;
  for (const auto& [key, value] : compaction) {
    compaction_cql += (compaction_cql.empty() ? "" : ", ") + Quote(key) + ": " + Quote(value);
  }
  Result<CqlResult> altered = session.Execute("ALTER TABLE " + spec.keyspace + "." + spec.table +
                                              " WITH compaction = {" + compaction_cql + "}");
  if (!altered.ok()) {
    return Status(altered.status().code(),
                  "strategy '" + strategy + "': " + altered.status().message());
  }
  CASSETTE_ASSIGN_OR_RETURN(TableSchema schema, db->GetTable(spec.keyspace, spec.table));
  CASSETTE_ASSIGN_OR_RETURN(RowMaker rows, RowMaker::Make(spec, schema));
  const int64_t table_ttl = schema.options().default_time_to_live;

  Random random(spec.seed);
  std::vector<int64_t> read_sstables;
  std::map<std::string, std::vector<int64_t>> read_sstables_by_kind;
  std::vector<int64_t> tombstones;
  std::vector<int64_t> interval_reads;
  CompactionTally tally;
  // The rows each identifier wrote lately (newest last, at most 4096):
  // what row deletes and point reads pick from. Live logical bytes are
  // kept by expiry second; a delete takes its rows' bytes back (a
  // partition delete only those of the rows still remembered).
  std::map<int64_t, int64_t> live_by_expiry;
  struct Written {
    int64_t event_second;
    int64_t sequence;  // the identifier's writes so far, this one included
    int64_t expires;   // INT64_MAX: never
    int64_t bytes;
  };
  std::vector<std::vector<Written>> written(static_cast<size_t>(spec.identifiers));
  // A delete of identifier `id`'s rows in the partition of event time `at`
  // that `covered` says it covers: they leave the history and the live
  // bytes.
  auto forget = [&](std::vector<Written>* history, int64_t id, int64_t at,
                    const std::function<bool(const Written&)>& covered) {
    const int64_t bucket = at / spec.bucket_seconds;
    const int64_t sub = rows.SubBucket(id, at);
    std::erase_if(*history, [&](const Written& w) {
      const bool gone =
          covered(w) &&
          (spec.bucket_column.empty() || w.event_second / spec.bucket_seconds == bucket) &&
          rows.SubBucket(id, w.event_second) == sub;
      if (gone) live_by_expiry[w.expires] -= w.bytes;
      return gone;
    });
  };

  double due_writes = 0;
  double due_reads = 0;
  int64_t next_id = 0;
  std::vector<int64_t> sequences(static_cast<size_t>(spec.identifiers), 0);
  const int64_t days = (spec.duration_seconds + 86399) / 86400;
  std::vector<Mutation> batch;  // the second's deletes and event-stamped writes
  std::vector<InsertBatch> inserts;
  for (size_t i = 0; i < std::max<size_t>(1, spec.ttl_mix.size()); ++i) {
    inserts.emplace_back(spec.keyspace, spec.table, rows.InsertColumns());
    if (i < spec.ttl_mix.size() && spec.ttl_mix[i].seconds >= 0) {
      inserts.back().UsingTtl(static_cast<int32_t>(spec.ttl_mix[i].seconds));
    }
  }
  // The peak of the bytes on disk is followed second by second: what a
  // second's flushes and compactions held above both what was on disk
  // before and after it is temporary (a compaction's outputs written while
  // its inputs still exist).
  uint64_t peak_disk = counting->bytes_in_files();
  double background_cpu = 0;
  auto background = [&](const std::function<void()>& work) {
    const double cpu_before = ThreadCpuSeconds();
    work();
    background_cpu += ThreadCpuSeconds() - cpu_before;
  };
  for (int64_t t = 0; t < spec.duration_seconds; ++t) {
    const int64_t now = spec.start_seconds + t;
    CASSETTE_RETURN_IF_ERROR(clock->Set(now * 1'000'000));
    const uint64_t bytes_before = counting->bytes_in_files();
    counting->ResetPeak();
    due_writes += RateAt(spec, now);
    batch.clear();
    while (due_writes >= 1) {
      due_writes -= 1;
      const int64_t id = next_id;
      next_id = (next_id + 1) % spec.identifiers;
      int64_t event = now;
      if (spec.late_fraction > 0 && random.NextDouble() < spec.late_fraction) {
        event -=
            1 + static_cast<int64_t>(random.Uniform(static_cast<uint64_t>(spec.late_max_seconds)));
      }
      const double action = random.NextDouble();
      auto& history = written[static_cast<size_t>(id)];
      if (action < spec.partition_delete_fraction) {
        Mutation m(spec.keyspace, spec.table, rows.PartitionKey(id, event));
        m.DeletePartition();
        batch.push_back(std::move(m));
        forget(&history, id, event, [](const Written&) { return true; });
        ++result.deletes;
        continue;
      }
      if (action < spec.partition_delete_fraction + spec.row_delete_fraction && !history.empty()) {
        const size_t victim = static_cast<size_t>(random.Uniform(history.size()));
        const Written gone = history[victim];
        Mutation m(spec.keyspace, spec.table, rows.PartitionKey(id, gone.event_second));
        m.DeleteRow(rows.Clustering(gone.event_second, gone.sequence));
        live_by_expiry[gone.expires] -= gone.bytes;
        batch.push_back(std::move(m));
        history.erase(history.begin() + static_cast<std::ptrdiff_t>(victim));
        ++result.deletes;
        continue;
      }
      if (action < spec.partition_delete_fraction + spec.row_delete_fraction +
                       spec.range_delete_fraction &&
          !history.empty()) {
        // A range of event times starting at a row written lately, in that
        // row's partition: DELETE ... WHERE time >= start AND time < end,
        // or, clustered by sequence, the sequence numbers of the rows
        // written in that time.
        const Written from = history[static_cast<size_t>(random.Uniform(history.size()))];
        const int64_t start = from.event_second;
        const int64_t end = start + spec.range_delete_seconds;
        int64_t end_sequence = from.sequence + 1;
        for (const Written& w : history) {
          if (w.event_second >= start && w.event_second < end) {
            end_sequence = std::max(end_sequence, w.sequence + 1);
          }
        }
        Mutation m(spec.keyspace, spec.table, rows.PartitionKey(id, start));
        m.DeleteRange(ClusteringBound{{rows.SliceValue(start, from.sequence)}, true},
                      ClusteringBound{{rows.SliceValue(end, end_sequence)}, false});
        batch.push_back(std::move(m));
        forget(&history, id, start, [&](const Written& w) {
          return rows.slices_by_sequence()
                     ? w.sequence >= from.sequence && w.sequence < end_sequence
                     : w.event_second >= start && w.event_second < end;
        });
        ++result.deletes;
        continue;
      }
      size_t share = 0;  // the TTL mix entry: its InsertBatch
      int64_t ttl = -1;
      if (!spec.ttl_mix.empty()) {
        double pick = random.NextDouble();
        for (share = 0; share < spec.ttl_mix.size(); ++share) {
          ttl = spec.ttl_mix[share].seconds;
          if (pick < spec.ttl_mix[share].fraction) break;
          pick -= spec.ttl_mix[share].fraction;
        }
        share = std::min(share, spec.ttl_mix.size() - 1);
      }
      const int64_t effective_ttl = ttl == -1 ? table_ttl : ttl;
      int64_t payload = spec.row_bytes;
      if (spec.row_bytes_spread > 0) {
        payload += static_cast<int64_t>(
                       random.Uniform(static_cast<uint64_t>(2 * spec.row_bytes_spread + 1))) -
                   spec.row_bytes_spread;
      }
      // Clustered by time alone, one row per identifier and event second: a
      // second write of the same identifier within a second lands in the
      // same row (an update).
      const int64_t sequence = ++sequences[static_cast<size_t>(id)];
      if (event < now && spec.event_timestamps) {
        // A late write stamped with its event time (USING TIMESTAMP), as
        // pipelines that backfill do: TWCS files it in its event's window.
        Mutation m(spec.keyspace, spec.table, rows.PartitionKey(id, event));
        RowBuilder row = m.Insert(rows.Clustering(event, sequence));
        rows.SetRegulars(&row, event, sequence, &random, payload);
        if (ttl >= 0) m.UsingTtl(static_cast<int32_t>(ttl));
        m.UsingTimestamp(event * 1'000'000);
        batch.push_back(std::move(m));
      } else {
        rows.FillInsert(inserts[share].AddRow(), id, event, sequence, &random, payload);
      }
      ++result.writes;
      const int64_t bytes = rows.KeyBytes() + (spec.payload_column.empty() ? 0 : payload);
      result.logical_bytes += static_cast<uint64_t>(bytes);
      const int64_t expires = effective_ttl > 0 ? now + effective_ttl : INT64_MAX;
      history.push_back({event, sequence, expires, bytes});
      live_by_expiry[expires] += bytes;
      // Only the recent past is a candidate for row deletes and point
      // reads; bound the memory of long runs.
      if (history.size() > 4096) history.erase(history.begin(), history.begin() + 2048);
    }
    // The second's inserts (one InsertBatch per TTL, as a client binds a
    // prepared INSERT per row), then its deletes and late writes stamped
    // with their event time. Each call takes the next
    // write timestamp, so a delete shadows a row inserted in the same
    // second, as the bookkeeping above assumes.
    for (InsertBatch& insert : inserts) {
      if (!insert.empty()) CASSETTE_RETURN_IF_ERROR(db->ApplyInserts(insert));
      insert.Clear();
    }
    if (!batch.empty()) CASSETTE_RETURN_IF_ERROR(db->ApplyBatch(batch));
    // Flushes and the compactions they propose run as soon as they are
    // queued, as compaction threads would pick them up: left queued until
    // the next sample, SSTables would pile up and every strategy would look
    // alike between samples.
    background([&] { scheduler->RunUntilIdle(); });

    if (spec.read_interval_seconds > 0) {
      due_reads += 1.0 / spec.read_interval_seconds;
      while (due_reads >= 1) {
        due_reads -= 1;
        const double kind_pick = random.NextDouble();
        const int64_t id =
            static_cast<int64_t>(random.Uniform(static_cast<uint64_t>(spec.identifiers)));
        ReadQuery q;
        q.keyspace = spec.keyspace;
        q.table = spec.table;
        std::string kind;
        const auto& history = written[static_cast<size_t>(id)];
        if (kind_pick < spec.newest_fraction) {
          kind = "newest";
          q.partition_keys = rows.BucketPartitions(id, now);
          q.limit = spec.newest_rows;
          q.reversed = !rows.newest_first();
        } else if (kind_pick < spec.newest_fraction + spec.range_fraction) {
          kind = "range";
          q.partition_keys = rows.BucketPartitions(id, now);
          if (rows.slices_by_sequence()) {
            // The sequence numbers written since: from the oldest row of
            // the range the history remembers, to the newest.
            int64_t first = sequences[static_cast<size_t>(id)] + 1;
            for (const Written& w : history) {
              if (w.event_second >= now - spec.range_seconds) first = std::min(first, w.sequence);
            }
            q.slice_start = ClusteringBound{{rows.SliceValue(0, first)}, true};
          } else {
            q.slice_start =
                ClusteringBound{{Value::Timestamp((now - spec.range_seconds) * 1000)}, true};
            q.slice_end = ClusteringBound{{Value::Timestamp(now * 1000)}, true};
          }
        } else if (kind_pick < spec.newest_fraction + spec.range_fraction + spec.point_fraction &&
                   !history.empty()) {
          kind = "point";
          const Written& w = history[static_cast<size_t>(random.Uniform(history.size()))];
          q.partition_keys.push_back(rows.PartitionKey(id, w.event_second));
          q.clustering_prefix = rows.Clustering(w.event_second, w.sequence);
        } else {
          kind = "missing";
          q.partition_keys.push_back(rows.PartitionKey(spec.identifiers + id, now));
        }
        CASSETTE_ASSIGN_OR_RETURN(ResultSet read, db->Read(q));
        ++result.reads;
        read_sstables.push_back(read.stats.sstables_read);
        interval_reads.push_back(read.stats.sstables_read);
        read_sstables_by_kind[kind].push_back(read.stats.sstables_read);
        tombstones.push_back(read.stats.tombstone_cells);
      }
    }

    const bool sample = (t + 1) % spec.sample_seconds == 0 || t + 1 == spec.duration_seconds;
    if (sample) {
      // What the strategy proposes as time passes (TWCS drops expired
      // windows even when no flush comes).
      Status compacted;
      background([&] { compacted = db->Compact(spec.keyspace, spec.table); });
      CASSETTE_RETURN_IF_ERROR(compacted);
      CASSETTE_ASSIGN_OR_RETURN(TableStats stats, db->GetTableStats(spec.keyspace, spec.table));
      tally.Take(stats.recent_compactions);
      LabSample point;
      point.second = t + 1;
      point.disk_bytes = counting->bytes_in_files();
      point.sstable_count = stats.sstable_count;
      point.write_amplification = stats.write_amplification;
      point.read_amplification_p99 = Percentile(interval_reads, 0.99);
      point.expired_bytes_waiting = TotalBytes(stats.purgeable_bytes_by_lag);
      interval_reads.clear();
      result.max_sstable_count = std::max(result.max_sstable_count, stats.sstable_count);
      result.series.push_back(point);
      if (IsTimeWindowStrategy(result.compaction)) {
        CASSETTE_ASSIGN_OR_RETURN(LabWindowSample windows, SampleWindows(*db, spec, t + 1));
        result.windows.push_back(std::move(windows));
      }
    }
    const uint64_t second_peak = counting->peak_bytes_in_files();
    peak_disk = std::max(peak_disk, second_peak);
    const uint64_t held = std::max(bytes_before, counting->bytes_in_files());
    if (second_peak > held) {
      result.peak_temporary_bytes = std::max(result.peak_temporary_bytes, second_peak - held);
    }
    if (progress && (t + 1) % 86400 == 0) progress((t + 1) / 86400, days);
  }

  CASSETTE_ASSIGN_OR_RETURN(TableStats stats, db->GetTableStats(spec.keyspace, spec.table));
  tally.Take(stats.recent_compactions);
  const DeviceStats device = db->GetDeviceStats();
  result.sstable_bytes_written = static_cast<uint64_t>(stats.bytes_flushed + stats.bytes_compacted);
  result.device_bytes_written = device.bytes_written;
  // Amplification against what the engine counts as written by users (the
  // writes' encoded size, as its commit log holds them), so that the lab
  // says what `cassette stats` says of the same table.
  result.user_bytes = static_cast<uint64_t>(stats.bytes_written_by_users);
  const double user = std::max<double>(1, static_cast<double>(result.user_bytes));
  result.write_amplification = stats.write_amplification;
  result.total_write_amplification = static_cast<double>(result.device_bytes_written) / user;
  result.peak_disk_bytes = peak_disk;
  result.final_disk_bytes = counting->bytes_in_files();
  const int64_t end = spec.start_seconds + spec.duration_seconds;
  for (auto it = live_by_expiry.upper_bound(end); it != live_by_expiry.end(); ++it) {
    result.live_logical_bytes += static_cast<uint64_t>(std::max<int64_t>(0, it->second));
  }
  result.space_amplification = static_cast<double>(stats.bytes_on_disk) /
                               std::max<double>(1, static_cast<double>(result.live_logical_bytes));
  result.sstable_count = stats.sstable_count;
  result.read_amplification_p50["all"] = Percentile(read_sstables, 0.5);
  result.read_amplification_p99["all"] = Percentile(read_sstables, 0.99);
  for (const auto& [kind, values] : read_sstables_by_kind) {
    result.read_amplification_p50[kind] = Percentile(values, 0.5);
    result.read_amplification_p99[kind] = Percentile(values, 0.99);
  }
  result.tombstones_per_read_p99 = Percentile(tombstones, 0.99);
  result.compactions =
      std::max<uint64_t>(tally.compactions, static_cast<uint64_t>(stats.compactions_completed));
  if (tally.compactions < result.compactions) {
    result.notes.push_back(
        std::to_string(result.compactions - tally.compactions) +
        " compactions ran between two samples beyond the 100 the engine remembers: their bytes "
        "are missing from the compaction and expiry figures (sample more often)");
  }
  result.compaction_bytes_read = tally.bytes_read;
  result.compaction_bytes_written = tally.bytes_written;
  result.expired_bytes_dropped_whole = tally.dropped_whole;
  result.expired_bytes_rewritten = tally.rewritten_purged;
  // Data still waiting at the end counts with its wait so far: a strategy
  // that never gets to it must not look prompt.
  std::map<int64_t, uint64_t> lag_minutes = tally.purged_by_lag_minutes;
  for (const auto& [lag, bytes] : stats.purgeable_bytes_by_lag) lag_minutes[lag / 60] += bytes;
  result.expired_bytes_waiting = TotalBytes(stats.purgeable_bytes_by_lag);
  result.expiry_lag_p50_seconds = LagPercentile(lag_minutes, 0.5);
  result.expiry_lag_p99_seconds = LagPercentile(lag_minutes, 0.99);
  result.expiry_lag_max_seconds = lag_minutes.empty() ? 0 : lag_minutes.rbegin()->first * 60;
  result.compaction_cpu_seconds = background_cpu;
  CASSETTE_RETURN_IF_ERROR(db->Close());
  db.reset();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.simulated_days_per_minute = static_cast<double>(spec.duration_seconds) / 86400.0 /
                                     std::max(1e-9, result.wall_seconds / 60.0);
  if (!in_memory && !keep_files) std::filesystem::remove_all(scratch_dir, ec);
  return result;
}

}  // namespace

Result<LabResult> RunStrategy(const WorkloadSpec& spec, const std::string& strategy,
                              const std::string& scratch_dir, const LabProgress& progress,
                              bool keep_files) {
  double fraction = 1;
  const WorkloadSpec sampled =
      spec.sample >= 1 ? spec : SampledWorkload(spec, spec.sample, &fraction);
  Result<LabResult> run = RunWorkload(sampled, strategy, scratch_dir, progress, keep_files);
  if (!run.ok() && !keep_files && !scratch_dir.empty()) {
    // A failed run leaves nothing behind in the scratch directory either.
    std::error_code ec;
    std::filesystem::remove_all(scratch_dir, ec);
  }
  if (!run.ok() || spec.sample >= 1) return run;
  LabResult result = std::move(run).value();
  const double simulated_days_per_minute = result.simulated_days_per_minute;
  ScaleUpResult(fraction, &result);
  result.simulated_days_per_minute = simulated_days_per_minute;
  result.notes.insert(result.notes.begin(),
                      "sampled: " + std::to_string(sampled.identifiers) + " of " +
                          std::to_string(spec.identifiers) +
                          " identifiers; byte figures and counts scaled back x" +
                          Exact(1 / fraction));
  auto cls = result.compaction.find("class");
  if (cls != result.compaction.end() && cls->second.ends_with("UnifiedCompactionStrategy") &&
      !result.compaction.contains("flush_size_override")) {
    // Measured: with the override scaled, a sampled UCS day is within 1%
    // of the full run; without it, its write amplification 4.6% off.
    result.notes.push_back(
        "UCS rounds the flush size it observes up to whole MiB, which sampling cannot scale: "
        "give flush_size_override (scaled with the rest) for a sampled run as exact as the "
        "other strategies' (docs/LAB.md, Sampling)");
  }
  return result;
}

std::vector<Result<LabResult>> RunLabJobs(const std::vector<LabJob>& jobs,
                                          const std::string& scratch_dir, size_t threads,
                                          const LabStrategyProgress& progress) {
  std::vector<std::optional<Result<LabResult>>> runs(jobs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      LabProgress day_done;
      if (progress) day_done = [&, i](int64_t day, int64_t days) { progress(i, day, days); };
      runs[i] =
          RunStrategy(jobs[i].spec, jobs[i].strategy,
                      scratch_dir.empty() ? "" : scratch_dir + "/" + std::to_string(i), day_done);
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < std::max<size_t>(1, threads); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  std::vector<Result<LabResult>> results;
  for (std::optional<Result<LabResult>>& run : runs) results.push_back(std::move(*run));
  return results;
}

std::vector<Result<LabResult>> RunStrategies(const WorkloadSpec& spec,
                                             const std::vector<std::string>& strategies,
                                             const std::string& scratch_dir, size_t jobs,
                                             const LabStrategyProgress& progress) {
  std::vector<LabJob> list;
  for (const std::string& strategy : strategies) list.push_back({spec, strategy});
  return RunLabJobs(list, scratch_dir, jobs, progress);
}

}  // namespace cassette::tools
