// Datadriven scenarios for the write, flush, read and deletion paths
// (files in tests/db/testdata). Rewrite expectations with
// CASSETTE_REWRITE=1 and review the diff.
//
// Verbs:
//   open [sync=batch|periodic|group]     fresh database with table ks.t:
//                                        (pk int, ck int, v int, s int static, tags set<text>)
//   write [ts=N] [ttl=N]                 one mutation per input line, in this notation:
//       insert <pk>/<ck> [v=<int>] [tags=a,b]     INSERT (row marker + cells)
//       update <pk>/<ck> [v=<int>|v=null] [tags+=a,b] [tags-=a]
//       update <pk> s=<int>                       static column
//       delete <pk>/<ck>.v                        cell tombstone
//       delete <pk>/<ck>                          row deletion
//       delete <pk>/[<lo>,<hi>)                   range deletion ([ or ( and ] or ))
//       delete <pk>                               partition deletion
//   flush | reopen | crash [keep=<pct>]
//   advance <n><s|m|h|d>
//   read pk=<n> | pk=(<n>, <n>...) [columns=(a,b)] [from=<ck>] [to=<ck>] [exclusive]
//        [reversed] [limit=N] [per-partition-limit=N] [page=N] [meta] [trace]
//   scan [limit=N]                         every partition, token order
//   stats                                  SSTable count and bytes
#include <gtest/gtest.h>

#include <sstream>

#include "tests/db/db_test_util.h"
#include "tests/support/datadriven.h"

namespace cassette::testing {
namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::vector<Value> Tags(const std::string& list) {
  std::vector<Value> tags;
  for (const std::string& tag : Split(list, ',')) tags.push_back(Value::Text(tag));
  return tags;
}

class ScenarioHarness {
 public:
  std::string Dispatch(const DdCase& c) {
    if (c.cmd == "open") return Open(c);
    if (!t_.db) return "error: open first\n";
    if (c.cmd == "write") return Write(c);
    if (c.cmd == "flush") return Check(t_.db->Flush(), "ok");
    if (c.cmd == "reopen") return Check(t_.Reopen(), "ok");
    if (c.cmd == "crash") {
      return Check(t_.CrashAndReopen(static_cast<int>(c.IntArgOr("keep", 0))), "ok");
    }
    if (c.cmd == "advance") return Advance(c);
    if (c.cmd == "read" || c.cmd == "scan") return Read(c);
    if (c.cmd == "stats") return Stats();
    ADD_FAILURE() << c.Pos() << ": unknown command " << c.cmd;
    return "";
  }

 private:
  static std::string Check(const Status& s, const std::string& ok) {
    return s.ok() ? ok + "\n" : "error: " + s.ToString() + "\n";
  }

  std::string Open(const DdCase& c) {
    t_ = TestDb();
    Options options = t_.MakeOptions();
    const std::string sync = c.ArgOr("sync", "periodic");
    options.commitlog_sync = sync == "batch"   ? CommitLogSync::kBatch
                             : sync == "group" ? CommitLogSync::kGroup
                                               : CommitLogSync::kPeriodic;
    Status s = t_.Open(options);
    if (s.ok()) s = t_.db->CreateKeyspace({.name = "ks"});
    if (s.ok()) s = t_.db->CreateTable(SimpleTable());
    return Check(s, "ok");
  }

  std::string Write(const DdCase& c) {
    std::string out;
    for (const std::string& line : Split(c.input, '\n')) {
      auto mutation = ParseLine(line);
      if (!mutation.ok()) {
        out += "error: " + mutation.status().ToString() + "\n";
        continue;
      }
      if (c.HasArg("ts")) mutation->UsingTimestamp(c.IntArgOr("ts", 0));
      if (c.HasArg("ttl")) mutation->UsingTtl(static_cast<int32_t>(c.IntArgOr("ttl", 0)));
      Status s = t_.db->Apply(*mutation);
      if (!s.ok()) out += "error: " + s.ToString() + "\n";
    }
    return out.empty() ? "ok\n" : out;
  }

  Result<Mutation> ParseLine(const std::string& line) {
    std::vector<std::string> words = Split(line, ' ');
    if (words.size() < 2) return Status::InvalidArgument("bad line: " + line);
    const std::string& verb = words[0];
    const std::string& target = words[1];
    const size_t slash = target.find('/');
    const int32_t pk = std::stoi(target.substr(0, slash));
    Mutation m("ks", "t", {Value::Int(pk)});
    if (slash == std::string::npos) {  // partition-level
      if (verb == "delete") {
        m.DeletePartition();
        return m;
      }
      RowBuilder row = m.Update({});
      for (size_t i = 2; i < words.size(); ++i) {
        const auto eq = words[i].find('=');
        row.Set(words[i].substr(0, eq), Value::Int(std::stoi(words[i].substr(eq + 1))));
      }
      return m;
    }
    std::string rest = target.substr(slash + 1);
    if (verb == "delete" && (rest[0] == '[' || rest[0] == '(')) {
      const size_t comma = rest.find(',');
      const int32_t lo = std::stoi(rest.substr(1, comma - 1));
      const int32_t hi = std::stoi(rest.substr(comma + 1, rest.size() - comma - 2));
      m.DeleteRange({{Value::Int(lo)}, rest[0] == '['}, {{Value::Int(hi)}, rest.back() == ']'});
      return m;
    }
    const size_t dot = rest.find('.');
    const int32_t ck = std::stoi(rest.substr(0, dot));
    if (verb == "delete") {
      if (dot == std::string::npos) {
        m.DeleteRow({Value::Int(ck)});
      } else {
        m.Update({Value::Int(ck)}).SetNull(rest.substr(dot + 1));
      }
      return m;
    }
    RowBuilder row = verb == "insert" ? m.Insert({Value::Int(ck)}) : m.Update({Value::Int(ck)});
    for (size_t i = 2; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w.rfind("tags+=", 0) == 0) {
        row.Add("tags", Tags(w.substr(6)));
      } else if (w.rfind("tags-=", 0) == 0) {
        row.Remove("tags", Tags(w.substr(6)));
      } else if (w.rfind("tags=", 0) == 0) {
        row.ReplaceCollection("tags", Tags(w.substr(5)));
      } else if (w == "v=null") {
        row.SetNull("v");
      } else if (w.rfind("v=", 0) == 0) {
        row.Set("v", Value::Int(std::stoi(w.substr(2))));
      } else {
        return Status::InvalidArgument("bad assignment: " + w);
      }
    }
    return m;
  }

