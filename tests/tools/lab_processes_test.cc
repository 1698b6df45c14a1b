// The compaction lab's runs in child processes: the same figures as a run
// in this process, progress forwarded to the parent, and a child that
// dies costs its own run only.
#include "tools/lab_processes.h"

#include "tests/tools/lab_test_workload.h"
#include "tools/simulate_command.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace cassette::tools {
namespace {

using lab_test::TinyWorkload;
using lab_test::WithoutWallClock;

std::string ScratchDir(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cassette-processes-test-" + name + "-" + std::to_string(::getpid())))
      .string();
}

WorkloadSpec Tiny(int hours) {
  Result<WorkloadSpec> spec = ParseWorkload(TinyWorkload(hours), "tiny.toml");
  EXPECT_TRUE(spec.ok()) << spec.status().ToString();
  return spec.ok() ? *spec : WorkloadSpec{};
}

// A child run that makes no database: its strategy named in the result,
// `days` progress calls first.
Result<LabResult> QuickRun(const LabJob& job, const LabProgress& progress, int64_t days) {
  for (int64_t day = 1; day <= days; ++day) progress(day, days);
  LabResult result;
  result.strategy = job.strategy;
  result.writes = 42;
  return result;
}

// The determinism promise across processes: a strategy run in a child
// gives the JSON (less the wall clock) it gives run here.
TEST(LabProcessesTest, AChildsFiguresAreThoseOfARunInThisProcess) {
  const WorkloadSpec spec = Tiny(1);
  const std::vector<std::string> strategies = {"stcs", "lcs",
                                               "twcs:compaction_window_unit=MINUTES"};
  std::vector<LabJob> jobs;
  std::vector<LabResult> here;
  for (const std::string& strategy : strategies) {
    jobs.push_back({spec, strategy});
    Result<LabResult> run = RunStrategy(spec, strategy, "");
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    here.push_back(std::move(run).value());
  }
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(jobs, ScratchDir("same"), 2);
  ASSERT_EQ(runs.size(), jobs.size());
  std::vector<LabResult> there;
  for (Result<LabResult>& run : runs) {
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    // The wall-clock figures are the child's own, carried back.
    EXPECT_GT(run->wall_seconds, 0);
    EXPECT_GT(run->simulated_days_per_minute, 0);
    there.push_back(std::move(run).value());
  }
  EXPECT_EQ(WithoutWallClock(SimulateJson(spec, there)),
            WithoutWallClock(SimulateJson(spec, here)));
  EXPECT_FALSE(there[2].windows.empty());  // the TWCS run's windows came too
  // Each child removed its run's directory (the caller removes the parent).
  EXPECT_TRUE(std::filesystem::is_empty(ScratchDir("same")));
  std::filesystem::remove_all(ScratchDir("same"));
}

// Job 1's process is killed: its run is an error naming the strategy and
// the signal, and jobs 0 and 2 still finish (SIGKILL rather than abort()
// keeps ASan's report out of the test's output).
TEST(LabProcessesTest, ACrashedRunIsAnErrorAndTheOthersFinish) {
  const WorkloadSpec spec = Tiny(1);
  const std::vector<LabJob> jobs = {{spec, "stcs"}, {spec, "lcs"}, {spec, "ucs"}};
  const LabChildRun crash_lcs = [](const LabJob& job, const std::string& scratch,
                                   const LabProgress& progress) -> Result<LabResult> {
    if (job.strategy == "lcs") ::raise(SIGKILL);
    return RunStrategy(job.spec, job.strategy, scratch, progress);
  };
  // Two at a time: job 2 starts when job 1's process has died.
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(jobs, "", 2, {}, crash_lcs);
  ASSERT_EQ(runs.size(), 3u);
  ASSERT_TRUE(runs[0].ok()) << runs[0].status().ToString();
  ASSERT_TRUE(runs[2].ok()) << runs[2].status().ToString();
  EXPECT_EQ(runs[0]->strategy, "stcs");
  EXPECT_EQ(runs[2]->strategy, "ucs");
  EXPECT_GT(runs[2]->writes, 0u);
  ASSERT_FALSE(runs[1].ok());
  EXPECT_EQ(runs[1].status().message(), "strategy 'lcs' crashed: signal 9 (Killed)");
}

TEST(LabProcessesTest, AChildThatExitsWithoutItsResultIsAnError) {
  const std::vector<LabJob> jobs = {{{}, "exit3"}, {{}, "exit0"}, {{}, "fine"}};
  const LabChildRun run = [](const LabJob& job, const std::string&,
                             const LabProgress& progress) -> Result<LabResult> {
    if (job.strategy == "exit3") ::_exit(3);
    if (job.strategy == "exit0") ::_exit(0);
    return QuickRun(job, progress, 1);
  };
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(jobs, "", 2, {}, run);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].status().message(), "strategy 'exit3' exited with status 3");
  EXPECT_EQ(runs[1].status().message(),
            "strategy 'exit0' ended without its result (0 bytes of a message cut off)");
  ASSERT_TRUE(runs[2].ok()) << runs[2].status().ToString();
  EXPECT_EQ(runs[2]->writes, 42u);
}

