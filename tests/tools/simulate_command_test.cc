// The compaction lab: the workload file, strategy specs, and runs through
// the real engine (determinism; TWCS drops expired windows whole where
// STCS rewrites them).
#include "tools/simulate_command.h"

#include "cassette/clock.h"
#include "cassette/cql.h"
#include "cassette/db.h"
#include "tests/tools/lab_test_workload.h"
#include "tools/lab_from_data.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace cassette::tools {
namespace {

using lab_test::TinyWorkload;
using lab_test::WithoutWallClock;

std::string ScratchDir(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cassette-simulate-test-" + name + "-" + std::to_string(::getpid())))
      .string();
}

TEST(LabWorkloadTest, ParsesTheShippedExamples) {
  const std::filesystem::path dir =
      std::filesystem::path(CASSETTE_SOURCE_DIR) / "examples" / "workloads";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    ++files;
    Result<WorkloadSpec> spec = LoadWorkloadFile(entry.path().string());
    ASSERT_TRUE(spec.ok()) << spec.status().ToString();
    EXPECT_FALSE(spec->strategies.empty()) << entry.path();
  }
  EXPECT_GE(files, 1);
}

TEST(LabWorkloadTest, ReadsEveryField) {
  Result<WorkloadSpec> spec =
      ParseWorkload(TinyWorkload(2, "seed = 7\nstrategies = [\"stcs\"]\n") +
                        "[deletes]\nrow_fraction = 0.01\npartition_fraction = 0.001\n",
                    "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->keyspace, "lab");
  EXPECT_EQ(spec->table, "r");
  EXPECT_EQ(spec->bucket_seconds, 86400);
  EXPECT_EQ(spec->identifiers, 10);
  EXPECT_DOUBLE_EQ(spec->interval_seconds, 2);
  EXPECT_EQ(spec->row_bytes_spread, 10);
  EXPECT_EQ(spec->duration_seconds, 7200);
  EXPECT_EQ(spec->sample_seconds, 600);
  EXPECT_EQ(spec->seed, 7u);
  EXPECT_EQ(spec->strategies, std::vector<std::string>{"stcs"});
  EXPECT_DOUBLE_EQ(spec->row_delete_fraction, 0.01);
  EXPECT_DOUBLE_EQ(spec->point_fraction, 0.1);
}

TEST(LabWorkloadTest, ReportsEveryProblemWithItsLine) {
  const std::string text = R"toml([table]
cql = "CREATE TABLE t (a int PRIMARY KEY)"
identifer_column = "a"
[writes]
identifiers = "many"
shape = "sawtooth"
ttl_mix = [ { ttl = "7d", fraction = 0.5 } ]
[colours]
red = 1
)toml";
  Result<WorkloadSpec> spec = ParseWorkload(text, "bad.toml");
  ASSERT_TRUE(spec.status().IsInvalidArgument());
  const std::string& m = spec.status().message();
  EXPECT_NE(m.find("bad.toml:3: unknown key table.identifer_column"), std::string::npos) << m;
  EXPECT_NE(m.find("bad.toml:5: writes.identifiers must be an integer"), std::string::npos) << m;
  EXPECT_NE(m.find("writes.shape must be \"constant\" or \"diurnal\", not \"sawtooth\""),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("bad.toml:7: writes.ttl_mix fractions must add up to 1"), std::string::npos)
      << m;
  EXPECT_NE(m.find("unknown section [colours]"), std::string::npos) << m;
  EXPECT_NE(m.find("table.cql must create a table named keyspace.table"), std::string::npos) << m;
  EXPECT_NE(m.find("table.identifier_column is required"), std::string::npos) << m;

  Result<WorkloadSpec> syntax = ParseWorkload("[table\ncql = 1\n", "broken.toml");
  ASSERT_TRUE(syntax.status().IsInvalidArgument());
  EXPECT_EQ(syntax.status().message().rfind("broken.toml:1: ", 0), 0u) << syntax.status().message();
}

