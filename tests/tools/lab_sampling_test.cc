// The compaction lab's sampling mode (tools/lab_sampling.h) and the check
// that the lab's write amplification is the engine's own (`cassette stats`
// on the run's data says the same).
#include "tools/lab_sampling.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/tools/lab_test_workload.h"
#include "tools/lab_figures.h"
#include "tools/simulate_command.h"
#include "tools/stats_command.h"

namespace cassette::tools {
namespace {

// 20 sensors, a reading every 2 s, kept 1 hour, replayed for `minutes`.
WorkloadSpec SmallWorkload(int minutes) {
  Result<WorkloadSpec> spec = ParseWorkload(lab_test::TableToml() + R"(
[writes]
identifiers = 20
interval_seconds = 2
row_bytes = 40

[reads]
interval_seconds = 5
newest_fraction = 1

[run]
duration = ")" + std::to_string(minutes) + R"(m"
sample_every = "10m"
memtable_bytes = 131072
)",
                                            "small.toml");
  EXPECT_TRUE(spec.ok()) << spec.status().ToString();
  return spec.ok() ? *spec : WorkloadSpec{};
}

std::string ScratchDir(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cassette-sampling-test-" + name + "-" + std::to_string(::getpid())))
      .string();
}

TEST(LabSamplingTest, SampledWorkloadScalesWhatFollowsTheData) {
  WorkloadSpec spec = SmallWorkload(10);
  double applied = 0;
  const WorkloadSpec s = SampledWorkload(spec, 0.12, &applied);
  EXPECT_EQ(s.identifiers, 2);  // round(20 * 0.12)
  EXPECT_DOUBLE_EQ(applied, 0.1);
  EXPECT_EQ(s.memtable_bytes, 13107u);
  EXPECT_DOUBLE_EQ(s.read_interval_seconds, 50);
  EXPECT_DOUBLE_EQ(s.size_scale, 0.1);
  EXPECT_EQ(s.sample, 1);
  // Never below one identifier or the smallest memtable the file allows.
  const WorkloadSpec tiny = SampledWorkload(spec, 0.0001, &applied);
  EXPECT_EQ(tiny.identifiers, 1);
  EXPECT_DOUBLE_EQ(applied, 0.05);
  EXPECT_EQ(tiny.memtable_bytes, 6554u);
  spec.memtable_bytes = 4096;
  EXPECT_EQ(SampledWorkload(spec, 0.5, &applied).memtable_bytes, 4096u);
}

TEST(LabSamplingTest, StrategySizesScaleFromTheGivenValueOrTheDefault) {
  std::string what;
  auto scaled = [&](const std::string& spec, double scale) {
    what.clear();
    Result<std::map<std::string, std::string>> map = ParseStrategySpec(spec);
    EXPECT_TRUE(map.ok());
    return ScaleStrategySizes(*map, scale, &what);
  };
  EXPECT_EQ(scaled("stcs", 0.1).at("min_sstable_size"), "5242880");  // 50 MiB default
  EXPECT_EQ(what, "min_sstable_size=5242880");
  EXPECT_EQ(scaled("stcs:min_sstable_size=1000", 0.5).at("min_sstable_size"), "500");
  EXPECT_EQ(scaled("twcs:compaction_window_unit=HOURS", 0.1).at("min_sstable_size"), "5242880");
  EXPECT_EQ(scaled("lcs", 0.1).at("sstable_size_in_mb"), "16");  // 160 MB default
  EXPECT_EQ(scaled("lcs:sstable_size_in_mb=5", 0.01).at("sstable_size_in_mb"), "1");  // floor
  const auto ucs = scaled("ucs:scaling_parameters=T4", 0.1);
  EXPECT_EQ(ucs.at("target_sstable_size"), "107374182B");  // 1 GiB default
  EXPECT_EQ(ucs.at("min_sstable_size"), "10485760B");      // 100 MiB default
  EXPECT_EQ(ucs.count("flush_size_override"), 0u);
  EXPECT_EQ(ucs.at("scaling_parameters"), "T4");
  EXPECT_EQ(scaled("ucs:target_sstable_size=4MiB", 0.1).at("target_sstable_size"),
            "1048576B");  // UCS's floor
  // What does not parse is left for the engine to refuse with its message.
  EXPECT_EQ(scaled("stcs:min_sstable_size=big", 0.1).at("min_sstable_size"), "big");
  EXPECT_EQ(scaled("lcs", 1).count("sstable_size_in_mb"), 0u);
  EXPECT_TRUE(what.empty());
}

TEST(LabSamplingTest, CompareGivesRelativeErrorsAndNoneWithoutAFullValue) {
  LabResult full, sampled;
  full.strategy = "stcs";
  full.write_amplification = 2;
  sampled.write_amplification = 2.5;
  sampled.expired_bytes_dropped_whole = 10;  // full has 0: no ratio
  const SamplingCheck check = CompareSampledRun(full, sampled);
  EXPECT_EQ(check.strategy, "stcs");
  int seen = 0;
  for (const SamplingError& e : check.errors) {
    if (e.figure == "write_amplification") {
      ++seen;
      EXPECT_TRUE(e.has_relative);
      EXPECT_DOUBLE_EQ(e.relative, 0.25);
    } else if (e.figure == "expired_bytes_dropped_whole") {
      ++seen;
      EXPECT_FALSE(e.has_relative);
    } else if (e.figure == "space_amplification") {
      ++seen;
      EXPECT_TRUE(e.has_relative);  // 0 and 0
      EXPECT_EQ(e.relative, 0);
    }
  }
  EXPECT_EQ(seen, 3);
  LabSampling sampling;
  sampling.fraction = 0.1;
  sampling.identifiers = 1000;
  sampling.sampled_identifiers = 100;
  sampling.check_seconds = 86400;
  sampling.check_identifiers = 100;
  sampling.checks = {check};
  EXPECT_NE(SamplingText(sampling).find("stcs: write_amplification 25.0%"), std::string::npos)
      << SamplingText(sampling);
  EXPECT_NE(SamplingJson(sampling).find(
                "\"write_amplification\":{\"full\":2,\"sampled\":2.5,\"relative\":0.25}"),
            std::string::npos)
      << SamplingJson(sampling);
  EXPECT_NE(SamplingJson(sampling).find("\"relative\":null"), std::string::npos);
  EXPECT_NE(SamplingHtml(sampling).find("<td title=\"full 2.000, sampled 2.500\">25.0%</td>"),
            std::string::npos)
      << SamplingHtml(sampling);
}

// A sampled run is the run of the sampled workload, its byte figures and
// counts scaled back up.
TEST(LabSamplingTest, ASampledRunIsTheSmallRunScaledBack) {
  WorkloadSpec spec = SmallWorkload(30);
  spec.sample = 0.5;
  Result<LabResult> sampled = RunStrategy(spec, "stcs", "");
  ASSERT_TRUE(sampled.ok()) << sampled.status().ToString();
  double applied = 0;
  Result<LabResult> small = RunStrategy(SampledWorkload(spec, 0.5, &applied), "stcs", "");
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(sampled->writes, 2 * small->writes);
  EXPECT_EQ(sampled->user_bytes, 2 * small->user_bytes);
  EXPECT_EQ(sampled->peak_disk_bytes, 2 * small->peak_disk_bytes);
  EXPECT_EQ(sampled->write_amplification, small->write_amplification);
  EXPECT_EQ(sampled->sstable_count, small->sstable_count);
  ASSERT_EQ(sampled->series.size(), small->series.size());
  EXPECT_EQ(sampled->series.back().disk_bytes, 2 * small->series.back().disk_bytes);
  ASSERT_FALSE(sampled->notes.empty());
  EXPECT_EQ(sampled->notes[0],
            "sampled: 10 of 20 identifiers; byte figures and counts scaled back x2");
}

// UCS without flush_size_override sizes its levels from the flush size it
// observes, rounded to whole MiB: a sampled run says it cannot scale that.
TEST(LabSamplingTest, ASampledUcsRunWithoutAFlushSizeSaysItIsLessExact) {
  WorkloadSpec spec = SmallWorkload(30);
  spec.sample = 0.5;
  auto has_note = [](const LabResult& r) {
    return std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& note) {
      return note.find("flush_size_override") != std::string::npos &&
             note.find("whole MiB") != std::string::npos;
    });
  };
  Result<LabResult> plain = RunStrategy(spec, "ucs", "");
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_TRUE(has_note(*plain));
  Result<LabResult> sized = RunStrategy(spec, "ucs:flush_size_override=4MiB", "");
  ASSERT_TRUE(sized.ok()) << sized.status().ToString();
  EXPECT_FALSE(has_note(*sized));
  spec.sample = 1;
  Result<LabResult> full = RunStrategy(spec, "ucs", "");
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  EXPECT_FALSE(has_note(*full)) << "a full run is what it is";
}