// The write ends of pipes open in this process.
std::set<int> WritablePipes() {
  std::set<int> fds;
  for (int fd = 3; fd < 1024; ++fd) {
    struct stat info;
    if (::fstat(fd, &info) != 0 || !S_ISFIFO(info.st_mode)) continue;
    if ((::fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY) fds.insert(fd);
  }
  return fds;
}

// Pipes the test process had before it started children (ctest's, a
// make jobserver's): never the children's to write to.
std::set<int>& InheritedPipes() {
  static std::set<int> fds;
  return fds;
}

// In a child: writes `bytes` to the pipe to the parent, the one write end
// of a pipe that the test process did not have already.
void WriteToParent(const std::string& bytes) {
  for (int fd : WritablePipes()) {
    if (InheritedPipes().contains(fd)) continue;
    if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) ::_exit(4);
  }
}

// A result message whose bytes do not decode (a result cut short, a kind
// the parent does not know) is an error naming the strategy, not a crash.
TEST(LabProcessesTest, AMessageThatDoesNotDecodeIsAnError) {
  InheritedPipes() = WritablePipes();
  const std::vector<LabJob> jobs = {{{}, "short"}, {{}, "unknown"}, {{}, "fine"}};
  const LabChildRun run = [](const LabJob& job, const std::string&, const LabProgress& progress) {
    // A kind byte, the payload's length as 8 bytes little-endian, the payload.
    if (job.strategy == "short") WriteToParent(std::string("r\3\0\0\0\0\0\0\0abc", 12));
    if (job.strategy == "unknown") WriteToParent(std::string("z\0\0\0\0\0\0\0\0", 9));
    return QuickRun(job, progress, 1);
  };
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(jobs, "", 3, {}, run);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].status().message(),
            "strategy 'short': its result did not decode: lab result of 3 bytes is truncated or "
            "malformed");
  EXPECT_EQ(runs[1].status().message(),
            "strategy 'unknown': its process sent a message of unknown kind 122");
  ASSERT_TRUE(runs[2].ok()) << runs[2].status().ToString();
}

// A run that fails in its child fails with the engine's own error, class
// and message (as tests/tools/simulate_command_test.cc's
// BadStrategyOptionsAreTheEnginesErrors, run here in a child).
TEST(LabProcessesTest, AChildsErrorIsTheRunsError) {
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(
      {{Tiny(1), "twcs:compaction_window_unit=FORTNIGHTS"}}, ScratchDir("bad"), 1);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_FALSE(runs[0].ok());
  Result<LabResult> here =
      RunStrategy(Tiny(1), "twcs:compaction_window_unit=FORTNIGHTS", ScratchDir("bad"));
  ASSERT_FALSE(here.ok());
  EXPECT_EQ(runs[0].status(), here.status());
  EXPECT_NE(runs[0].status().message().find("FORTNIGHTS"), std::string::npos);
  std::filesystem::remove_all(ScratchDir("bad"));
}