TEST(LabWorkloadTest, Durations) {
  EXPECT_EQ(*ParseDuration("90"), 90);
  EXPECT_EQ(*ParseDuration("30s"), 30);
  EXPECT_EQ(*ParseDuration("15m"), 900);
  EXPECT_EQ(*ParseDuration("12h"), 43200);
  EXPECT_EQ(*ParseDuration("7d"), 604800);
  EXPECT_EQ(*ParseDuration("2w"), 1209600);
  for (const char* bad : {"", "d", "1.5h", "-3d", "3y", "99999999999999d"}) {
    EXPECT_FALSE(ParseDuration(bad).ok()) << bad;
  }
}

TEST(LabStrategyTest, SpecsBecomeCompactionMaps) {
  auto twcs = ParseStrategySpec("twcs:compaction_window_unit=HOURS,compaction_window_size=1");
  ASSERT_TRUE(twcs.ok());
  EXPECT_EQ(*twcs, (std::map<std::string, std::string>{{"class", "TimeWindowCompactionStrategy"},
                                                       {"compaction_window_unit", "HOURS"},
                                                       {"compaction_window_size", "1"}}));
  EXPECT_EQ(ParseStrategySpec("lcs")->at("class"), "LeveledCompactionStrategy");
  EXPECT_EQ(ParseStrategySpec("ucs:scaling_parameters=T4")->at("scaling_parameters"), "T4");
  EXPECT_EQ(ParseStrategySpec("SizeTieredCompactionStrategy")->at("class"),
            "SizeTieredCompactionStrategy");
  EXPECT_TRUE(ParseStrategySpec("fifo").status().IsInvalidArgument());
  EXPECT_TRUE(ParseStrategySpec("stcs:min_threshold").status().IsInvalidArgument());
}

// The engine checks the options with Cassandra's messages.
TEST(LabRunTest, BadStrategyOptionsAreTheEnginesErrors) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(1), "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  Result<LabResult> run =
      RunStrategy(*spec, "twcs:compaction_window_unit=FORTNIGHTS", ScratchDir("bad"));
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("FORTNIGHTS"), std::string::npos)
      << run.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(ScratchDir("bad"))) << "a failed run cleans up";
}

// The same workload and seed give the same figures, byte for byte, once
// the wall-clock ones are left out; another seed gives others.
TEST(LabRunTest, RunsAreDeterministic) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(1), "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  auto json = [&](uint64_t seed) {
    WorkloadSpec s = *spec;
    s.seed = seed;
    Result<LabResult> run = RunStrategy(s, "stcs", ScratchDir("det"));
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    // The wall-clock figures are the only ones allowed to differ.
    return WithoutWallClock(SimulateJson(s, {*run}));
  };
  const std::string first = json(1);
  EXPECT_EQ(first, json(1));
  EXPECT_NE(first, json(2));
  EXPECT_NE(first.find("\"writes\":18000,"), std::string::npos) << first;
}

// TWCS drops the windows whose data expired as whole files, never reading
// them; STCS merges expired rows with live ones and rewrites them.
TEST(LabRunTest, TwcsDropsExpiredWindowsWholeWhereStcsRewrites) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(4), "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  Result<LabResult> twcs = RunStrategy(
      *spec, "twcs:compaction_window_unit=MINUTES,compaction_window_size=20", ScratchDir("twcs"));
  ASSERT_TRUE(twcs.ok()) << twcs.status().ToString();
  Result<LabResult> stcs = RunStrategy(*spec, "stcs:min_threshold=2", ScratchDir("stcs"));
  ASSERT_TRUE(stcs.ok()) << stcs.status().ToString();
  EXPECT_GT(twcs->expired_bytes_dropped_whole, 0u);
  EXPECT_EQ(twcs->expired_bytes_rewritten, 0u);
  EXPECT_GT(stcs->expired_bytes_rewritten, 0u);
  // STCS's compactions write their outputs before deleting the inputs.
  EXPECT_GT(stcs->peak_temporary_bytes, 0u);
  EXPECT_LT(stcs->peak_temporary_bytes, stcs->peak_disk_bytes);
  EXPECT_GT(stcs->compaction_cpu_seconds, 0);
  // Expiry lag: a 20-minute window's oldest data waits for its newest to
  // pass TTL + gc_grace, then for the next expiry check (a flush or a
  // sample, every 10 minutes at most), drop times rounded up to a minute.
  EXPECT_GE(twcs->expiry_lag_max_seconds, (20 - 1) * 60);
  EXPECT_LE(twcs->expiry_lag_max_seconds, (20 + 10 + 2) * 60);
  EXPECT_LE(twcs->expiry_lag_p50_seconds, twcs->expiry_lag_p99_seconds);
  // STCS rewriting every pair of files purges within minutes, at the cost
  // of the rewriting.
  EXPECT_LT(stcs->expiry_lag_p99_seconds, twcs->expiry_lag_p99_seconds);
  EXPECT_GT(stcs->write_amplification, twcs->write_amplification);
  // The report's table says it in its rows.
  const std::string table = SimulateTable(*spec, {*twcs, *stcs});
  EXPECT_NE(table.find("expired data dropped whole (MB)"), std::string::npos) << table;
  EXPECT_NE(table.find("expiry lag p99 (past TTL + gc_grace)"), std::string::npos) << table;
  EXPECT_NE(table.find("recommendation: "), std::string::npos) << table;
  // The time series has a point every 10 minutes for each strategy.
  const std::string csv = SimulateCsv({*twcs, *stcs});
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 24) << csv;
  EXPECT_NE(csv.find(",expired_bytes_waiting\n"), std::string::npos) << csv;
}