// `cassette simulate --sample` runs the check and prints what it measured.
TEST(LabSamplingTest, SimulatePrintsTheMeasuredError) {
  const std::string dir = ScratchDir("cmd");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/w.toml";
  {
    std::ofstream out(file);
    out << R"(
[table]
cql = """CREATE TABLE lab.r (id text, day date, ts timestamp, payload blob,
         PRIMARY KEY ((id, day), ts)) WITH default_time_to_live = 3600"""
identifier_column = "id"
bucket_column = "day"
time_column = "ts"
payload_column = "payload"
[writes]
identifiers = 20
interval_seconds = 2
[run]
duration = "20m"
sample_every = "10m"
memtable_bytes = 131072
sample = 0.5
sample_check = "10m"
strategies = ["stcs"]
)";
  }
  Result<SimulateSettings> settings = ParseSimulateArguments({file, "--format", "json"});
  ASSERT_TRUE(settings.ok()) << settings.status().ToString();
  std::ostringstream out, err;
  ASSERT_EQ(RunSimulateCommand(*settings, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("\"sampling\":{\"fraction\":0.5,\"identifiers\":20,"
                           "\"sampled_identifiers\":10,\"check\":{\"seconds\":600,"
                           "\"identifiers\":10,\"errors\":{\"stcs\":{\"write_amplification\":"),
            std::string::npos)
      << out.str();
  settings = ParseSimulateArguments({file, "--sample", "1"});
  ASSERT_TRUE(settings.ok());
  std::ostringstream whole, whole_err;
  ASSERT_EQ(RunSimulateCommand(*settings, whole, whole_err), 0) << whole_err.str();
  EXPECT_EQ(whole.str().find("sampled"), std::string::npos) << whole.str();
  EXPECT_FALSE(ParseSimulateArguments({file, "--sample", "0"}).ok());
  EXPECT_FALSE(ParseSimulateArguments({file, "--sample", "1.5"}).ok());
  EXPECT_FALSE(ParseSimulateArguments({file, "--sample-check", "soon"}).ok());
  std::filesystem::remove_all(dir);
}

// The lab's write amplification is the engine's: `cassette stats` on the
// run's data directory reports the same figure for the table.
TEST(LabHonestyTest, WriteAmplificationIsWhatCassetteStatsReports) {
  const WorkloadSpec spec = SmallWorkload(30);
  const std::string dir = ScratchDir("stats");
  Result<LabResult> run = RunStrategy(spec, "stcs:min_threshold=2", dir, {}, /*keep_files=*/true);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_GT(run->write_amplification, 1);
  StatsSettings settings;
  settings.data_dir = dir + "/data";
  settings.format = OutputFormat::kJson;
  settings.table = "lab.r";
  std::ostringstream out, err;
  ASSERT_EQ(RunStatsCommand(settings, NewPosixFileSystem(), out, err), 0) << err.str();
  EXPECT_NE(out.str().find("\"write_amplification\":" + Exact(run->write_amplification)),
            std::string::npos)
      << out.str() << " lab: " << Exact(run->write_amplification);
  EXPECT_NE(out.str().find("\"bytes_written_by_users\":" + std::to_string(run->user_bytes)),
            std::string::npos)
      << out.str();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cassette::tools