// Each child's days done reach the parent's callback, with its job's
// index, in order.
TEST(LabProcessesTest, ProgressReachesTheParent) {
  const std::vector<LabJob> jobs = {{{}, "a"}, {{}, "b"}, {{}, "c"}};
  const LabChildRun run = [](const LabJob& job, const std::string&, const LabProgress& progress) {
    return QuickRun(job, progress, job.strategy == "b" ? 5 : 2);
  };
  std::map<size_t, std::vector<std::pair<int64_t, int64_t>>> seen;
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(
      jobs, "", 2,
      [&](size_t index, int64_t day, int64_t days) { seen[index].emplace_back(day, days); }, run);
  for (const Result<LabResult>& r : runs) ASSERT_TRUE(r.ok()) << r.status().ToString();
  using Days = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(seen[0], (Days{{1, 2}, {2, 2}}));
  EXPECT_EQ(seen[1], (Days{{1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}}));
  EXPECT_EQ(seen[2], (Days{{1, 2}, {2, 2}}));
  EXPECT_EQ(runs[1]->strategy, "b");
}

// A result far larger than a pipe's buffer arrives whole.
TEST(LabProcessesTest, ALargeResultArrivesWhole) {
  const LabChildRun run = [](const LabJob& job, const std::string&,
                             const LabProgress&) -> Result<LabResult> {
    LabResult result;
    result.strategy = job.strategy;
    for (int64_t second = 0; second < 200000; ++second) {
      result.series.push_back({second, static_cast<uint64_t>(second) * 3, second % 17,
                               static_cast<double>(second) / 7, 1.5, 9});
    }
    return result;
  };
  std::vector<Result<LabResult>> runs =
      RunLabJobsInProcesses({{{}, "big"}, {{}, "bigger"}}, "", 2, {}, run);
  ASSERT_EQ(runs.size(), 2u);
  for (const Result<LabResult>& r : runs) {
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->series.size(), 200000u);
    EXPECT_EQ(r->series[199999].disk_bytes, 599997u);
    EXPECT_EQ(r->series[70000].write_amplification, 10000.0);
  }
  EXPECT_EQ(runs[1]->strategy, "bigger");
}

// `cassette simulate` runs each strategy in a process: a run that fails
// is named on standard error and the exit status is 1, and the others'
// figures are still shown, the same as a run in this process gives.
TEST(LabProcessesTest, SimulateShowsTheRunsThatDidNotFail) {
  const std::string file = ScratchDir("workload") + ".toml";
  { std::ofstream(file) << TinyWorkload(1); }
  Result<SimulateSettings> settings = ParseSimulateArguments(
      {file, "--strategy", "stcs", "--strategy", "twcs:compaction_window_unit=FORTNIGHTS",
       "--format", "json", "--jobs", "2"});
  ASSERT_TRUE(settings.ok()) << settings.status().ToString();
  std::ostringstream out, err;
  EXPECT_EQ(RunSimulateCommand(*settings, out, err), 1);
  std::filesystem::remove(file);
  EXPECT_NE(err.str().find("cassette simulate: twcs:compaction_window_unit=FORTNIGHTS: "),
            std::string::npos)
      << err.str();
  const WorkloadSpec spec = Tiny(1);
  Result<LabResult> here = RunStrategy(spec, "stcs", "");
  ASSERT_TRUE(here.ok()) << here.status().ToString();
  EXPECT_EQ(WithoutWallClock(out.str()), WithoutWallClock(SimulateJson(spec, {*here})));
}

}  // namespace
}  // namespace cassette::tools