// A TWCS run records its windows at every sample (what the report's window
// picture draws): windows appear as time passes, merge, and once their
// data is past TTL + gc_grace vanish whole, never to return.
TEST(LabRunTest, TwcsRunsRecordTheirWindowsAsTheyComeAndGo) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(3), "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  Result<LabResult> twcs = RunStrategy(
      *spec, "twcs:compaction_window_unit=MINUTES,compaction_window_size=20", ScratchDir("win"));
  ASSERT_TRUE(twcs.ok()) << twcs.status().ToString();
  ASSERT_EQ(twcs->windows.size(), twcs->series.size());
  ASSERT_EQ(twcs->windows.size(), 18u);
  std::map<int64_t, size_t> first_seen;  // window start -> sample
  std::map<int64_t, size_t> last_seen;
  size_t most = 0;
  for (size_t i = 0; i < twcs->windows.size(); ++i) {
    const LabWindowSample& sample = twcs->windows[i];
    EXPECT_EQ(sample.second, twcs->series[i].second);
    most = std::max(most, sample.windows.size());
    int64_t sstables = 0;
    for (const LabWindow& w : sample.windows) {
      // 20-minute windows on the clock's boundaries, oldest first.
      EXPECT_EQ((spec->start_seconds + w.start_second) % 1200, 0) << w.start_second;
      EXPECT_LE(w.start_second, sample.second);
      EXPECT_GT(w.sstables, 0);
      EXPECT_GT(w.live_bytes + w.droppable_bytes, 0u);
      sstables += w.sstables;
      first_seen.emplace(w.start_second, i);
      last_seen[w.start_second] = i;
    }
    // Every SSTable is in a window.
    EXPECT_EQ(sstables, twcs->series[i].sstable_count) << "sample " << i;
  }
  EXPECT_GE(most, 3u);
  // The first windows (data 1 hour old plus 60 s of gc_grace) were dropped
  // before the end; a window gone stays gone.
  size_t dropped = 0;
  for (const auto& [window_start, last] : last_seen) {
    if (last + 1 < twcs->windows.size()) ++dropped;
    const int64_t start = window_start;  // clang 14 cannot capture a structured binding
    for (size_t i = first_seen[start]; i <= last; ++i) {
      const auto& ws = twcs->windows[i].windows;
      EXPECT_TRUE(std::any_of(ws.begin(), ws.end(),
                              [&](const LabWindow& w) { return w.start_second == start; }))
          << "window " << start << " missing at sample " << i << " and back later";
    }
  }
  EXPECT_GE(dropped, 2u);
  EXPECT_GT(twcs->expired_bytes_dropped_whole, 0u);

  // Other strategies record none.
  Result<LabResult> stcs = RunStrategy(*spec, "stcs", ScratchDir("win-stcs"));
  ASSERT_TRUE(stcs.ok()) << stcs.status().ToString();
  EXPECT_TRUE(stcs->windows.empty());
}