  std::string Advance(const DdCase& c) {
    if (c.args.empty()) return "error: advance needs a duration\n";
    const std::string& d = c.args[0].key;
    const int64_t n = std::stoll(d.substr(0, d.size() - 1));
    const int64_t unit = d.back() == 'd'   ? 86400
                         : d.back() == 'h' ? 3600
                         : d.back() == 'm' ? 60
                                           : 1;
    t_.Advance(n * unit);
    return "now=" + Value::Timestamp(t_.clock->WallMicros() / 1000).ToString() + "\n";
  }

  std::string Read(const DdCase& c) {
    ReadQuery q;
    q.keyspace = "ks";
    q.table = "t";
    if (c.cmd == "read") {
      const DdArg* pk = c.FindArg("pk");
      if (pk == nullptr) return "error: read needs pk=\n";
      for (const std::string& v : pk->vals) q.partition_keys.push_back({Value::Int(std::stoi(v))});
    }
    if (const DdArg* columns = c.FindArg("columns")) q.columns = columns->vals;
    const bool exclusive = c.HasArg("exclusive");
    if (c.HasArg("from"))
      q.slice_start =
          ClusteringBound{{Value::Int(static_cast<int32_t>(c.IntArgOr("from", 0)))}, !exclusive};
    if (c.HasArg("to"))
      q.slice_end =
          ClusteringBound{{Value::Int(static_cast<int32_t>(c.IntArgOr("to", 0)))}, !exclusive};
    q.reversed = c.HasArg("reversed");
    q.limit = c.IntArgOr("limit", 0);
    q.per_partition_limit = c.IntArgOr("per-partition-limit", 0);
    q.with_cell_metadata = c.HasArg("meta");
    q.page_size = static_cast<int32_t>(c.IntArgOr("page", 0));

    std::ostringstream out;
    ResultSet all;
    int pages = 0;
    do {
      auto result = t_.db->Read(q);
      if (!result.ok()) return "error: " + result.status().ToString() + "\n";
      ++pages;
      if (pages == 1) {
        all.columns = result->columns;
      }
      for (auto& row : result->rows) all.rows.push_back(std::move(row));
      all.stats = result->stats;
      for (auto& w : result->warnings) all.warnings.push_back(w);
      q.paging_state = result->paging_state;
    } while (q.page_size > 0 && !q.paging_state.empty() && pages < 10000);

    for (const ResultRow& row : all.rows) {
      for (size_t i = 0; i < row.values.size(); ++i) {
        out << (i ? " " : "") << all.columns[i].name << "=" << row.values[i].ToString();
        if (q.with_cell_metadata && i < row.writetimes.size()) {
          if (row.writetimes[i]) out << "@" << *row.writetimes[i];
          if (i < row.ttls.size() && row.ttls[i]) out << " ttl=" << *row.ttls[i];
        }
      }
      out << "\n";
    }
    out << "(" << all.rows.size() << " rows)\n";
    if (c.HasArg("trace")) {
      out << "sstables_read=" << all.stats.sstables_read
          << " sstables_skipped=" << all.stats.sstables_skipped
          << " live_rows=" << all.stats.live_rows
          << " tombstone_cells=" << all.stats.tombstone_cells << "\n";
    }
    for (const std::string& w : all.warnings) out << "warning: " << w << "\n";
    return out.str();
  }

  std::string Stats() {
    auto stats = t_.db->GetTableStats("ks", "t");
    if (!stats.ok()) return "error: " + stats.status().ToString() + "\n";
    std::ostringstream out;
    out << "sstables=" << stats->sstable_count << " partitions=" << stats->partition_count
        << " tombstone_cells=" << stats->tombstone_cells << "\n";
    return out.str();
  }

  TestDb t_;
};

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioTest, Run) {
  ScenarioHarness harness;
  RunDataDriven(GetParam(), [&](const DdCase& c) { return harness.Dispatch(c); });
}

INSTANTIATE_TEST_SUITE_P(Files, ScenarioTest, ::testing::ValuesIn(ListTestdata("db/testdata")),
                         FileNameOnly);

}  // namespace
}  // namespace cassette::testing
