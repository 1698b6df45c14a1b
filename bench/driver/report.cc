#include "bench/driver/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "bench/driver/machine_limits.h"

namespace cassette::bench {
namespace {

// One printed figure: which field, its label, and whether more is better.
struct Metric {
  std::string workload;
  std::string label;
  double WorkloadResult::*field;
  bool higher_is_better;
};

std::vector<Metric> Metrics(const std::vector<WorkloadResult>& results) {
  std::vector<Metric> metrics = {
      {"W1", "rows/s", &WorkloadResult::ops_per_s, true},
      {"W1", "MB/s (logical)", &WorkloadResult::mb_per_s, true},
      {"W1", "p50 us per batch", &WorkloadResult::p50_us, false},
      {"W1", "p99 us per batch", &WorkloadResult::p99_us, false},
      {"W1", "bytes written / logical", &WorkloadResult::write_amplification, false},
      {"W1", "bytes on disk / logical", &WorkloadResult::space_amplification, false},
      {"W1", "disk bytes/s / disk bandwidth", &WorkloadResult::disk_fraction, false},
      {"W1", "peak RSS MiB", &WorkloadResult::peak_rss_mb, false},
      {"W1-nolog", "rows/s", &WorkloadResult::ops_per_s, true},
      {"W1-nolog", "p99 us per batch", &WorkloadResult::p99_us, false},
      {"W2", "queries/s", &WorkloadResult::ops_per_s, true},
      {"W2", "p50 us", &WorkloadResult::p50_us, false},
      {"W2", "p99 us", &WorkloadResult::p99_us, false},
      {"W3", "rows/s", &WorkloadResult::ops_per_s, true},
      {"W3", "p50 us", &WorkloadResult::p50_us, false},
      {"W3", "p99 us", &WorkloadResult::p99_us, false},
      {"W4", "lookups/s", &WorkloadResult::ops_per_s, true},
      {"W4", "p99 us", &WorkloadResult::p99_us, false},
      {"space", "bytes/row after full compaction", &WorkloadResult::bytes_per_row, false},
      {"W5", "rows/s (ingest)", &WorkloadResult::ops_per_s, true},
      {"W5", "SSTable bytes written / logical", &WorkloadResult::sstable_write_amplification,
       false},
      {"W5", "all bytes written (log too) / logical", &WorkloadResult::write_amplification, false},
      {"W5", "MB on disk at the end", &WorkloadResult::disk_mb, false},
      {"W5", "  of which SSTables", &WorkloadResult::sstable_disk_mb, false},
      {"W5", "bytes on disk / logical live bytes", &WorkloadResult::space_amplification, false},
      {"W5", "expired rows readable", &WorkloadResult::expired_rows_readable, false},
      {"W5", "live rows missing", &WorkloadResult::live_rows_missing, false},
  };
  // The grown runs ("W1 x4", "W2 x16"), in the order they ran.
  std::vector<std::string> grown;
  for (const WorkloadResult& r : results) {
    if (r.workload.find(" x") != std::string::npos &&
        std::find(grown.begin(), grown.end(), r.workload) == grown.end()) {
      grown.push_back(r.workload);
    }
  }
  for (const std::string& w : grown) {
    if (w.rfind("W1", 0) == 0) {
      metrics.push_back({w, "rows/s", &WorkloadResult::ops_per_s, true});
      metrics.push_back({w, "p99 us per batch", &WorkloadResult::p99_us, false});
    } else {
      metrics.push_back({w, "queries/s", &WorkloadResult::ops_per_s, true});
      metrics.push_back({w, "p99 us", &WorkloadResult::p99_us, false});
    }
  }
  return metrics;
}

const WorkloadResult* Find(const std::vector<WorkloadResult>& results, const std::string& workload,
                           const std::string& engine) {
  for (const WorkloadResult& r : results) {
    if (r.workload == workload && r.engine == engine) return &r;
  }
  return nullptr;
}

std::string Number(double v) {
  char buf[32];
  if (v == 0) return "0";
  if (std::abs(v) >= 1000) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else if (std::abs(v) >= 10) {
    std::snprintf(buf, sizeof(buf), "%.1f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.3g", v);
  }
  return buf;
}

// cassette against the best peer, oriented so that > 1 means cassette wins;
// 0 when either side has no figure.
double Ratio(const Metric& m, const std::vector<WorkloadResult>& results,
             const ReportContext& context) {
  const WorkloadResult* ours = Find(results, m.workload, "cassette");
  if (ours == nullptr || !ours->available || ours->*m.field <= 0) return 0;
  double best = 0;
  for (const std::string& peer : context.peers) {
    const WorkloadResult* theirs = Find(results, m.workload, peer);
    if (theirs == nullptr || !theirs->available || theirs->*m.field <= 0) continue;
    const double v = theirs->*m.field;
    if (best == 0 || (m.higher_is_better ? v > best : v < best)) best = v;
  }
  if (best == 0) return 0;
  return m.higher_is_better ? ours->*m.field / best : best / ours->*m.field;
}

// One of W5's targets (issue 5): cassette's figure against a peer's
// (value / peer_value <= limit), or on its own (value <= limit).
struct Target {
  std::string figure;
  std::string engine;
  std::string peer;  // empty: no peer
  double value = 0;
  double peer_value = 0;
  double limit = 0;
  bool met = false;
};

std::vector<Target> W5Targets(const std::vector<WorkloadResult>& results) {
  std::vector<Target> targets;
  const WorkloadResult* ours = Find(results, "W5", "cassette");
  if (ours == nullptr || !ours->available) return targets;
  auto against = [&](const char* figure, const std::string& peer, double WorkloadResult::*field,
                     double limit) {
    const WorkloadResult* theirs = Find(results, "W5", peer);
    if (theirs == nullptr || !theirs->available || theirs->*field <= 0) return;
    Target t{figure, "cassette", peer, ours->*field, theirs->*field, limit, false};
    t.met = t.value / t.peer_value <= limit;
    targets.push_back(t);
  };
  against("SSTable write amplification", "rocksdb", &WorkloadResult::sstable_write_amplification,
          0.5);
  against("SSTable write amplification", "rocksdb-fifo",
          &WorkloadResult::sstable_write_amplification, 1.1);
  against("MB on disk at the end", "rocksdb", &WorkloadResult::disk_mb, 1.0);
  for (const char* engine : {"cassette", "cassette-cql"}) {
    const WorkloadResult* r = Find(results, "W5", engine);
    if (r == nullptr || !r->available) continue;
    targets.push_back({"expired rows readable", engine, "", r->expired_rows_readable, 0, 0,
                       r->expired_rows_readable <= 0});
  }
  return targets;
}

std::string PeerLabel(const std::string& peer) {
  if (peer == "rocksdb") return "RocksDB leveled-with-filter's";
  if (peer == "rocksdb-fifo") return "RocksDB FIFO's";
  return peer + "'s";
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

std::vector<WorkloadResult> Medians(const std::vector<WorkloadResult>& runs) {
  std::map<std::pair<std::string, std::string>, std::vector<const WorkloadResult*>> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (const WorkloadResult& r : runs) {
    auto key = std::make_pair(r.workload, r.engine);
    if (groups[key].empty()) order.push_back(key);
    groups[key].push_back(&r);
  }
  std::vector<WorkloadResult> medians;
  for (const auto& key : order) {
    const std::vector<const WorkloadResult*>& group = groups[key];
    WorkloadResult median = *group.front();
    for (double WorkloadResult::*field : kResultNumbers) {
      std::vector<double> values;
      for (const WorkloadResult* r : group) values.push_back(r->*field);
      std::sort(values.begin(), values.end());
      const size_t n = values.size();
      median.*field = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
    medians.push_back(median);
  }
  return medians;
}

std::string FormatTable(const std::vector<WorkloadResult>& medians, const ReportContext& context) {
  std::vector<std::string> header = {"workload", "figure"};
  for (const std::string& e : context.engines) header.push_back(e);
  header.push_back("cassette / best peer");
  std::vector<std::vector<std::string>> rows;
  for (const Metric& m : Metrics(medians)) {
    bool any = false;
    std::vector<std::string> row = {m.workload, m.label};
    for (const std::string& e : context.engines) {
      const WorkloadResult* r = Find(medians, m.workload, e);
      if (r == nullptr) {
        row.push_back("-");
      } else if (!r->available) {
        row.push_back("n/a");
      } else {
        row.push_back(Number(r->*m.field));
        any = true;
      }
    }
    if (!any) continue;
    const double ratio = Ratio(m, medians, context);
    row.push_back(ratio > 0 ? Number(ratio) + "x" : "-");
    rows.push_back(row);
  }
  std::vector<size_t> widths(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    widths[c] = header[c].size();
    for (const auto& row : rows) widths[c] = std::max(widths[c], row[c].size());
  }
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out << " | ";
      const size_t pad = widths[c] - cells[c].size();
      if (c < 2) {
        out << cells[c] << std::string(pad, ' ');
      } else {
        out << std::string(pad, ' ') << cells[c];
      }
    }
    out << "\n";
  };
  line(header);
  size_t total = 0;
  for (size_t w : widths) total += w + 3;
  out << std::string(total - 3, '-') << "\n";
  for (const auto& row : rows) line(row);
  for (size_t i = 0; i < context.engines.size(); ++i) {
    out << context.engines[i] << ": " << context.descriptions[i] << "\n";
  }
  for (const WorkloadResult& r : medians) {
    if (!r.available) out << r.engine << " " << r.workload << ": n/a (" << r.note << ")\n";
  }
  for (const WorkloadResult& r : medians) {
    if (r.available && r.workload == "W5") out << "W5 " << r.engine << ": " << r.note << "\n";
  }
  for (const Target& t : W5Targets(medians)) {
    out << "W5 target: " << t.engine << " " << t.figure << " " << Number(t.value);
    if (t.peer.empty()) {
      out << " (target: " << Number(t.limit) << ")";
    } else {
      out << " = " << Number(t.value / t.peer_value) << " x " << PeerLabel(t.peer) << " "
          << Number(t.peer_value) << " (target: <= " << Number(t.limit) << " x)";
    }
    out << ": " << (t.met ? "met" : "NOT MET") << "\n";
  }
  if (context.w5) {
    const RetentionPlan& w5 = context.retention;
    out << "W5: " << w5.sensors << " sensors, " << w5.days << " simulated days, one reading every "
        << w5.interval_seconds << " s (" << w5.Rows() << " rows), TTL " << w5.ttl_seconds
        << " s, memtable " << Number(static_cast<double>(w5.memtable_bytes) / (1 << 20))
        << " MiB; scale " << context.scale << ", medians of " << context.repetitions
        << " repetitions\n";
  }
  if (context.base) {
    out << "rows " << context.plan.rows << ", sensors " << context.plan.sensors << ", batches of "
        << context.plan.batch_rows << ", W2 " << context.plan.newest_queries << " queries, W3 "
        << context.plan.slice_queries << ", W4 " << context.plan.missing_lookups
        << " lookups; rows grown x" << context.growth << "; scale " << context.scale
        << "; medians of " << context.repetitions << " repetitions\n";
  }
  if (context.limits != nullptr) {
    const MachineLimits& l = *context.limits;
    out << "machine: " << l.cpu_model << ", " << l.cores << " cores; disk (" << l.disk_dir
        << ") sequential write with fdatasync " << Number(l.disk_write_mb_per_s) << " MB/s; memcpy "
        << Number(l.memcpy_mb_per_s) << " MB/s; zstd-3 on the rows "
        << Number(l.zstd3_compress_mb_per_s) << " MB/s (ratio " << Number(l.zstd3_ratio) << ")\n";
  }
  return out.str();
}

std::string FormatJson(const std::vector<WorkloadResult>& medians, const ReportContext& context) {
  std::ostringstream out;
  out << "{\"date\":" << JsonString(context.date) << ",\"scale\":" << JsonNumber(context.scale)
      << ",\"repetitions\":" << context.repetitions << ",\"plan\":{\"rows\":" << context.plan.rows
      << ",\"sensors\":" << context.plan.sensors << ",\"batch_rows\":" << context.plan.batch_rows
      << ",\"newest_queries\":" << context.plan.newest_queries
      << ",\"slice_queries\":" << context.plan.slice_queries
      << ",\"missing_lookups\":" << context.plan.missing_lookups
      << ",\"memtable_bytes\":" << context.plan.memtable_bytes
      << ",\"zstd_level\":" << context.plan.zstd_level << ",\"growth\":\"" << context.growth
      << "\"}";
  if (context.w5) {
    const RetentionPlan& w5 = context.retention;
    out << ",\"w5_plan\":{\"sensors\":" << w5.sensors << ",\"days\":" << w5.days
        << ",\"interval_seconds\":" << w5.interval_seconds << ",\"rows\":" << w5.Rows()
        << ",\"ttl_seconds\":" << w5.ttl_seconds << ",\"memtable_bytes\":" << w5.memtable_bytes
        << "}";
  }
  if (context.limits != nullptr) {
    const MachineLimits& l = *context.limits;
    out << ",\"machine\":{\"cpu\":" << JsonString(l.cpu_model) << ",\"cores\":" << l.cores
        << ",\"disk_dir\":" << JsonString(l.disk_dir)
        << ",\"disk_write_mb_per_s\":" << JsonNumber(l.disk_write_mb_per_s)
        << ",\"memcpy_mb_per_s\":" << JsonNumber(l.memcpy_mb_per_s)
        << ",\"zstd3_compress_mb_per_s\":" << JsonNumber(l.zstd3_compress_mb_per_s)
        << ",\"zstd3_ratio\":" << JsonNumber(l.zstd3_ratio) << "}";
  }
  out << ",\"engines\":{";
  for (size_t i = 0; i < context.engines.size(); ++i) {
    out << (i > 0 ? "," : "") << JsonString(context.engines[i]) << ":"
        << JsonString(context.descriptions[i]);
  }
  out << "},\"results\":[";
  for (size_t i = 0; i < medians.size(); ++i) {
    const WorkloadResult& r = medians[i];
    out << (i > 0 ? "," : "") << "{\"workload\":" << JsonString(r.workload)
        << ",\"engine\":" << JsonString(r.engine)
        << ",\"available\":" << (r.available ? "true" : "false");
    if (!r.available || !r.note.empty()) out << ",\"note\":" << JsonString(r.note);
    out << ",\"ops_per_s\":" << JsonNumber(r.ops_per_s)
        << ",\"mb_per_s\":" << JsonNumber(r.mb_per_s) << ",\"p50_us\":" << JsonNumber(r.p50_us)
        << ",\"p99_us\":" << JsonNumber(r.p99_us)
        << ",\"write_amplification\":" << JsonNumber(r.write_amplification)
        << ",\"space_amplification\":" << JsonNumber(r.space_amplification)
        << ",\"bytes_per_row\":" << JsonNumber(r.bytes_per_row)
        << ",\"disk_fraction\":" << JsonNumber(r.disk_fraction)
        << ",\"peak_rss_mb\":" << JsonNumber(r.peak_rss_mb)
        << ",\"seconds\":" << JsonNumber(r.seconds);
    if (r.workload == "W5") {
      out << ",\"sstable_write_amplification\":" << JsonNumber(r.sstable_write_amplification)
          << ",\"disk_mb\":" << JsonNumber(r.disk_mb)
          << ",\"sstable_disk_mb\":" << JsonNumber(r.sstable_disk_mb)
          << ",\"expired_rows_readable\":" << JsonNumber(r.expired_rows_readable)
          << ",\"live_rows_missing\":" << JsonNumber(r.live_rows_missing);
    }
    out << "}";
  }
  out << "],\"ratios\":[";
  bool first = true;
  for (const Metric& m : Metrics(medians)) {
    const double ratio = Ratio(m, medians, context);
    if (ratio <= 0) continue;
    out << (first ? "" : ",") << "{\"workload\":" << JsonString(m.workload)
        << ",\"figure\":" << JsonString(m.label)
        << ",\"cassette_vs_best_peer\":" << JsonNumber(ratio) << "}";
    first = false;
  }
  out << "],\"w5_targets\":[";
  first = true;
  for (const Target& t : W5Targets(medians)) {
    out << (first ? "" : ",") << "{\"figure\":" << JsonString(t.figure)
        << ",\"engine\":" << JsonString(t.engine) << ",\"value\":" << JsonNumber(t.value);
    if (!t.peer.empty()) {
      out << ",\"peer\":" << JsonString(t.peer) << ",\"peer_value\":" << JsonNumber(t.peer_value)
          << ",\"ratio\":" << JsonNumber(t.value / t.peer_value);
    }
    out << ",\"limit\":" << JsonNumber(t.limit) << ",\"met\":" << (t.met ? "true" : "false") << "}";
    first = false;
  }
  out << "]}\n";
  return out.str();
}

}  // namespace cassette::bench
