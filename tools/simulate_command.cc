#include "tools/simulate_command.h"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/types/type_codec.h"
#include "tools/lab_figures.h"
#include "tools/lab_from_data.h"
#include "tools/lab_processes.h"
#include "tools/lab_report.h"

namespace cassette::tools {
namespace {

size_t DefaultJobs() { return std::max(1u, std::thread::hardware_concurrency()); }

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// The workload of --from-data: the table read through a read-only view
// (beside a process holding the directory, as `cassette stats`).
Result<WorkloadSpec> WorkloadFromData(const SimulateSettings& settings) {
  const std::string& name = settings.from_data_table;
  const size_t dot = name.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) {
    return Status::InvalidArgument("--from-data needs DIR and keyspace.table, not '" + name + "'");
  }
  Options options;
  options.read_only = true;
  options.create_if_missing = false;
  options.disk_failure_policy = DiskFailurePolicy::kStop;
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<Database> db,
                            Database::Open(options, settings.from_data_dir));
  Result<WorkloadSpec> spec =
      WorkloadFromTable(db.get(), name.substr(0, dot), name.substr(dot + 1));
  db->Close().IgnoreError();
  return spec;
}

}  // namespace

const std::vector<std::string>& DefaultLabStrategies() {
  static const std::vector<std::string> strategies = {
      "twcs:compaction_window_unit=DAYS,compaction_window_size=1", "stcs", "lcs",
      "ucs:scaling_parameters=T4"};
  return strategies;
}

Result<SimulateSettings> ParseSimulateArguments(const std::vector<std::string>& args) {
  SimulateSettings settings;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    auto value = [&]() -> Result<std::string> {
      if (i + 1 >= args.size()) return Status::InvalidArgument(flag + " needs a value");
      return args[++i];
    };
    if (flag == "--strategy") {
      CASSETTE_ASSIGN_OR_RETURN(std::string spec, value());
      settings.strategies.push_back(spec);
    } else if (flag == "--duration") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      Result<int64_t> seconds = ParseDuration(text);
      if (!seconds.ok() || *seconds <= 0) {
        return Status::InvalidArgument("--duration takes a duration such as 3d, 12h or 90m, not '" +
                                       text + "'");
      }
      settings.duration_seconds = *seconds;
    } else if (flag == "--seed") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      uint64_t seed = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
      if (error != std::errc() || end != text.data() + text.size()) {
        return Status::InvalidArgument("--seed takes a non-negative integer, not '" + text + "'");
      }
      settings.seed_set = true;
      settings.seed = seed;
    } else if (flag == "--format") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      if (text != "table" && text != "json") {
        return Status::InvalidArgument("--format must be table or json, not '" + text + "'");
      }
      settings.json = text == "json";
    } else if (flag == "--csv") {
      CASSETTE_ASSIGN_OR_RETURN(settings.csv_file, value());
    } else if (flag == "--report") {
      CASSETTE_ASSIGN_OR_RETURN(settings.report_file, value());
    } else if (flag == "--jobs") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      size_t jobs = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), jobs);
      if (error != std::errc() || end != text.data() + text.size() || jobs < 1 || jobs > 64) {
        return Status::InvalidArgument("--jobs takes a number from 1 to 64, not '" + text + "'");
      }
      settings.jobs = jobs;
    } else if (flag == "--from-data") {
      CASSETTE_ASSIGN_OR_RETURN(settings.from_data_dir, value());
      CASSETTE_ASSIGN_OR_RETURN(settings.from_data_table, value());
    } else if (flag == "--sample") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      double fraction = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), fraction);
      if (error != std::errc() || end != text.data() + text.size() || !(fraction > 0) ||
          fraction > 1) {
        return Status::InvalidArgument("--sample takes a fraction in (0, 1], not '" + text + "'");
      }
      settings.sample = fraction;
    } else if (flag == "--sample-check") {
      CASSETTE_ASSIGN_OR_RETURN(std::string text, value());
      Result<int64_t> seconds = ParseDuration(text);
      if (!seconds.ok() || *seconds <= 0) {
        return Status::InvalidArgument(
            "--sample-check takes a duration such as 3d, 12h or 90m, not '" + text + "'");
      }
      settings.sample_check_seconds = *seconds;
    } else if (flag == "--scratch") {
      CASSETTE_ASSIGN_OR_RETURN(settings.scratch_dir, value());
    } else if (!flag.empty() && flag[0] != '-' && settings.workload_file.empty()) {
      settings.workload_file = flag;
    } else {
      return Status::InvalidArgument("unknown argument to cassette simulate: '" + flag + "'");
    }
  }
  if (settings.workload_file.empty() == settings.from_data_dir.empty()) {
    return Status::InvalidArgument(
        "cassette simulate needs a workload file or --from-data DIR ks.table (not both)");
  }
  return settings;
}

