// cassette-bench: the workloads of docs/BENCHMARKS.md on
// cassette (typed API and prepared CQL) and on the peers CMake found
// (RocksDB, LevelDB), back to back in one run, each engine in its own
// fresh directory under --dir; prints one table of medians and writes the
// same as JSON. docs/BENCHMARKS.md describes the figures.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/driver/bench_engine.h"
#include "bench/driver/isolated_run.h"
#include "bench/driver/machine_limits.h"
#include "bench/driver/report.h"
#include "bench/driver/retention_workload.h"
#include "bench/driver/workload_runner.h"

namespace cassette::bench {
namespace {

constexpr const char* kUsage =
    "usage: cassette-bench [--scale X] [--reps N] [--engines a,b,...] [--dir DIR]\n"
    "                      [--json FILE] [--growth 1,4,16] [--workloads w1-w4,w5]\n"
    "                      [--log-compression none|zstd] [--no-limits] [--keep]\n"
    "  --scale X    shrink (or grow) every workload: rows, sensors and queries (default 1:\n"
    "               20 M rows of 1,000 sensors); W5 keeps its 50 sensors and 7 days and\n"
    "               reads every round(1/X) seconds\n"
    "  --reps N     repetitions; figures are medians (default 3)\n"
    "  --engines    any of cassette, cassette-cql, rocksdb, leveldb (default: all built in)\n"
    "  --dir DIR    where each engine gets a fresh directory (default ./cassette-bench-data)\n"
    "  --json FILE  the results as JSON (default cassette-bench.json)\n"
    "  --growth L   also run W1 and W2 with the rows multiplied by each factor of L\n"
    "               (same sensors, longer simulated time): cost as the work grows\n"
    "  --workloads  w1-w4 (W1, W1-nolog, W2, W3, W4, space and the grown runs) and/or\n"
    "               w5 (retention); default both\n"
    "  --log-compression  cassette's commitlog_compression (default none); the peers'\n"
    "               logs keep their defaults\n"
    "  --no-limits  skip measuring the machine's disk, memcpy and zstd speeds\n"
    "  --keep       keep the engines' directories\n";

struct Flags {
  double scale = 1;
  int reps = 3;
  std::vector<std::string> engines;
  std::vector<int> growth = {1};
  bool base = true;       // W1-W4, space and the grown runs
  bool retention = true;  // W5
  std::string dir = "cassette-bench-data";
  std::string json = "cassette-bench.json";
  bool limits = true;
  bool keep = false;
  bool log_compression = false;
};

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--no-limits") {
      flags->limits = false;
    } else if (arg == "--keep") {
      flags->keep = true;
    } else if (arg == "--scale" || arg == "--reps" || arg == "--engines" || arg == "--dir" ||
               arg == "--json" || arg == "--growth" || arg == "--workloads" ||
               arg == "--log-compression") {
      const char* v = value();
      if (v == nullptr) {
        *error = arg + " needs a value";
        return false;
      }
      char* end = nullptr;
      if (arg == "--scale") {
        flags->scale = std::strtod(v, &end);
        if (*end != '\0' || !(flags->scale > 0)) {
          *error = "--scale needs a positive number";
          return false;
        }
      } else if (arg == "--reps") {
        flags->reps = static_cast<int>(std::strtol(v, &end, 10));
        if (*end != '\0' || flags->reps < 1) {
          *error = "--reps needs a positive integer";
          return false;
        }
      } else if (arg == "--engines") {
        flags->engines = SplitCommas(v);
      } else if (arg == "--growth") {
        flags->growth.clear();
        for (const std::string& factor : SplitCommas(v)) {
          const long g = std::strtol(factor.c_str(), &end, 10);
          if (*end != '\0' || g < 1 || g > 1000) {
            *error = "--growth needs factors from 1 to 1000, e.g. 1,4,16";
            return false;
          }
          flags->growth.push_back(static_cast<int>(g));
        }
        if (flags->growth.empty()) {
          *error = "--growth needs at least one factor";
          return false;
        }
      } else if (arg == "--workloads") {
        flags->base = false;
        flags->retention = false;
        for (const std::string& w : SplitCommas(v)) {
          if (w == "w1-w4" || w == "W1-W4") {
            flags->base = true;
          } else if (w == "w5" || w == "W5") {
            flags->retention = true;
          } else {
            *error = "--workloads takes w1-w4 and w5, not " + w;
            return false;
          }
        }
        if (!flags->base && !flags->retention) {
          *error = "--workloads needs w1-w4, w5 or both";
          return false;
        }
      } else if (arg == "--log-compression") {
        if (std::string(v) != "none" && std::string(v) != "zstd") {
          *error = "--log-compression takes none or zstd";
          return false;
        }
        flags->log_compression = std::string(v) == "zstd";
      } else if (arg == "--dir") {
        flags->dir = v;
      } else {
        flags->json = v;
      }
    } else {
      *error = "unknown argument " + arg;
      return false;
    }
  }
  return true;
}

