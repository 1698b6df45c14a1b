// Helpers shared by the db tests: an in-memory database on a manual clock
// with a manual scheduler, and short ways to build mutations and reads.
#pragma once

#include <gtest/gtest.h>

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