std::string SimulateTable(const WorkloadSpec& spec, const std::vector<LabResult>& results,
                          const LabSampling* sampling) {
  std::string out = spec.keyspace + "." + spec.table + ", " + DurationText(spec.duration_seconds) +
                    " simulated, " + std::to_string(spec.identifiers) + " identifiers, seed " +
                    std::to_string(spec.seed) + "\n";
  if (results.empty()) return out;
  const std::vector<LabFigure> figures = LabFigures();
  size_t label_width = 0;
  for (const LabFigure& f : figures) {
    label_width = std::max(label_width, std::string(f.label).size());
  }
  std::vector<size_t> widths;
  for (const LabResult& r : results) widths.push_back(std::max<size_t>(12, r.strategy.size()) + 2);
  out += Pad("", label_width + 2);
  for (size_t i = 0; i < results.size(); ++i) out += Pad(results[i].strategy, widths[i]);
  out += "\n";
  for (const LabFigure& f : figures) {
    out += Pad(f.label, label_width + 2);
    for (size_t i = 0; i < results.size(); ++i) out += Pad(f.text(results[i]), widths[i]);
    out += "\n";
  }
  out += Pad("simulated days per minute", label_width + 2);
  for (size_t i = 0; i < results.size(); ++i) {
    out += Pad(FixedDigits(results[i].simulated_days_per_minute, 1), widths[i]);
  }
  out += "\n";
  out += Pad("flush + compaction CPU (s)", label_width + 2);
  for (size_t i = 0; i < results.size(); ++i) {
    out += Pad(FixedDigits(results[i].compaction_cpu_seconds, 1), widths[i]);
  }
  out += "\n";
  const std::string recommendation = LabRecommendation(results);
  if (!recommendation.empty()) out += recommendation + "\n";
  for (const LabResult& r : results) {
    for (const std::string& note : r.notes) out += "note (" + r.strategy + "): " + note + "\n";
  }
  if (sampling != nullptr) out += SamplingText(*sampling);
  return out;
}

std::string SimulateJson(const WorkloadSpec& spec, const std::vector<LabResult>& results,
                         const LabSampling* sampling) {
  std::string out = "{\"workload\":{\"table\":" + JsonQuote(spec.keyspace + "." + spec.table) +
                    ",\"duration_seconds\":" + std::to_string(spec.duration_seconds) +
                    ",\"identifiers\":" + std::to_string(spec.identifiers) +
                    ",\"seed\":" + std::to_string(spec.seed) + "}";
  if (sampling != nullptr) out += ",\"sampling\":" + SamplingJson(*sampling);
  out += ",\"strategies\":[";
  for (size_t i = 0; i < results.size(); ++i) {
    const LabResult& r = results[i];
    if (i > 0) out += ",";
    out += "{\"strategy\":" + JsonQuote(r.strategy) + ",\"compaction\":{";
    bool first = true;
    for (const auto& [key, value] : r.compaction) {
      out += (first ? "" : ",") + JsonQuote(key) + ":" + JsonQuote(value);
      first = false;
    }
    out += "}";
    auto number = [&out](const char* key, const std::string& value) {
      out += ",\"" + std::string(key) + "\":" + value;
    };
    number("writes", std::to_string(r.writes));
    number("deletes", std::to_string(r.deletes));
    number("reads", std::to_string(r.reads));
    number("user_bytes", std::to_string(r.user_bytes));
    number("logical_bytes", std::to_string(r.logical_bytes));
    number("sstable_bytes_written", std::to_string(r.sstable_bytes_written));
    number("device_bytes_written", std::to_string(r.device_bytes_written));
    number("write_amplification", Exact(r.write_amplification));
    number("total_write_amplification", Exact(r.total_write_amplification));
    number("space_amplification", Exact(r.space_amplification));
    number("peak_disk_bytes", std::to_string(r.peak_disk_bytes));
    number("peak_temporary_bytes", std::to_string(r.peak_temporary_bytes));
    number("final_disk_bytes", std::to_string(r.final_disk_bytes));
    number("live_logical_bytes", std::to_string(r.live_logical_bytes));
    number("sstable_count", std::to_string(r.sstable_count));
    number("max_sstable_count", std::to_string(r.max_sstable_count));
    number("read_amplification_p50",
           Exact(r.read_amplification_p50.count("all") ? r.read_amplification_p50.at("all") : 0));
    number("read_amplification_p99",
           Exact(r.read_amplification_p99.count("all") ? r.read_amplification_p99.at("all") : 0));
    out += ",\"read_amplification_p99_by_kind\":{";
    first = true;
    for (const auto& [kind, value] : r.read_amplification_p99) {
      if (kind == "all") continue;
      out += (first ? "" : ",") + JsonQuote(kind) + ":" + Exact(value);
      first = false;
    }
    out += "}";
    number("tombstones_per_read_p99", Exact(r.tombstones_per_read_p99));
    number("compactions", std::to_string(r.compactions));
    number("compaction_bytes_read", std::to_string(r.compaction_bytes_read));
    number("compaction_bytes_written", std::to_string(r.compaction_bytes_written));
    number("expired_bytes_dropped_whole", std::to_string(r.expired_bytes_dropped_whole));
    number("expired_bytes_rewritten", std::to_string(r.expired_bytes_rewritten));
    number("expired_bytes_waiting", std::to_string(r.expired_bytes_waiting));
    number("expiry_lag_p50_seconds", std::to_string(r.expiry_lag_p50_seconds));
    number("expiry_lag_p99_seconds", std::to_string(r.expiry_lag_p99_seconds));
    number("expiry_lag_max_seconds", std::to_string(r.expiry_lag_max_seconds));
    out += ",\"notes\":[";
    for (size_t n = 0; n < r.notes.size(); ++n) out += (n ? "," : "") + JsonQuote(r.notes[n]);
    out += "]";
    // Wall-clock figures: they differ from run to run.
    number("simulated_days_per_minute", Exact(r.simulated_days_per_minute));
    out += ",\"wall\":{\"seconds\":" + Exact(r.wall_seconds) +
           ",\"flush_and_compaction_cpu_seconds\":" + Exact(r.compaction_cpu_seconds) + "}}";
  }
  return out + "]}\n";
}

