// Datadriven compaction scenarios (files in tests/db/testdata/compaction):
// one table under a chosen strategy, writes with chosen timestamps and
// TTLs, flushes, a manual clock, explicit compactions, and the SSTable
// layout printed from the files' own statistics before and after.
// Rewrite expectations with CASSETTE_REWRITE=1 and review the diff: every
// expectation must be what Cassandra does (docs/SEMANTICS.md §3-§5).
//
// Background compaction is off (Options::auto_compaction = false): only
// `compact` compacts, so each file shows exactly what one round does.
//
// Times print relative to the start, 2024-01-01T00:00:00Z, as +1h30m;
// a timestamp that is not a whole second shows its micros (+1h+3us).
//
// Verbs:
//   open [class=<strategy>] [<compaction option>=<value>]...
//        [gc_grace_seconds=N] [default_time_to_live=N]
//                                fresh database with ks.t (pk int, ck int,
//                                v int, PRIMARY KEY (pk, ck)); every other
//                                key goes into the compaction map verbatim
//   alter <same arguments>       ALTER TABLE ks.t WITH those options
//   write [at=<dur>] [ttl=N]     one mutation per input line:
//       <pk>/<ck> v=<int>            INSERT (row marker + cell)
//       delete <pk>/<ck>             row deletion
//       delete <pk>/<ck>.v           cell tombstone
//       delete <pk>                  partition deletion
//                                at=<dur>: timestamp start + dur (default:
//                                the clock's now)
//   flush
//   advance <dur>                durations like 90s, 10m, 1h30m, 2d
//   compact [major]              Database::Compact (background tasks until
//                                none is left, the shell's COMPACT) or
//                                CompactMajor; prints each compaction run
//                                (rewritten inputs, files dropped whole,
//                                outputs) and then the layout
//   layout                       each live SSTable: generation, level,
//                                TWCS window, min/max timestamp, max local
//                                deletion time, rows, cells, expiring
//                                cells, tombstones (cell, row, range and
//                                partition deletions) and the droppable
//                                tombstone ratio at gc_before (Cassandra's
//                                estimate: row markers are drop-time points
//                                but not cells, so TTL'd INSERTs can show
//                                up to 2.00; histogram bins make it rough)
//   explain                      TWCS: Database::ExplainExpiry, a line per
//                                window (files, when droppable, blockers)
//   read pk=N                    the partition's rows
//   counters                     expired SSTables dropped, tombstones purged
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "engine/db/manifest.h"
#include "engine/sstable/sstable_reader.h"
#include "tests/db/db_test_util.h"
#include "tests/support/datadriven.h"

namespace cassette::testing {
namespace {

constexpr int64_t kStartSeconds = kStartMicros / 1'000'000;

// "90s", "10m", "1h30m", "2d": seconds, or nullopt when malformed.
std::optional<int64_t> ParseDuration(const std::string& text) {
  int64_t total = 0;
  int64_t number = -1;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      number = (number < 0 ? 0 : number * 10) + (ch - '0');
      continue;
    }
    const int64_t unit = ch == 'd' ? 86400 : ch == 'h' ? 3600 : ch == 'm' ? 60 : ch == 's' ? 1 : 0;
    if (unit == 0 || number < 0) return std::nullopt;
    total += number * unit;
    number = -1;
  }
  if (number >= 0 || text.empty()) return std::nullopt;
  return total;
}

// Seconds after the start as "+1d2h3m4s" (only the non-zero parts).
std::string Relative(int64_t seconds) {
  if (seconds == 0) return "+0";
  std::string out = seconds < 0 ? "-" : "+";
  int64_t left = seconds < 0 ? -seconds : seconds;
  const std::pair<int64_t, char> units[] = {{86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}};
  for (const auto& [size, name] : units) {
    if (left >= size) {
      out += std::to_string(left / size) + name;
      left %= size;
    }
  }
  return out;
}