// Strategies run on threads give what they give alone: each run has its
// own database, clock and scheduler.
TEST(LabRunTest, ParallelRunsGiveWhatSequentialRunsGive) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(1), "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  const std::vector<std::string> strategies = {"stcs", "lcs", "twcs"};
  auto figures = [&](size_t jobs) {
    std::vector<Result<LabResult>> runs =
        RunStrategies(*spec, strategies, ScratchDir("jobs" + std::to_string(jobs)), jobs);
    std::vector<LabResult> results;
    for (Result<LabResult>& run : runs) {
      EXPECT_TRUE(run.ok()) << run.status().ToString();
      if (run.ok()) results.push_back(std::move(run).value());
    }
    return WithoutWallClock(SimulateJson(*spec, results));
  };
  const std::string one = figures(1);
  EXPECT_EQ(one, figures(3));
  EXPECT_NE(one.find("\"strategy\":\"lcs\""), std::string::npos) << one;
}

// Late writes stamped with their event time (writes.timestamps = "event")
// belong to older TWCS windows. Split at flush by window (cassette's
// default, as ScyllaDB's), they land in their own window's files and the
// old windows stay droppable whole; in one file per flush (Cassandra's
// way, split_output_by_window=false) each flush file also holds older
// windows' rows, so the expired windows it overlaps wait for it.
TEST(LabRunTest, LateWritesKeepOldWindowsDroppableWhenFlushesSplitByWindow) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(3), "tiny.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  spec->late_fraction = 0.1;
  spec->late_max_seconds = 1800;
  spec->event_timestamps = true;
  const std::string twcs = "twcs:compaction_window_unit=MINUTES,compaction_window_size=10";
  Result<LabResult> split = RunStrategy(*spec, twcs, "");
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  Result<LabResult> whole = RunStrategy(*spec, twcs + ",split_output_by_window=false", "");
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  // Split: more expired data leaves whole, and less is still on disk at
  // the end (nothing waits for a newer flush file to expire).
  EXPECT_GT(split->expired_bytes_dropped_whole, whole->expired_bytes_dropped_whole);
  EXPECT_LT(split->final_disk_bytes, whole->final_disk_bytes);
  EXPECT_LT(split->peak_disk_bytes, whole->peak_disk_bytes);
}

// A hash sub-bucket column spreads each identifier's bucket over its
// partitions; newest and range reads fan out to all of them.
TEST(LabRunTest, HashSubBucketsSpreadRowsAndReadsFanOut) {
  std::string workload = TinyWorkload(1);
  const std::string from = "payload blob,\n         PRIMARY KEY ((id, day), ts))";
  const size_t at = workload.find(from);
  ASSERT_NE(at, std::string::npos);
  workload.replace(at, from.size(),
                   "sub int, payload blob,\n         PRIMARY KEY ((id, day, sub), ts))");
  const std::string bucket = "bucket = \"1d\"";
  workload.replace(workload.find(bucket), bucket.size(),
                   "bucket = \"1d\"\nhash_column = \"sub\"\nhash_buckets = 4");
  Result<WorkloadSpec> spec = ParseWorkload(workload, "hash.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->hash_buckets, 4);
  const std::string dir = ScratchDir("hash");
  Result<LabResult> run = RunStrategy(*spec, "stcs", dir, {}, /*keep_files=*/true);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->writes, 18000u);
  Options options;
  // Halfway through the run, when no row has expired yet (TTL 1 hour).
  options.clock = std::make_shared<ManualClock>((spec->start_seconds + 1800) * 1'000'000);
  Result<std::unique_ptr<Database>> db = Database::Open(options, dir + "/data");
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  CqlSession session(db->get());
  // Every sensor's rows are in all four sub-buckets, about a quarter each.
  for (int sub = 0; sub < 4; ++sub) {
    Result<CqlResult> rows = session.Execute(
        "SELECT COUNT(*) FROM lab.r WHERE id = 'id-000003' AND day = '2024-01-01' AND sub = " +
        std::to_string(sub));
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ(rows->rows.size(), 1u);
    const int64_t count = rows->rows[0][0].AsInt64();
    EXPECT_GT(count, 1800 / 4 / 2) << sub;
    EXPECT_LT(count, 1800 / 4 * 2) << sub;
  }
  ASSERT_TRUE((*db)->Close().ok());
  std::filesystem::remove_all(dir);
  // A sub-bucket column of another type is refused with its name.
  workload.replace(workload.find("sub int"), 7, "sub text");
  spec = ParseWorkload(workload, "hash.toml");
  ASSERT_TRUE(spec.ok());
  Result<LabResult> refused = RunStrategy(*spec, "stcs", "");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(
      refused.status().message().find("sub: the lab fills a sub-bucket of type int or bigint"),
      std::string::npos)
      << refused.status().ToString();
}