std::string SimulateCsv(const std::vector<LabResult>& results) {
  std::string out =
      "strategy,second,disk_bytes,sstable_count,write_amplification,read_amplification_p99,"
      "expired_bytes_waiting\n";
  for (const LabResult& r : results) {
    std::string name = r.strategy;
    if (name.find_first_of(",\"") != std::string::npos) {
      std::string quoted = "\"";
      for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      name = quoted + "\"";
    }
    for (const LabSample& s : r.series) {
      out += name + "," + std::to_string(s.second) + "," + std::to_string(s.disk_bytes) + "," +
             std::to_string(s.sstable_count) + "," + Exact(s.write_amplification) + "," +
             Exact(s.read_amplification_p99) + "," + std::to_string(s.expired_bytes_waiting) + "\n";
    }
  }
  return out;
}

int RunSimulateCommand(const SimulateSettings& settings, std::ostream& out, std::ostream& err) {
  Result<WorkloadSpec> loaded = settings.from_data_dir.empty()
                                    ? LoadWorkloadFile(settings.workload_file)
                                    : WorkloadFromData(settings);
  if (!loaded.ok()) {
    err << "cassette simulate: " << loaded.status().message() << "\n";
    return 1;
  }
  WorkloadSpec spec = std::move(loaded).value();
  if (settings.duration_seconds > 0) spec.duration_seconds = settings.duration_seconds;
  if (settings.seed_set) spec.seed = settings.seed;
  std::vector<std::string> strategies =
      settings.strategies.empty() ? spec.strategies : settings.strategies;
  if (strategies.empty() && !settings.from_data_dir.empty()) strategies = DefaultLabStrategies();
  if (strategies.empty()) {
    err << "cassette simulate: no strategy to run (--strategy, or run.strategies in "
        << settings.workload_file << ")\n";
    return 1;
  }
  for (const std::string& strategy : strategies) {
    Result<std::map<std::string, std::string>> parsed = ParseStrategySpec(strategy);
    if (!parsed.ok()) {
      err << "cassette simulate: " << parsed.status().message() << "\n";
      return 1;
    }
  }
  if (settings.sample > 0) spec.sample = settings.sample;
  if (settings.sample_check_seconds > 0) spec.sample_check_seconds = settings.sample_check_seconds;
  // Every strategy's run; when sampling, then every strategy's full run of
  // the check's smaller workload, then that workload sampled.
  std::vector<LabJob> job_list;
  for (const std::string& strategy : strategies) job_list.push_back({spec, strategy});
  const bool sampling = spec.sample < 1;
  if (sampling) {
    for (const std::string& strategy : strategies) {
      job_list.push_back({SamplingCheckFullWorkload(spec), strategy});
    }
    for (const std::string& strategy : strategies) {
      job_list.push_back({SamplingCheckSampledWorkload(spec), strategy});
    }
  }
  // Without --scratch the runs keep their files in memory.
  const std::string scratch = settings.scratch_dir;
  const bool progress_bar = ::isatty(STDERR_FILENO) != 0;
  const size_t jobs = std::max<size_t>(
      1, std::min<size_t>(settings.jobs > 0 ? settings.jobs : DefaultJobs(), job_list.size()));
  std::mutex mu;
  std::vector<int64_t> days_done(job_list.size(), 0);
  int64_t all_days = 0;
  for (const LabJob& job : job_list) all_days += (job.spec.duration_seconds + 86399) / 86400;
  const auto start = std::chrono::steady_clock::now();
  LabStrategyProgress report;
  if (progress_bar) {
    report = [&](size_t index, int64_t day, int64_t) {
      std::lock_guard<std::mutex> g(mu);
      days_done[index] = day;
      int64_t done = 0;
      for (int64_t d : days_done) done += d;
      const double minutes =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60;
      const double rate = minutes > 0 ? static_cast<double>(done) / minutes : 0;
      err << "\rsimulated days " << done << " of " << all_days << " (" << job_list.size()
          << " runs, " << jobs << " at a time), " << FixedDigits(rate, 1) << " days/min, ETA "
          << (rate > 0 ? FixedDigits(static_cast<double>(all_days - done) / rate, 1) + " min"
                       : std::string("-"))
          << "   " << std::flush;
    };
  }
  // Each run in a process of its own (this process has no other thread
  // yet): a run that crashes costs only its own figures.
  std::vector<Result<LabResult>> runs = RunLabJobsInProcesses(job_list, scratch, jobs, report);
  if (progress_bar) err << "\r" << std::string(100, ' ') << "\r" << std::flush;
  std::error_code ec;
  if (!scratch.empty()) std::filesystem::remove_all(scratch, ec);
  bool failed = false;
  for (size_t i = 0; i < job_list.size(); ++i) {
    if (runs[i].ok()) continue;
    err << "cassette simulate: " << job_list[i].strategy
        << (i >= strategies.size() ? " (sampling check)" : "") << ": "
        << runs[i].status().ToString() << "\n";
    failed = true;
  }
  // The strategies whose runs succeeded are shown; the exit status says
  // that some did not.
  const size_t n = strategies.size();
  std::vector<LabResult> results;
  for (size_t i = 0; i < n; ++i) {
    if (runs[i].ok()) results.push_back(std::move(runs[i]).value());
  }
  if (results.empty()) return 1;
  std::optional<LabSampling> sampled;
  if (sampling) {
    sampled.emplace();
    const WorkloadSpec check = SamplingCheckFullWorkload(spec);
    sampled->fraction =
        static_cast<double>(check.identifiers) / static_cast<double>(spec.identifiers);
    sampled->identifiers = spec.identifiers;
    sampled->sampled_identifiers = check.identifiers;
    sampled->check_seconds = check.duration_seconds;
    sampled->check_identifiers = check.identifiers;
    for (size_t i = 0; i < n; ++i) {
      if (runs[i].ok() && runs[n + i].ok() && runs[2 * n + i].ok()) {
        sampled->checks.push_back(CompareSampledRun(*runs[n + i], *runs[2 * n + i]));
      }
    }
  }
  const LabSampling* sampling_figures = sampled ? &*sampled : nullptr;
  if (!settings.csv_file.empty()) {
    std::ofstream csv(settings.csv_file, std::ios::binary | std::ios::trunc);
    csv << SimulateCsv(results);
    if (!csv) {
      err << "cassette simulate: cannot write " << settings.csv_file << "\n";
      return 1;
    }
  }
  if (!settings.report_file.empty()) {
    std::ofstream report(settings.report_file, std::ios::binary | std::ios::trunc);
    std::string html = LabReportHtml(spec, results);
    if (sampling_figures != nullptr) {
      const size_t body_end = html.rfind("</body>");
      html.insert(body_end == std::string::npos ? html.size() : body_end,
                  SamplingHtml(*sampling_figures));
    }
    report << html;
    if (!report) {
      err << "cassette simulate: cannot write " << settings.report_file << "\n";
      return 1;
    }
  }
  out << (settings.json ? SimulateJson(spec, results, sampling_figures)
                        : SimulateTable(spec, results, sampling_figures));
  return failed ? 1 : 0;
}

}  // namespace cassette::tools
