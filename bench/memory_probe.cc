// cassette-memory-probe: the peak memory and time of the CQL work issue 18
// bounds (docs/RELIABILITY.md "Limits and bounded memory"). Each step runs
// in its own process so its peak RSS (getrusage ru_maxrss) is its own:
//
//   cassette-memory-probe load DIR ROWS    one partition of ROWS rows,
//                                          flushed to SSTables
//   cassette-memory-probe count DIR        SELECT count(*) over it
//   cassette-memory-probe in DIR N         UPDATE, DELETE and SELECT with an
//                                          IN list of N clustering values
//
// bench/memory_probe.sh runs them at 1 M and 10 M rows.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/insert_batch.h"

namespace {

using cassette::CqlResult;
using cassette::CqlSession;
using cassette::Database;
using cassette::Options;
using cassette::Result;
using cassette::Status;
using cassette::Value;

long PeakRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Fail(const std::string& what, const Status& status) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), status.ToString().c_str());
  return 1;
}

std::unique_ptr<Database> OpenOrDie(const std::string& dir) {
  auto db = Database::Open(Options(), dir);
  if (!db.ok()) {
    std::fprintf(stderr, "open %s: %s\n", dir.c_str(), db.status().ToString().c_str());
    std::exit(1);
  }
  return std::move(db).value();
}

int Load(const std::string& dir, int64_t rows) {
  std::unique_ptr<Database> db = OpenOrDie(dir);
  CqlSession session(db.get());
  for (const char* ddl :
       {"CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}",
        "CREATE TABLE IF NOT EXISTS ks.t (k int, c int, v int, PRIMARY KEY (k, c))"}) {
    Result<CqlResult> r = session.Execute(ddl);
    if (!r.ok()) return Fail(ddl, r.status());
  }
  const auto start = std::chrono::steady_clock::now();
  cassette::InsertBatch batch("ks", "t", {"k", "c", "v"});
  for (int64_t i = 0; i < rows;) {
    batch.Clear();
    for (int n = 0; n < 10000 && i < rows; ++n, ++i) {
      std::span<Value> row = batch.AddRow();
      row[0] = Value::Int(0);
      row[1] = Value::Int(static_cast<int32_t>(i));
      row[2] = Value::Int(static_cast<int32_t>(i % 1000));
    }
    Status s = db->ApplyInserts(batch);
    if (!s.ok()) return Fail("insert", s);
  }
  Status s = db->Flush();
  if (!s.ok()) return Fail("flush", s);
  s = db->Close();
  if (!s.ok()) return Fail("close", s);
  std::printf("load rows=%lld seconds=%.2f peak_rss_kib=%ld\n", static_cast<long long>(rows),
              Seconds(start), PeakRssKiB());
  return 0;
}

int Count(const std::string& dir) {
  std::unique_ptr<Database> db = OpenOrDie(dir);
  CqlSession session(db.get());
  const long before = PeakRssKiB();
  const auto start = std::chrono::steady_clock::now();
  Result<CqlResult> r = session.Execute("SELECT count(*) FROM ks.t WHERE k = 0");
  if (!r.ok()) return Fail("count", r.status());
  std::printf("count rows=%s seconds=%.2f peak_rss_kib_after_open=%ld peak_rss_kib=%ld\n",
              r->rows[0][0].ToString().c_str(), Seconds(start), before, PeakRssKiB());
  return 0;
}

int InList(const std::string& dir, int n) {
  std::unique_ptr<Database> db = OpenOrDie(dir);
  CqlSession session(db.get());
  Result<CqlResult> r = session.Execute(
      "CREATE TABLE IF NOT EXISTS ks.in_list (k int, c int, v int, PRIMARY KEY (k, c))");
  if (!r.ok()) return Fail("create", r.status());
  std::string list;
  for (int i = 0; i < n; ++i) list += (i > 0 ? ", " : "") + std::to_string(i);
  const std::string where = " WHERE k = 0 AND c IN (" + list + ")";
  for (const std::string& cql :
       {"UPDATE ks.in_list SET v = 1" + where, "SELECT count(*) FROM ks.in_list" + where,
        "SELECT c FROM ks.in_list" + where, "DELETE FROM ks.in_list" + where}) {
    const auto start = std::chrono::steady_clock::now();
    r = session.Execute(cql);
    if (!r.ok()) return Fail(cql.substr(0, 40), r.status());
    std::printf("%-28s in_values=%d seconds=%.2f\n", cql.substr(0, 28).c_str(), n, Seconds(start));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "load") return Load(args[1], std::atoll(args[2].c_str()));
  if (args.size() == 2 && args[0] == "count") return Count(args[1]);
  if (args.size() == 3 && args[0] == "in") return InList(args[1], std::atoi(args[2].c_str()));
  std::fprintf(stderr, "usage: cassette-memory-probe load DIR ROWS | count DIR | in DIR N\n");
  return 2;
}
