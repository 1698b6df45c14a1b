#include "tools/lab_sampling.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
#include <system_error>

#include "engine/compaction/unified_compaction_options.h"
#include "engine/types/type_codec.h"
#include "tools/lab_figures.h"
#include "tools/lab_report.h"

namespace cassette::tools {
namespace {

// The engine's defaults for the sizes sampling scales (Cassandra's).
constexpr int64_t kSizeTieredMinSSTableSize = 50ll << 20;
constexpr int64_t kLeveledSSTableSizeMb = 160;
constexpr int64_t kUnifiedTargetSSTableSize = 1ll << 30;
constexpr int64_t kUnifiedMinSSTableSize = 100ll << 20;
constexpr int64_t kUnifiedSizeFloor = 1ll << 20;

bool ParseLong(const std::string& text, int64_t* out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

int64_t Scaled(int64_t size, double scale, int64_t floor) {
  return std::max<int64_t>(floor, std::llround(static_cast<double>(size) * scale));
}

// One figure of CompareSampledRun: its name, and the value a run gives.
struct CheckedFigure {
  const char* name;
  std::function<double(const LabResult&)> value;
};

const std::vector<CheckedFigure>& CheckedFigures() {
  static const std::vector<CheckedFigure> figures = {
      {"write_amplification", [](const LabResult& r) { return r.write_amplification; }},
      {"total_write_amplification", [](const LabResult& r) { return r.total_write_amplification; }},
      {"space_amplification", [](const LabResult& r) { return r.space_amplification; }},
      {"peak_disk_bytes",
       [](const LabResult& r) { return static_cast<double>(r.peak_disk_bytes); }},
      {"peak_temporary_bytes",
       [](const LabResult& r) { return static_cast<double>(r.peak_temporary_bytes); }},
      {"final_disk_bytes",
       [](const LabResult& r) { return static_cast<double>(r.final_disk_bytes); }},
      {"sstable_count", [](const LabResult& r) { return static_cast<double>(r.sstable_count); }},
      {"max_sstable_count",
       [](const LabResult& r) { return static_cast<double>(r.max_sstable_count); }},
      {"read_amplification_p99",
       [](const LabResult& r) {
         auto it = r.read_amplification_p99.find("all");
         return it == r.read_amplification_p99.end() ? 0.0 : it->second;
       }},
      {"compaction_bytes_written",
       [](const LabResult& r) { return static_cast<double>(r.compaction_bytes_written); }},
      {"expired_bytes_dropped_whole",
       [](const LabResult& r) { return static_cast<double>(r.expired_bytes_dropped_whole); }},
      {"expired_bytes_rewritten",
       [](const LabResult& r) { return static_cast<double>(r.expired_bytes_rewritten); }},
      {"expiry_lag_p99_seconds",
       [](const LabResult& r) { return static_cast<double>(r.expiry_lag_p99_seconds); }},
  };
  return figures;
}

std::string Percent(const SamplingError& e) {
  return e.has_relative ? FixedDigits(100 * e.relative, 1) + "%" : "n/a";
}

std::string Description(const LabSampling& s) {
  return std::to_string(s.sampled_identifiers) + " of " + std::to_string(s.identifiers) +
         " identifiers (" + FixedDigits(100 * s.fraction, 2) +
         "%), memtable, read rate and strategy sizes scaled to match, byte figures scaled back";
}

std::string CheckDescription(const LabSampling& s) {
  return "error measured against a full run of a smaller workload (" +
         std::to_string(s.check_identifiers) + " identifiers, " + DurationText(s.check_seconds) +
         ") sampled the same way";
}

}  // namespace

WorkloadSpec SampledWorkload(const WorkloadSpec& spec, double fraction, double* applied) {
  WorkloadSpec out = spec;
  out.identifiers =
      std::max<int64_t>(1, std::llround(static_cast<double>(spec.identifiers) * fraction));
  const double f = static_cast<double>(out.identifiers) / static_cast<double>(spec.identifiers);
  out.memtable_bytes = std::max<uint64_t>(
      4096, static_cast<uint64_t>(std::llround(static_cast<double>(spec.memtable_bytes) * f)));
  if (spec.read_interval_seconds > 0) out.read_interval_seconds = spec.read_interval_seconds / f;
  out.size_scale = spec.size_scale * f;
  out.sample = 1;
  if (applied != nullptr) *applied = f;
  return out;
}

std::map<std::string, std::string> ScaleStrategySizes(
    const std::map<std::string, std::string>& compaction, double scale, std::string* what) {
  std::map<std::string, std::string> out = compaction;
  if (scale >= 1) return out;
  const std::string cls = compaction.count("class") ? compaction.at("class") : "";
  auto note = [&](const std::string& key) {
    if (what != nullptr) *what += (what->empty() ? "" : ", ") + key + "=" + out[key];
  };
  // A plain count of bytes or megabytes (STCS, LCS).
  auto scale_long = [&](const std::string& key, int64_t default_size, int64_t floor) {
    int64_t size = default_size;
    auto it = compaction.find(key);
    if (it != compaction.end() && !ParseLong(it->second, &size)) return;
    out[key] = std::to_string(Scaled(size, scale, floor));
    note(key);
  };
  // A human-readable size ("1GiB"), written back in bytes (UCS).
  auto scale_bytes = [&](const std::string& key, std::optional<int64_t> default_size,
                         int64_t floor) {
    int64_t size = default_size.value_or(0);
    auto it = compaction.find(key);
    std::string error;
    if (it != compaction.end() && !ParseHumanReadableBytes(it->second, &size, &error)) return;
    if (it == compaction.end() && !default_size) return;
    out[key] = std::to_string(Scaled(size, scale, floor)) + "B";
    note(key);
  };
  if (cls.find("SizeTiered") != std::string::npos || cls.find("TimeWindow") != std::string::npos) {
    scale_long("min_sstable_size", kSizeTieredMinSSTableSize, 0);
  } else if (cls.find("Leveled") != std::string::npos) {
    scale_long("sstable_size_in_mb", kLeveledSSTableSizeMb, 1);
  } else if (cls.find("Unified") != std::string::npos) {
    scale_bytes("target_sstable_size", kUnifiedTargetSSTableSize, kUnifiedSizeFloor);
    scale_bytes("min_sstable_size", kUnifiedMinSSTableSize, 0);
    scale_bytes("flush_size_override", std::nullopt, kUnifiedSizeFloor);
  }
  return out;
}

void ScaleUpResult(double fraction, LabResult* r) {
  const double up = 1 / fraction;
  auto bytes = [up](uint64_t* v) {
    *v = static_cast<uint64_t>(std::llround(static_cast<double>(*v) * up));
  };
  for (uint64_t* v :
       {&r->user_bytes, &r->logical_bytes, &r->sstable_bytes_written, &r->device_bytes_written,
        &r->peak_disk_bytes, &r->peak_temporary_bytes, &r->final_disk_bytes, &r->live_logical_bytes,
        &r->compaction_bytes_read, &r->compaction_bytes_written, &r->expired_bytes_dropped_whole,
        &r->expired_bytes_rewritten, &r->expired_bytes_waiting, &r->writes, &r->deletes}) {
    bytes(v);
  }
  r->reads = std::llround(static_cast<double>(r->reads) * up);
  for (LabSample& point : r->series) {
    bytes(&point.disk_bytes);
    bytes(&point.expired_bytes_waiting);
  }
}

int64_t SamplingCheckSeconds(const WorkloadSpec& spec) {
  if (spec.sample_check_seconds > 0) {
    return std::min(spec.sample_check_seconds, spec.duration_seconds);
  }
  return std::min(spec.duration_seconds, std::max<int64_t>(86400, spec.duration_seconds / 10));
}

WorkloadSpec SamplingCheckFullWorkload(const WorkloadSpec& spec) {
  WorkloadSpec out = SampledWorkload(spec, spec.sample, nullptr);
  out.duration_seconds = SamplingCheckSeconds(spec);
  return out;
}

WorkloadSpec SamplingCheckSampledWorkload(const WorkloadSpec& spec) {
  WorkloadSpec out = SamplingCheckFullWorkload(spec);
  out.sample = spec.sample;
  return out;
}

SamplingCheck CompareSampledRun(const LabResult& full, const LabResult& sampled) {
  SamplingCheck check;
  check.strategy = full.strategy;
  for (const CheckedFigure& figure : CheckedFigures()) {
    SamplingError e;
    e.figure = figure.name;
    e.full = figure.value(full);
    e.sampled = figure.value(sampled);
    if (e.full != 0) {
      e.has_relative = true;
      e.relative = std::fabs(e.sampled - e.full) / std::fabs(e.full);
    } else if (e.sampled == 0) {
      e.has_relative = true;
    }
    check.errors.push_back(e);
  }
  return check;
}

std::string SamplingText(const LabSampling& s) {
  if (s.fraction >= 1) return "";
  std::string out = "sampled: " + Description(s) + ";\n" + CheckDescription(s) + ":\n";
  for (const SamplingCheck& check : s.checks) {
    out += "  " + check.strategy + ":";
    for (const SamplingError& e : check.errors) out += " " + e.figure + " " + Percent(e);
    out += "\n";
  }
  return out;
}

std::string SamplingJson(const LabSampling& s) {
  std::string out = "{\"fraction\":" + Exact(s.fraction) +
                    ",\"identifiers\":" + std::to_string(s.identifiers) +
                    ",\"sampled_identifiers\":" + std::to_string(s.sampled_identifiers) +
                    ",\"check\":{\"seconds\":" + std::to_string(s.check_seconds) +
                    ",\"identifiers\":" + std::to_string(s.check_identifiers) + ",\"errors\":{";
  for (size_t i = 0; i < s.checks.size(); ++i) {
    out += (i ? "," : "") + JsonQuote(s.checks[i].strategy) + ":{";
    for (size_t j = 0; j < s.checks[i].errors.size(); ++j) {
      const SamplingError& e = s.checks[i].errors[j];
      out += (j ? "," : "") + JsonQuote(e.figure) + ":{\"full\":" + Exact(e.full) +
             ",\"sampled\":" + Exact(e.sampled) +
             ",\"relative\":" + (e.has_relative ? Exact(e.relative) : "null") + "}";
    }
    out += "}";
  }
  return out + "}}}";
}

std::string SamplingHtml(const LabSampling& s) {
  if (s.fraction >= 1) return "";
  std::string out = "<h2>Sampling</h2>\n<p>Sampled: " + HtmlEscape(Description(s)) + "; " +
                    HtmlEscape(CheckDescription(s)) +
                    ". Relative error of the sampled run, figure by figure:</p>\n"
                    "<table><tr><th></th>";
  for (const SamplingCheck& check : s.checks) out += "<th>" + HtmlEscape(check.strategy) + "</th>";
  out += "</tr>\n";
  for (size_t f = 0; f < CheckedFigures().size(); ++f) {
    out += "<tr><td>" + HtmlEscape(CheckedFigures()[f].name) + "</td>";
    for (const SamplingCheck& check : s.checks) {
      const SamplingError& e = check.errors[f];
      out += "<td title=\"full " + HtmlEscape(FixedDigits(e.full, 3)) + ", sampled " +
             HtmlEscape(FixedDigits(e.sampled, 3)) + "\">" + HtmlEscape(Percent(e)) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace cassette::tools
