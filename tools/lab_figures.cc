#include "tools/lab_figures.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace cassette::tools {

std::string Exact(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return error == std::errc() ? std::string(buffer, end) : "null";
}

std::string FixedDigits(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

std::string Megabytes(uint64_t bytes) { return FixedDigits(static_cast<double>(bytes) / 1e6, 2); }

std::string DurationText(int64_t seconds) {
  if (seconds % 86400 == 0) return std::to_string(seconds / 86400) + "d";
  if (seconds % 3600 == 0) return std::to_string(seconds / 3600) + "h";
  if (seconds % 60 == 0) return std::to_string(seconds / 60) + "m";
  return std::to_string(seconds) + "s";
}

std::string HoursText(int64_t seconds) {
  return FixedDigits(static_cast<double>(seconds) / 3600.0, 1) + " h";
}

std::vector<LabFigure> LabFigures() {
  auto ratio = [](double v) { return FixedDigits(v, 3); };
  return {
      {"write amplification (SSTables)", [](const LabResult& r) { return r.write_amplification; },
       [=](const LabResult& r) { return ratio(r.write_amplification); }},
      {"write amplification (all, log too)",
       [](const LabResult& r) { return r.total_write_amplification; },
       [=](const LabResult& r) { return ratio(r.total_write_amplification); }},
      {"peak disk (MB)", [](const LabResult& r) { return static_cast<double>(r.peak_disk_bytes); },
       [](const LabResult& r) { return Megabytes(r.peak_disk_bytes); }},
      {"peak temporary disk (MB)",
       [](const LabResult& r) { return static_cast<double>(r.peak_temporary_bytes); },
       [](const LabResult& r) { return Megabytes(r.peak_temporary_bytes); }},
      {"final disk (MB)",
       [](const LabResult& r) { return static_cast<double>(r.final_disk_bytes); },
       [](const LabResult& r) { return Megabytes(r.final_disk_bytes); }},
      {"space amplification", [](const LabResult& r) { return r.space_amplification; },
       [=](const LabResult& r) { return ratio(r.space_amplification); }},
      {"SSTables at the end",
       [](const LabResult& r) { return static_cast<double>(r.sstable_count); },
       [](const LabResult& r) { return std::to_string(r.sstable_count); }},
      {"SSTables at most",
       [](const LabResult& r) { return static_cast<double>(r.max_sstable_count); },
       [](const LabResult& r) { return std::to_string(r.max_sstable_count); }},
      {"SSTables per read p50",
       [](const LabResult& r) {
         return r.read_amplification_p50.count("all") ? r.read_amplification_p50.at("all") : 0;
       },
       [](const LabResult& r) {
         return r.reads == 0 || !r.read_amplification_p50.count("all")
                    ? std::string("-")
                    : FixedDigits(r.read_amplification_p50.at("all"), 0);
       }},
      {"SSTables per read p99",
       [](const LabResult& r) {
         return r.read_amplification_p99.count("all") ? r.read_amplification_p99.at("all") : 0;
       },
       [](const LabResult& r) {
         return r.reads == 0 || !r.read_amplification_p99.count("all")
                    ? std::string("-")
                    : FixedDigits(r.read_amplification_p99.at("all"), 0);
       }},
      {"tombstones per read p99", [](const LabResult& r) { return r.tombstones_per_read_p99; },
       [](const LabResult& r) { return FixedDigits(r.tombstones_per_read_p99, 0); }},
      {"compactions", [](const LabResult& r) { return static_cast<double>(r.compactions); },
       [](const LabResult& r) { return std::to_string(r.compactions); }, true, false},
      {"expired data dropped whole (MB)",
       [](const LabResult& r) { return static_cast<double>(r.expired_bytes_dropped_whole); },
       [](const LabResult& r) { return Megabytes(r.expired_bytes_dropped_whole); }, false, false},
      {"expired data waiting at the end (MB, est.)",
       [](const LabResult& r) { return static_cast<double>(r.expired_bytes_waiting); },
       [](const LabResult& r) { return Megabytes(r.expired_bytes_waiting); }},
      {"expiry lag p99 (past TTL + gc_grace)",
       [](const LabResult& r) { return static_cast<double>(r.expiry_lag_p99_seconds); },
       [](const LabResult& r) { return HoursText(r.expiry_lag_p99_seconds); }},
      {"dead data rewritten (MB, est.)",
       [](const LabResult& r) { return static_cast<double>(r.expired_bytes_rewritten); },
       [](const LabResult& r) { return Megabytes(r.expired_bytes_rewritten); }},
  };
}

std::map<std::string, std::vector<std::string>> LabWins(const std::vector<LabResult>& results) {
  std::map<std::string, std::vector<std::string>> wins;
  if (results.size() < 2) return wins;
  for (const LabFigure& f : LabFigures()) {
    if (!f.ranked) continue;
    double best = 0;
    for (size_t i = 0; i < results.size(); ++i) {
      const double v = f.value(results[i]);
      if (i == 0 || (f.lower_is_better ? v < best : v > best)) best = v;
    }
    // Within 1% of the best is as good: a strategy does not win a figure
    // by a rounding difference, which sampling or the seed would flip.
    const double tolerance = kTieTolerance * std::fabs(best);
    size_t tied = 0;
    std::string winner;
    for (const LabResult& r : results) {
      if (std::fabs(f.value(r) - best) <= tolerance) {
        ++tied;
        winner = r.strategy;
      }
    }
    if (tied == 1) wins[winner].push_back(f.label);
  }
  return wins;
}

std::string LabRecommendation(const std::vector<LabResult>& results) {
  if (results.size() < 2) return "";
  const std::map<std::string, std::vector<std::string>> wins = LabWins(results);
  std::string line = "recommendation:";
  size_t most = 0;
  std::string leader;
  for (const auto& [strategy, labels] : wins) {
    if (labels.size() > most) {
      most = labels.size();
      leader = strategy;
    }
  }
  if (leader.empty()) return line + " no strategy is alone best on any figure";
  line += " " + leader + " (best on " + std::to_string(most) + " figures)";
  for (const auto& [strategy, labels] : wins) {
    line += "; " + strategy + " best on: ";
    for (size_t i = 0; i < labels.size(); ++i) line += (i ? ", " : "") + labels[i];
  }
  return line;
}

}  // namespace cassette::tools
