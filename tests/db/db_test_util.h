// Helpers shared by the db tests: an in-memory database on a manual clock
// with a manual scheduler, and short ways to build mutations and reads.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/db.h"

namespace cassette::testing {

inline constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01T00:00:00Z

struct TestDb {
  std::shared_ptr<MemFileSystem> fs = NewMemFileSystem();
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(kStartMicros);
  std::shared_ptr<ManualScheduler> scheduler = std::make_shared<ManualScheduler>();
  std::string path = "/db";
  std::unique_ptr<Database> db;
  std::optional<Options> last_options;  // reused by Reopen and CrashAndReopen

  Options MakeOptions() const {
    Options options;
    options.file_system = fs;
    options.clock = clock;
    options.scheduler = scheduler;
    return options;
  }
  Status Open(Options options) {
    db.reset();
    options.file_system = fs;
    last_options = options;
    auto opened = Database::Open(options, path);
    if (!opened.ok()) return opened.status();
    db = std::move(opened).value();
    return Status::OK();
  }
  Status Open() { return Open(last_options ? *last_options : MakeOptions()); }
  Status Reopen() {
    if (db) CASSETTE_RETURN_IF_ERROR(db->Close());
    db.reset();
    return Open();
  }
  // Drops the database without closing it, keeping only what was synced.
  Status CrashAndReopen(int keep_unsynced_pct = 0, uint64_t seed = 1) {
    fs = std::static_pointer_cast<MemFileSystem>(fs->CrashClone(keep_unsynced_pct, seed));
    db.reset();  // the old instance writes into the old file system only
    return Open();
  }
  void Advance(int64_t seconds) { ASSERT_TRUE(clock->Advance(seconds * 1'000'000).ok()); }
};

// The table's stats; empty, with the failure reported, when they cannot be
// read.
inline TableStats StatsOf(Database& db, const std::string& keyspace, const std::string& table) {
  auto stats = db.GetTableStats(keyspace, table);
  EXPECT_TRUE(stats.ok()) << stats.status().ToString();
  return stats.ok() ? *stats : TableStats{};
}

// ks.ts (sensor int, ts timestamp, v int, PRIMARY KEY (sensor, ts)): the
// time series the compaction and logging tests write.
inline TableSchema SeriesTable(std::map<std::string, std::string> compaction, int32_t ttl = 0,
                               int32_t gc_grace = 0) {
  TableSchema schema("ks", "ts");
  schema.AddPartitionKey("sensor", DataType::Int())
      .AddClustering("ts", DataType::Timestamp())
      .AddRegular("v", DataType::Int());
  schema.mutable_options().compaction = std::move(compaction);
  schema.mutable_options().default_time_to_live = ttl;
  schema.mutable_options().gc_grace_seconds = gc_grace;
  return schema;
}

inline std::map<std::string, std::string> HourlyTwcs() {
  return {{"class", "TimeWindowCompactionStrategy"},
          {"compaction_window_unit", "HOURS"},
          {"compaction_window_size", "1"}};
}

// How many rows sensors 0 .. sensors - 1 hold in ks.ts.
inline int64_t SeriesRows(Database& db, int sensors) {
  int64_t rows = 0;
  for (int s = 0; s < sensors; ++s) {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = "ts";
    query.partition_keys = {{Value::Int(s)}};
    auto result = db.Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (result.ok()) rows += static_cast<int64_t>(result->rows.size());
  }
  return rows;
}

// ks.t (pk int, ck int, v int, s int static, tags set<text>, PRIMARY KEY (pk, ck)).
inline TableSchema SimpleTable(const std::string& keyspace = "ks", const std::string& name = "t") {
  TableSchema schema(keyspace, name);
  schema.AddPartitionKey("pk", DataType::Int())
      .AddClustering("ck", DataType::Int())
      .AddRegular("v", DataType::Int())
      .AddStatic("s", DataType::Int())
      .AddRegular("tags", DataType::Set(DataType::Text()));
  return schema;
}

inline ReadQuery ReadPartition(int32_t pk, std::vector<std::string> columns = {}) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.partition_keys = {{Value::Int(pk)}};
  query.columns = std::move(columns);
  return query;
}

// Renders rows as "v1,v2;v1,v2" for compact assertions.
inline std::string Render(const ResultSet& result) {
  std::string out;
  for (const ResultRow& row : result.rows) {
    if (!out.empty()) out += ";";
    for (size_t i = 0; i < row.values.size(); ++i) {
      if (i) out += ",";
      out += row.values[i].ToString();
    }
  }
  return out;
}

// Database::ReadEach with the visited rows copied into the result, so a
// streamed read can be compared with Read.
inline Result<ResultSet> ReadEachCollected(Database& db, const ReadQuery& query) {
  std::vector<ResultRow> rows;
  auto result = db.ReadEach(query, [&](const RowView& view) {
    ResultRow& row = rows.emplace_back();
    for (const ValueView& value : view.values) row.values.push_back(value.ToValue());
    row.writetimes.assign(view.writetimes.begin(), view.writetimes.end());
    row.ttls.assign(view.ttls.begin(), view.ttls.end());
    row.elements.assign(view.elements.begin(), view.elements.end());
    return Status::OK();
  });
  if (!result.ok()) return result.status();
  if (!result->rows.empty())
    return Status::InvalidArgument("ReadEach collected rows in its result");
  result->rows = std::move(rows);
  return result;
}

#define ASSERT_OK(expr)                    \
  do {                                     \
    ::cassette::Status _s = (expr);        \
    ASSERT_TRUE(_s.ok()) << _s.ToString(); \
  } while (0)

}  // namespace cassette::testing