// Range deletes (DELETE ... WHERE ts >= a AND ts < b) take their rows
// out of the live data the lab counts, and reads then meet range
// tombstones in the engine.
TEST(LabRunTest, RangeDeletesRemoveTheirRows) {
  Result<WorkloadSpec> spec = ParseWorkload(
      TinyWorkload(1) + "[deletes]\nrange_fraction = 0.01\nrange = \"5m\"\n", "range.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->range_delete_seconds, 300);
  Result<LabResult> with = RunStrategy(*spec, "stcs", "");
  ASSERT_TRUE(with.ok()) << with.status().ToString();
  spec->range_delete_fraction = 0;
  Result<LabResult> without = RunStrategy(*spec, "stcs", "");
  ASSERT_TRUE(without.ok()) << without.status().ToString();
  EXPECT_GT(with->deletes, 100u);
  EXPECT_EQ(without->deletes, 0u);
  // Each delete takes up to 5 minutes of a source's rows (150 of them).
  EXPECT_LT(with->live_logical_bytes, without->live_logical_bytes / 2);
  EXPECT_FALSE(
      ParseWorkload(TinyWorkload(1) + "[deletes]\nrange_fraction = 0.6\nrow_fraction = 0.5\n",
                    "range.toml")
          .ok());
}

// --from-data: the workload of an existing table, replayable as it is.
TEST(LabFromDataTest, DerivesTheWorkloadOfATable) {
  auto fs = NewMemFileSystem();
  const int64_t start = 1704067200;  // 2024-01-01T00:00:00Z
  auto clock = std::make_shared<ManualClock>(start * 1'000'000);
  Options options;
  options.file_system = fs;
  options.clock = clock;
  options.scheduler = std::make_shared<ManualScheduler>();
  auto opened = Database::Open(options, "/data");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Database> db = std::move(opened).value();
  CqlSession session(db.get());
  ASSERT_TRUE(session
                  .Execute("CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', "
                           "'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(session
                  .Execute("CREATE TABLE iot.readings (sensor_id text, day date, ts timestamp, "
                           "payload blob, PRIMARY KEY ((sensor_id, day), ts)) WITH "
                           "default_time_to_live = 86400")
                  .ok());
  // 20 sensors, one reading every 5 s for an hour, 30 payload bytes.
  for (int64_t t = 0; t < 3600; t += 5) {
    ASSERT_TRUE(clock->Set((start + t) * 1'000'000).ok());
    for (int s = 0; s < 20; ++s) {
      Mutation m("iot", "readings", {Value::Text("s" + std::to_string(s)), Value::Date(19723)});
      m.Insert({Value::Timestamp((start + t) * 1000)})
          .Set("payload", Value::Blob(std::string(30, 'p')));
      ASSERT_TRUE(db->Apply(m).ok());
    }
  }
  ASSERT_TRUE(db->Flush().ok());
  Result<WorkloadSpec> spec = WorkloadFromTable(db.get(), "iot", "readings");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->identifier_column, "sensor_id");
  EXPECT_EQ(spec->bucket_column, "day");
  EXPECT_EQ(spec->bucket_seconds, 86400);
  EXPECT_EQ(spec->time_column, "ts");
  EXPECT_EQ(spec->payload_column, "payload");
  EXPECT_EQ(spec->identifiers, 20);
  EXPECT_NEAR(spec->interval_seconds, 5, 0.1);
  ASSERT_EQ(spec->ttl_mix.size(), 1u);
  EXPECT_EQ(spec->ttl_mix[0].seconds, 86400);
  EXPECT_NE(spec->create_table_cql.find("default_time_to_live = 86400"), std::string::npos)
      << spec->create_table_cql;

  // It replays: an hour of it through a strategy.
  WorkloadSpec hour = *spec;
  hour.duration_seconds = 3600;
  hour.sample_seconds = 600;
  Result<LabResult> run = RunStrategy(hour, "stcs", ScratchDir("from-data"));
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->writes, 14400u);

  // A table the lab cannot fill is refused with the reason.
  ASSERT_TRUE(session
                  .Execute("CREATE TABLE iot.events (id text, b int, seq bigint, v blob, "
                           "PRIMARY KEY ((id, b), seq))")
                  .ok());
  Mutation e("iot", "events", {Value::Text("a"), Value::Int(1)});
  e.Insert({Value::Bigint(1)}).Set("v", Value::Blob("x"));
  ASSERT_TRUE(db->Apply(e).ok());
  Result<WorkloadSpec> refused = WorkloadFromTable(db.get(), "iot", "events");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("iot.events"), std::string::npos)
      << refused.status().ToString();

  // A tick table clustered by sequence number, its time a regular column:
  // replayed as it is.
  ASSERT_TRUE(session
                  .Execute("CREATE TABLE iot.ticks (symbol text, day date, seq bigint, at "
                           "timestamp, v blob, PRIMARY KEY ((symbol, day), seq))")
                  .ok());
  for (int64_t t = 0; t < 600; t += 2) {
    ASSERT_TRUE(clock->Set((start + 3600 + t) * 1'000'000).ok());
    for (int s = 0; s < 5; ++s) {
      Mutation m("iot", "ticks", {Value::Text("s" + std::to_string(s)), Value::Date(19723)});
      m.Insert({Value::Bigint(t / 2)})
          .Set("at", Value::Timestamp((start + 3600 + t) * 1000))
          .Set("v", Value::Blob(std::string(20, 'p')));
      ASSERT_TRUE(db->Apply(m).ok());
    }
  }
  Result<WorkloadSpec> ticks = WorkloadFromTable(db.get(), "iot", "ticks");
  ASSERT_TRUE(ticks.ok()) << ticks.status().ToString();
  EXPECT_EQ(ticks->sequence_column, "seq");
  EXPECT_EQ(ticks->time_column, "at");
  EXPECT_EQ(ticks->identifiers, 5);
  ticks->duration_seconds = 600;
  ticks->sample_seconds = 300;
  Result<LabResult> tick_run = RunStrategy(*ticks, "lcs", "");
  ASSERT_TRUE(tick_run.ok()) << tick_run.status().ToString();
  EXPECT_GT(tick_run->writes, 0u);
}