std::string RelativeMicros(int64_t micros) {
  const int64_t since = micros - kStartMicros;
  const int64_t seconds = since >= 0 ? since / 1'000'000 : -((-since + 999'999) / 1'000'000);
  const int64_t rest = since - seconds * 1'000'000;
  return Relative(seconds) + (rest != 0 ? "+" + std::to_string(rest) + "us" : "");
}

std::string LocalDeletionTime(int64_t seconds) {
  if (seconds == std::numeric_limits<int64_t>::max()) return "never";
  if (seconds == std::numeric_limits<int64_t>::min()) return "-";
  return Relative(seconds - kStartSeconds);
}

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> words;
  std::istringstream in(s);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string Join(const std::vector<uint64_t>& generations) {
  std::string out = "[";
  for (size_t i = 0; i < generations.size(); ++i) {
    out += (i ? " " : "") + std::to_string(generations[i]);
  }
  return out + "]";
}

class CompactionScenario {
 public:
  std::string Dispatch(const DdCase& c) {
    if (c.cmd == "open") return Open(c);
    if (!t_.db) return "error: open first\n";
    if (c.cmd == "alter") return Alter(c);
    if (c.cmd == "write") return Write(c);
    if (c.cmd == "flush") return Check(t_.db->Flush());
    if (c.cmd == "advance") return Advance(c);
    if (c.cmd == "compact") return Compact(c);
    if (c.cmd == "layout") return Layout();
    if (c.cmd == "explain") return Explain();
    if (c.cmd == "read") return Read(c);
    if (c.cmd == "counters") return Counters();
    ADD_FAILURE() << c.Pos() << ": unknown command " << c.cmd;
    return "";
  }

 private:
  static std::string Check(const Status& s) {
    return s.ok() ? "ok\n" : "error: " + s.ToString() + "\n";
  }

  static TableOptions OptionsFrom(const DdCase& c) {
    TableOptions options;
    options.compaction.clear();
    for (const DdArg& arg : c.args) {
      const std::string value = arg.vals.empty() ? "" : arg.vals[0];
      if (arg.key == "gc_grace_seconds") {
        options.gc_grace_seconds = static_cast<int32_t>(c.IntArgOr(arg.key, 0));
      } else if (arg.key == "default_time_to_live") {
        options.default_time_to_live = static_cast<int32_t>(c.IntArgOr(arg.key, 0));
      } else {
        options.compaction[arg.key] = value;
      }
    }
    if (!options.compaction.contains("class")) {
      options.compaction["class"] = "SizeTieredCompactionStrategy";
    }
    return options;
  }

  static std::string WithWarnings(const Status& s, const std::vector<std::string>& warnings) {
    std::string out = Check(s);
    for (const std::string& w : warnings) out += "warning: " + w + "\n";
    return out;
  }

  std::string Open(const DdCase& c) {
    t_ = TestDb();
    seen_compactions_ = 0;
    Options options = t_.MakeOptions();
    options.auto_compaction = false;
    Status s = t_.Open(options);
    if (!s.ok()) return Check(s);
    s = t_.db->CreateKeyspace({.name = "ks"});
    if (!s.ok()) return Check(s);
    TableSchema schema("ks", "t");
    schema.AddPartitionKey("pk", DataType::Int())
        .AddClustering("ck", DataType::Int())
        .AddRegular("v", DataType::Int());
    schema.WithOptions(OptionsFrom(c));
    std::vector<std::string> warnings;
    s = t_.db->CreateTable(schema, false, &warnings);
    if (s.ok()) options_ = schema.options();
    return WithWarnings(s, warnings);
  }

  std::string Alter(const DdCase& c) {
    const TableOptions options = OptionsFrom(c);
    std::vector<std::string> warnings;
    const Status s = t_.db->AlterTableOptions("ks", "t", options, &warnings);
    if (s.ok()) options_ = options;
    return WithWarnings(s, warnings);
  }

  std::string Write(const DdCase& c) {
    std::optional<int64_t> timestamp;
    if (c.HasArg("at")) {
      const auto at = ParseDuration(c.ArgOr("at", ""));
      if (!at) return "error: bad at=\n";
      timestamp = kStartMicros + *at * 1'000'000;
    }
    std::string out;
    std::istringstream lines(c.input);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      auto mutation = ParseLine(line);
      if (!mutation) {
        out += "error: bad line: " + line + "\n";
        continue;
      }
      if (timestamp) mutation->UsingTimestamp(*timestamp);
      if (c.HasArg("ttl")) mutation->UsingTtl(static_cast<int32_t>(c.IntArgOr("ttl", 0)));
      const Status s = t_.db->Apply(*mutation);
      if (!s.ok()) out += "error: " + s.ToString() + "\n";
    }
    return out.empty() ? "ok\n" : out;
  }

  static std::optional<Mutation> ParseLine(const std::string& line) {
    const std::vector<std::string> words = Words(line);
    if (words.empty()) return std::nullopt;
    const bool deletion = words[0] == "delete";
    if (deletion && words.size() != 2) return std::nullopt;
    const std::string& target = words[deletion ? 1 : 0];
    const size_t slash = target.find('/');
    Mutation m("ks", "t", {Value::Int(std::stoi(target.substr(0, slash)))});
    if (slash == std::string::npos) {
      if (!deletion) return std::nullopt;
      m.DeletePartition();
      return m;
    }
    const std::string rest = target.substr(slash + 1);
    const size_t dot = rest.find('.');
    const std::vector<Value> clustering = {Value::Int(std::stoi(rest.substr(0, dot)))};
    if (deletion) {
      if (dot == std::string::npos) {
        m.DeleteRow(clustering);
      } else {
        m.Update(clustering).SetNull(rest.substr(dot + 1));
      }
      return m;
    }
    if (words.size() != 2 || words[1].rfind("v=", 0) != 0) return std::nullopt;
    m.Insert(clustering).Set("v", Value::Int(std::stoi(words[1].substr(2))));
    return m;
  }

  std::string Advance(const DdCase& c) {
    const auto seconds = c.args.empty() ? std::nullopt : ParseDuration(c.args[0].key);
    if (!seconds) return "error: advance needs a duration\n";
    t_.Advance(*seconds);
    return "now=" + RelativeMicros(t_.clock->WallMicros()) + "\n";
  }

  std::string Compact(const DdCase& c) {
    const Status s = c.HasArg("major") ? t_.db->CompactMajor("ks", "t") : t_.db->Compact("ks", "t");
    if (!s.ok()) return Check(s);
    auto stats = t_.db->GetTableStats("ks", "t");
    if (!stats.ok()) return Check(stats.status());
    std::ostringstream out;
    const auto& records = stats->recent_compactions;
    // recent_compactions keeps the last 100; scenarios stay far below.
    for (size_t i = seen_compactions_; i < records.size(); ++i) {
      const CompactionRecord& r = records[i];
      out << "compaction: rewrote " << Join(r.inputs) << " dropped whole " << Join(r.expired)
          << " -> " << Join(r.outputs) << (r.major ? " major" : "")
          << (r.tombstone_compaction ? " tombstone-compaction" : "")
          << " purged=" << r.tombstones_purged << "\n";
    }
    if (records.size() == seen_compactions_) out << "no compaction\n";
    seen_compactions_ = records.size();
    return out.str() + Layout();
  }

  // The TWCS window start of a file, from its max timestamp (docs/SEMANTICS.md §4).
  std::string Window(int64_t max_timestamp_micros) const {
    const auto& compaction = options_.compaction;
    const auto cls = compaction.find("class");
    if (cls == compaction.end() || cls->second.find("TimeWindow") == std::string::npos) return "-";
    const auto unit = compaction.find("compaction_window_unit");
    const auto size = compaction.find("compaction_window_size");
    const std::string unit_name = unit == compaction.end() ? "DAYS" : unit->second;
    const int64_t unit_seconds = unit_name == "MINUTES" ? 60 : unit_name == "HOURS" ? 3600 : 86400;
    const int64_t window = unit_seconds * (size == compaction.end() ? 1 : std::stoll(size->second));
    const int64_t seconds = max_timestamp_micros / 1000 / 1000;
    return Relative(seconds - seconds % window - kStartSeconds);
  }

  std::string Layout() {
    auto manifest = ReadManifest(t_.fs.get(), t_.path);
    if (!manifest.ok()) return Check(manifest.status());
    if (!*manifest) return "error: no manifest\n";
    const int64_t now = t_.clock->WallMicros() / 1'000'000;
    const int64_t gc_before = now - options_.gc_grace_seconds;
    std::ostringstream out;
    out << "now=" << Relative(now - kStartSeconds)
        << " gc_before=" << Relative(gc_before - kStartSeconds) << "\n";
    char line[200];
    std::snprintf(line, sizeof(line), "%-4s %-5s %-7s %-9s %-9s %-9s %4s %5s %4s %5s %s\n", "gen",
                  "level", "window", "min_ts", "max_ts", "max_ldt", "rows", "cells", "ttl", "tombs",
                  "droppable");
    out << line;
    int files = 0;
    for (const auto& [id, table] : (*manifest)->tables) {
      if (table.schema.keyspace() != "ks" || table.schema.name() != "t") continue;
      const std::string dir = t_.path + "/ks/t-" + std::to_string(id) + "/";
      for (const SSTableEntry& entry : table.sstables) {
        char name[32];
        std::snprintf(name, sizeof(name), "%06llu.sst",
                      static_cast<unsigned long long>(entry.generation));
        auto reader = SSTableReader::Open(t_.fs.get(), dir + name);
        if (!reader.ok()) return Check(reader.status());
        const SSTableStats& s = (*reader)->stats();
        const uint64_t tombstones = s.tombstone_cell_count + s.row_deletion_count +
                                    s.range_tombstone_count + s.partition_deletion_count;
        std::snprintf(
            line, sizeof(line), "%-4llu L%-4u %-7s %-9s %-9s %-9s %4llu %5llu %4llu %5llu %.2f\n",
            static_cast<unsigned long long>(entry.generation), entry.level,
            Window(s.max_timestamp).c_str(), RelativeMicros(s.min_timestamp).c_str(),
            RelativeMicros(s.max_timestamp).c_str(),
            LocalDeletionTime(s.max_local_deletion_time).c_str(),
            static_cast<unsigned long long>(s.row_count),
            static_cast<unsigned long long>(s.cell_count),
            static_cast<unsigned long long>(s.expiring_cell_count),
            static_cast<unsigned long long>(tombstones), s.DroppableTombstoneRatio(gc_before));
        out << line;
        ++files;
      }
    }
    if (files == 0) out << "(no sstables)\n";
    return out.str();
  }

  std::string Explain() {
    auto windows = t_.db->ExplainExpiry("ks", "t");
    if (!windows.ok()) return Check(windows.status());
    std::ostringstream out;
    for (const CompactionWindow& w : *windows) {
      out << "window " << RelativeMicros(w.start_micros) << ": sstables " << Join(w.sstables)
          << " droppable_at "
          << (w.droppable_at_micros ? RelativeMicros(*w.droppable_at_micros) : std::string("never"))
          << (w.droppable_bytes > 0 ? " droppable now" : "");
      if (!w.blocked_by.empty()) out << " blocked_by " << Join(w.blocked_by);
      if (w.blocked_by_memtable) out << " blocked_by memtable";
      out << "\n";
    }
    if (windows->empty()) out << "(no windows)\n";
    return out.str();
  }

  std::string Read(const DdCase& c) {
    auto result = t_.db->Read(ReadPartition(static_cast<int32_t>(c.IntArgOr("pk", 0))));
    if (!result.ok()) return Check(result.status());
    std::ostringstream out;
    for (const ResultRow& row : result->rows) {
      for (size_t i = 0; i < row.values.size(); ++i) {
        out << (i ? " " : "") << result->columns[i].name << "=" << row.values[i].ToString();
      }
      out << "\n";
    }
    out << "(" << result->rows.size() << " rows)\n";
    return out.str();
  }

  std::string Counters() {
    auto stats = t_.db->GetTableStats("ks", "t");
    if (!stats.ok()) return Check(stats.status());
    return "expired_sstables_dropped=" + std::to_string(stats->expired_sstables_dropped) +
           " tombstones_purged=" + std::to_string(stats->tombstones_purged) + "\n";
  }

  TestDb t_;
  TableOptions options_;
  size_t seen_compactions_ = 0;
};

class CompactionScenarioTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompactionScenarioTest, Run) {
  CompactionScenario scenario;
  RunDataDriven(GetParam(), [&](const DdCase& c) { return scenario.Dispatch(c); });
}

INSTANTIATE_TEST_SUITE_P(Files, CompactionScenarioTest,
                         ::testing::ValuesIn(ListTestdata("db/testdata/compaction")), FileNameOnly);

}  // namespace
}  // namespace cassette::testing