std::unique_ptr<BenchEngine> NewEngine(const std::string& name) {
  if (name == "cassette") return NewCassetteApiEngine();
  if (name == "cassette-cql") return NewCassetteCqlEngine();
  if (name == "rocksdb") return NewRocksDbEngine();
  if (name == "leveldb") return NewLevelDbEngine();
  return nullptr;
}

std::string Today() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
  return buf;
}

// A fresh, empty directory.
Status FreshDirectory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IOError("cannot create " + dir + ": " + ec.message());
  return Status::OK();
}

int Run(const Flags& flags) {
  std::vector<std::string> names = flags.engines;
  if (names.empty()) names = {"cassette", "cassette-cql", "rocksdb", "leveldb"};
  ReportContext context;
  context.plan = ScaledPlan(flags.scale);
  context.retention = ScaledRetentionPlan(flags.scale);
  context.plan.log_compression = flags.log_compression;
  context.retention.log_compression = flags.log_compression;
  context.base = flags.base;
  context.w5 = flags.retention;
  context.scale = flags.scale;
  context.repetitions = flags.reps;
  context.growth.clear();
  for (int g : flags.growth)
    context.growth += (context.growth.empty() ? "" : ",") + std::to_string(g);
  context.date = Today();
  for (const std::string& name : names) {
    std::unique_ptr<BenchEngine> engine = NewEngine(name);
    if (engine == nullptr) {
      if (name == "rocksdb" || name == "leveldb") {
        std::cerr << "cassette-bench: " << name << " was not found at build time: skipped\n";
        continue;
      }
      std::cerr << "cassette-bench: unknown engine " << name << "\n";
      return 2;
    }
    context.engines.push_back(name);
    if (name != "cassette" && name != "cassette-cql") context.peers.push_back(name);
    // W5 runs RocksDB twice (leveled with a filter, FIFO): a column each.
    if (name == "rocksdb" && flags.retention) {
      context.engines.push_back("rocksdb-fifo");
      context.peers.push_back("rocksdb-fifo");
    }
  }
  const Status made = FreshDirectory(flags.dir);
  if (!made.ok()) {
    std::cerr << "cassette-bench: " << made.ToString() << "\n";
    return 1;
  }

  MachineLimits limits;
  if (flags.limits) {
    std::cerr << "measuring the machine's limits...\n";
    Result<MachineLimits> measured = MeasureMachineLimits(flags.dir, flags.scale);
    if (!measured.ok()) {
      std::cerr << "cassette-bench: " << measured.status().ToString() << "\n";
      return 1;
    }
    limits = *measured;
    context.limits = &limits;
  }

  std::vector<WorkloadResult> runs;
  context.descriptions.assign(context.engines.size(), "");
  // Each repetition runs every engine at every growth factor (the log-off
  // ingest only at the base size), so drift over the run hits all alike.
  struct Pass {
    int growth;
    bool log;
  };
  std::vector<Pass> passes;
  for (int g : flags.growth) {
    if (!flags.base) break;
    passes.push_back({g, true});
    if (g == 1) passes.push_back({g, false});
  }
  for (int rep = 0; rep < flags.reps; ++rep) {
    for (size_t e = 0; e < context.engines.size(); ++e) {
      const std::string& name = context.engines[e];
      if (name == "rocksdb-fifo") continue;  // a W5 variant of "rocksdb", run below
      for (const Pass& pass : passes) {
        const bool log = pass.log;
        RunPlan plan = context.plan;
        plan.rows *= pass.growth;
        plan.growth = pass.growth;
        const std::string dir = flags.dir + "/" + name + (log ? "" : "-nolog");
        std::cerr << "rep " << rep + 1 << "/" << flags.reps << ": " << name
                  << (log ? "" : " (log off)")
                  << (pass.growth == 1 ? "" : " rows x" + std::to_string(pass.growth)) << "...\n";
        const double disk_mb_per_s = context.limits != nullptr ? limits.disk_write_mb_per_s : 0;
        Result<EngineRun> run = RunIsolated([&]() -> Result<EngineRun> {
          CASSETTE_RETURN_IF_ERROR(FreshDirectory(dir));
          std::unique_ptr<BenchEngine> engine = NewEngine(name);
          EngineRun out;
          CASSETTE_ASSIGN_OR_RETURN(out.results,
                                    RunWorkloads(engine.get(), plan, dir, log, disk_mb_per_s));
          out.description = engine->description();
          return out;
        });
        if (!run.ok()) {
          std::cerr << "cassette-bench: " << name << ": " << run.status().ToString() << "\n";
          return 1;
        }
        if (log && pass.growth == 1) context.descriptions[e] = run->description;
        runs.insert(runs.end(), run->results.begin(), run->results.end());
        if (!flags.keep) {
          std::error_code ec;
          std::filesystem::remove_all(dir, ec);
        }
      }
    }
    if (!flags.retention) continue;
    for (size_t e = 0; e < context.engines.size(); ++e) {
      const std::string& column = context.engines[e];
      const bool fifo = column == "rocksdb-fifo";
      const std::string name = fifo ? "rocksdb" : column;
      const std::string dir = flags.dir + "/" + column + "-w5";
      std::cerr << "rep " << rep + 1 << "/" << flags.reps << ": " << column << " W5...\n";
      Result<EngineRun> run = RunIsolated([&]() -> Result<EngineRun> {
        CASSETTE_RETURN_IF_ERROR(FreshDirectory(dir));
        std::unique_ptr<BenchEngine> engine = NewEngine(name);
        EngineRun out;
        CASSETTE_ASSIGN_OR_RETURN(
            WorkloadResult result,
            RunRetention(engine.get(), context.retention, dir, fifo, &out.description));
        out.results.push_back(std::move(result));
        return out;
      });
      if (!run.ok()) {
        std::cerr << "cassette-bench: " << column << " W5: " << run.status().ToString() << "\n";
        return 1;
      }
      if (context.descriptions[e].empty()) context.descriptions[e] = run->description;
      runs.insert(runs.end(), run->results.begin(), run->results.end());
      if (!flags.keep) {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
      }
    }
  }

  const std::vector<WorkloadResult> medians = Medians(runs);
  std::cout << FormatTable(medians, context);
  std::ofstream json(flags.json);
  json << FormatJson(medians, context);
  if (!json) {
    std::cerr << "cassette-bench: cannot write " << flags.json << "\n";
    return 1;
  }
  std::cout << "JSON: " << flags.json << "\n";
  return 0;
}

}  // namespace
}  // namespace cassette::bench

int main(int argc, char** argv) {
  cassette::bench::Flags flags;
  std::string error;
  if (!cassette::bench::ParseFlags(argc, argv, &flags, &error)) {
    std::cerr << "cassette-bench: " << error << "\n" << cassette::bench::kUsage;
    return 2;
  }
  return cassette::bench::Run(flags);
}