TEST(SimulateCommandTest, Arguments) {
  auto settings = ParseSimulateArguments({"w.toml", "--strategy", "stcs", "--strategy", "lcs",
                                          "--duration", "3d", "--seed", "9", "--format", "json"});
  ASSERT_TRUE(settings.ok()) << settings.status().ToString();
  EXPECT_EQ(settings->workload_file, "w.toml");
  EXPECT_EQ(settings->strategies, (std::vector<std::string>{"stcs", "lcs"}));
  EXPECT_EQ(settings->duration_seconds, 259200);
  EXPECT_EQ(settings->seed, 9u);
  EXPECT_TRUE(settings->json);
  EXPECT_EQ(ParseSimulateArguments({}).status().message(),
            "cassette simulate needs a workload file or --from-data DIR ks.table (not both)");
  auto from_data = ParseSimulateArguments({"--from-data", "/data", "iot.readings"});
  ASSERT_TRUE(from_data.ok()) << from_data.status().ToString();
  EXPECT_EQ(from_data->from_data_dir, "/data");
  EXPECT_EQ(from_data->from_data_table, "iot.readings");
  EXPECT_EQ(ParseSimulateArguments({"w.toml", "--jobs", "0"}).status().message(),
            "--jobs takes a number from 1 to 64, not '0'");
  EXPECT_EQ(ParseSimulateArguments({"w.toml", "--jobs", "2"})->jobs, 2u);
  EXPECT_EQ(ParseSimulateArguments({"w.toml", "--duration", "soon"}).status().message(),
            "--duration takes a duration such as 3d, 12h or 90m, not 'soon'");
}

}  // namespace
}  // namespace cassette::tools
