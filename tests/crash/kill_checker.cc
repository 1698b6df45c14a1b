#include "tests/crash/kill_checker.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "tests/crash/crash_state.h"
#include "tests/crash/side_file.h"

namespace cassette::crash {

Result<CommitLogSync> ParseSyncMode(const std::string& name) {
  if (name == "batch") return CommitLogSync::kBatch;
  if (name == "group") return CommitLogSync::kGroup;
  if (name == "periodic") return CommitLogSync::kPeriodic;
  return Status::InvalidArgument("sync mode must be batch, group or periodic: " + name);
}

const char* SyncModeName(CommitLogSync mode) {
  switch (mode) {
    case CommitLogSync::kBatch:
      return "batch";
    case CommitLogSync::kGroup:
      return "group";
    case CommitLogSync::kPeriodic:
      return "periodic";
  }
  return "?";
}

Options CrashOptions(CommitLogSync mode, std::shared_ptr<Clock> clock) {
  Options options;
  options.clock = std::move(clock);
  options.commitlog_sync = mode;
  // Database time moves 10 ms per operation: periodic mode syncs about
  // every 20 operations, group mode's window spans 5.
  options.commitlog_sync_period_ms = 200;
  options.commitlog_sync_group_window_ms = 50;
  options.commitlog_segment_size = 64 << 10;  // the smallest allowed: frequent rolls
  options.max_mutation_size = 32 << 10;
  options.memtable_flush_threshold = 64 << 10;
  options.block_cache_size = 1 << 20;
  options.background_threads = 2;
  options.compaction_threads = 1;
  // scripts/crash-test --log-compression zstd: the worker and the checker
  // both read it, so they open the same log format.
  const char* compression = std::getenv("CASSETTE_CRASH_LOG_COMPRESSION");
  if (compression != nullptr && std::string(compression) == "zstd") {
    options.commitlog_compression = CommitLogCompression::kZstd;
  }
  return options;
}

Result<CheckReport> CheckAfterKill(const std::string& db_dir, const std::string& side_path,
                                   CommitLogSync mode, const Shape& shape) {
  CASSETTE_ASSIGN_OR_RETURN(SideLog log, ReadSideLog(side_path));
  CheckReport report;
  report.acknowledged_writes = log.acknowledged_writes;
  report.in_flight = log.in_flight && log.in_flight->IsWrite();
  CrashModel model;
  for (const auto& [op, applied, acknowledged] : log.done) {
    // An LWT's answer must follow from the writes acknowledged before it
    // (those before an earlier kill included).
    const bool lwt = op.kind == OpKind::kLwtInsert || op.kind == OpKind::kLwtUpdate;
    if (lwt && acknowledged && model.LwtApplies(op) != applied) {
      ++report.wrong_lwt_answers;
      report.detail += "LWT answered [applied] = " + std::string(applied ? "true" : "false") +
                       " where the acknowledged writes say otherwise: " + DescribeOp(op) + "\n";
    }
    model.Apply(op, applied);
  }

  // Read at the in-flight operation's time (its TTLs count from there),
  // or at the next one's.
  const int64_t now = log.in_flight ? log.in_flight->now_micros() : OpMicros(log.next_index);
  auto clock = std::make_shared<ManualClock>(now);
  auto opened = Database::Open(CrashOptions(mode, clock), db_dir);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<Database> db = std::move(opened).value();
  if (!log.schema_ready) {
    // Killed before the schema existed: nothing was written yet.
    report.consistent = true;
    CASSETTE_RETURN_IF_ERROR(db->Close());
    return report;
  }
  CASSETTE_ASSIGN_OR_RETURN(DbState got, ReadState(*db, shape));
  const DbState before = model.Render(shape, now);
  std::vector<const DbState*> candidates = {&before};
  std::vector<const Op*> ops;
  DbState after;
  if (log.in_flight && log.in_flight->IsWrite()) {
    CrashModel with = model;
    with.Apply(*log.in_flight, true);
    after = with.Render(shape, now);
    candidates.push_back(&after);
    ops.push_back(&*log.in_flight);
  }
  const Verdict verdict = Compare(got, candidates, ops);
  report.consistent = verdict.consistent && report.wrong_lwt_answers == 0;
  report.torn_batches = verdict.torn_batches;
  report.differing_partitions = verdict.differing_partitions;
  report.detail += verdict.detail;
  if (log.in_flight) report.detail += "in flight: " + DescribeOp(*log.in_flight) + "\n";
  report.in_flight_applied = report.in_flight && verdict.consistent && verdict.prefix == 1;

  if (log.in_flight) {
    // Settle the in-flight operation so the model is exact again: a plain
    // or batched write is simply applied again (same timestamps, same
    // clock: the same cells); a counter or LWT is as found.
    bool applied = report.in_flight_applied;
    if (log.in_flight->Idempotent()) {
      CqlSession session(db.get());
      bool ignored = false;
      CASSETTE_RETURN_IF_ERROR(ExecuteOp(session, *log.in_flight, &ignored));
      applied = true;
    } else if (!log.in_flight->IsWrite()) {
      applied = true;  // a flush or compaction: nothing to settle
    }
    CASSETTE_RETURN_IF_ERROR(db->Close());
    CASSETTE_ASSIGN_OR_RETURN(SideFile side, SideFile::Open(side_path));
    CASSETTE_RETURN_IF_ERROR(
        side.Append("R " + std::to_string(log.in_flight->index) + " " + (applied ? "1" : "0")));
    return report;
  }
  CASSETTE_RETURN_IF_ERROR(db->Close());
  return report;
}

namespace {

std::string Tail(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() <= bytes ? text : text.substr(text.size() - bytes);
}

// Starts the worker; its stderr goes to `err_path`.
Result<pid_t> SpawnWorker(const KillRunConfig& config, const std::string& db_dir,
                          const std::string& side_path, const std::string& err_path,
                          uint64_t seed) {
  const std::string seed_text = std::to_string(seed);
  const pid_t pid = ::fork();
  if (pid < 0) return Status::IOError(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    const int err = ::open(err_path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (err >= 0) ::dup2(err, 2);
    if (null >= 0) ::dup2(null, 1);
    ::execl(config.worker.c_str(), config.worker.c_str(), "--dir", db_dir.c_str(), "--log",
            side_path.c_str(), "--mode", SyncModeName(config.mode), "--seed", seed_text.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

int64_t FileSize(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<int64_t>(size);
}

// Lets the worker run, then SIGKILLs it: `ms` after it first grows the side
// file (or after its start, when `from_start`). Error when it ended by
// itself (it runs for ever unless something failed) or never got going.
Status KillAfter(pid_t pid, int ms, bool from_start, const std::string& side_path,
                 const std::string& err_path) {
  using Clock = std::chrono::steady_clock;
  const int64_t initial_size = FileSize(side_path);
  const auto started = Clock::now();
  std::optional<Clock::time_point> deadline;
  if (from_start) deadline = started + std::chrono::milliseconds(ms);
  int status = 0;
  while (!deadline || Clock::now() < *deadline) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      return Status::Corruption("worker ended by itself (status " + std::to_string(status) +
                                "): " + Tail(err_path, 2000));
    }
    if (!deadline && FileSize(side_path) > initial_size) {
      deadline = Clock::now() + std::chrono::milliseconds(ms);
    }
    if (!deadline && Clock::now() - started > std::chrono::seconds(60)) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return Status::Corruption("worker wrote nothing in 60 s: " + Tail(err_path, 2000));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
    return Status::Corruption("worker ended by itself (status " + std::to_string(status) +
                              "): " + Tail(err_path, 2000));
  }
  return Status::OK();
}

}  // namespace

KillRunTotals RunKillCycles(const KillRunConfig& config) {
  KillRunTotals totals;
  std::mt19937_64 rng(config.seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(config.mode));
  std::filesystem::create_directories(config.dir);
  uint64_t seed = config.seed;
  int64_t acknowledged_before = 0;  // by earlier databases (after failures)
  int64_t acknowledged_now = 0;
  int cycle_in_db = 0;
  auto paths = [&](uint64_t s) {
    const std::string stem =
        config.dir + "/" + SyncModeName(config.mode) + "-seed" + std::to_string(s);
    return std::array<std::string, 3>{stem + ".db", stem + ".side", stem + ".err"};
  };
  for (int cycle = 0; cycle < config.cycles; ++cycle) {
    const auto [db_dir, side_path, err_path] = paths(seed);
    const bool early = static_cast<int>(rng() % 100) < config.early_kill_pct;
    // An early kill's window is twice as long: it includes the start.
    const int kill_ms =
        (early ? 2 : 1) * static_cast<int>(rng() % static_cast<uint64_t>(config.max_kill_ms + 1));
    std::string failure;
    CheckReport report;
    auto pid = SpawnWorker(config, db_dir, side_path, err_path, seed);
    if (!pid.ok()) {
      failure = pid.status().ToString();
    } else if (Status killed = KillAfter(*pid, kill_ms, early, side_path, err_path); !killed.ok()) {
      failure = killed.ToString();
    } else {
      auto checked = CheckAfterKill(db_dir, side_path, config.mode, Shape());
      if (!checked.ok()) {
        failure = "reopen or check failed: " + checked.status().ToString();
      } else {
        report = std::move(checked).value();
        if (!report.consistent) failure = report.detail;
      }
    }
    ++totals.cycles;
    if (early) ++totals.early_kills;
    ++cycle_in_db;
    totals.writes_checked += report.acknowledged_writes;
    acknowledged_now = std::max(acknowledged_now, report.acknowledged_writes);
    totals.torn_batches += report.torn_batches;
    totals.lost_partitions += report.differing_partitions;
    if (report.in_flight && report.consistent) {
      ++(report.in_flight_applied ? totals.in_flight_applied : totals.in_flight_dropped);
    }
    if (config.verbose) {
      fprintf(stderr,
              "%s seed %llu cycle %d: killed %d ms after its %s, %lld acknowledged writes, %s\n",
              SyncModeName(config.mode), static_cast<unsigned long long>(seed), cycle_in_db,
              kill_ms, early ? "start" : "first write",
              static_cast<long long>(report.acknowledged_writes),
              failure.empty() ? "ok" : "FAILED");
    }
    if (failure.empty()) continue;
    ++totals.failed_cycles;
    totals.failures += std::string(SyncModeName(config.mode)) + " seed " + std::to_string(seed) +
                       " cycle " + std::to_string(cycle_in_db) + " (killed " +
                       std::to_string(kill_ms) + " ms after its " +
                       (early ? "start" : "first write") + "):\n" + failure + "\n";
    if (!config.continue_after_failure) break;
    // Keep the evidence; go on with a fresh database.
    const std::string kept = config.dir + "/failed-" + SyncModeName(config.mode) + "-seed" +
                             std::to_string(seed) + "-cycle" + std::to_string(cycle_in_db);
    std::error_code ec;
    std::filesystem::create_directories(kept, ec);
    std::filesystem::rename(db_dir, kept + "/db", ec);
    std::filesystem::rename(side_path, kept + "/side", ec);
    std::filesystem::rename(err_path, kept + "/err", ec);
    acknowledged_before += acknowledged_now;
    acknowledged_now = 0;
    cycle_in_db = 0;
    seed += 1000;
  }
  totals.acknowledged_writes = acknowledged_before + acknowledged_now;
  return totals;
}

}  // namespace cassette::crash
