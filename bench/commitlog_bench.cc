// Commit log append throughput: 1 KiB records in periodic mode (the
// default: acknowledged once in the OS, fsynced every sync_period_ms) on the
// POSIX file system in a fresh temporary directory. Reports bytes/s and
// records/s (items_processed). Also a batch-mode run with 1 and 4 threads,
// where every Append waits for an fsync and concurrent appenders share
// them (group commit): its records/s show what group commit buys.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <system_error>

#include "cassette/clock.h"
#include "cassette/file_system.h"
#include "engine/commitlog/commit_log.h"

namespace cassette {
namespace {

std::string MakeTempDir() {
  static int counter = 0;
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("cassette-commitlog-bench-" + std::to_string(std::random_device{}()) + "-" +
       std::to_string(counter++));
  std::filesystem::create_directories(dir);
  return dir.string();
}

// One log shared by the benchmark's threads; thread 0 opens and closes it
// (the benchmark loop starts and ends with a barrier across threads).
struct SharedLog {
  std::shared_ptr<FileSystem> fs = NewPosixFileSystem();
  std::string dir;
  std::unique_ptr<CommitLog> log;
};
SharedLog g_shared;

void AppendRecords(benchmark::State& state, CommitLogSync sync) {
  if (state.thread_index() == 0) {
    g_shared.dir = MakeTempDir();
    CommitLogOptions o;
    o.dir = g_shared.dir;
    o.sync = sync;
    o.background_sync = sync == CommitLogSync::kPeriodic;
    auto log = CommitLog::Open(g_shared.fs.get(), SystemClock().get(), o, 1);
    if (!log.ok()) {
      state.SkipWithError(log.status().ToString().c_str());
      return;
    }
    g_shared.log = std::move(log).value();
  }
  const std::string record(static_cast<size_t>(state.range(0)), 'r');
  for (auto _ : state) {
    if (g_shared.log == nullptr) break;
    auto pos = g_shared.log->Append(record);
    if (!pos.ok()) {
      state.SkipWithError(pos.status().ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
  if (state.thread_index() == 0 && g_shared.log != nullptr) {
    state.counters["fsyncs"] = static_cast<double>(g_shared.log->sync_count());
    g_shared.log->Close().IgnoreError();
    g_shared.log.reset();
    std::error_code ec;
    std::filesystem::remove_all(g_shared.dir, ec);
  }
}

void BM_AppendPeriodic(benchmark::State& state) { AppendRecords(state, CommitLogSync::kPeriodic); }
void BM_AppendBatch(benchmark::State& state) { AppendRecords(state, CommitLogSync::kBatch); }

BENCHMARK(BM_AppendPeriodic)->Arg(1024);
BENCHMARK(BM_AppendBatch)->Arg(1024)->Threads(1)->Threads(4)->UseRealTime();

}  // namespace
}  // namespace cassette
