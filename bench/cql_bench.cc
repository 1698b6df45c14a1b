// CQL front-end and execution costs (docs/PERFORMANCE.md, issue 4).
//  - BM_ParseSelect / BM_ParseInsert: text to AST for a typical time-series
//    SELECT and INSERT (target: the SELECT in 5 µs or less).
//  - BM_InsertCqlPrepared vs BM_InsertApi: the same ~100-byte rows written
//    through a prepared INSERT with bound values and through Mutation +
//    Database::Apply (target: CQL at 70% of the API's rows/s or better).
//    BM_InsertApiBatchOfOne: the API through ApplyBatch of one mutation,
//    without the copy Apply makes (the CQL executor applies that way).
//  - BM_SelectCqlPrepared vs BM_SelectApi: the newest 100 rows of one
//    partition, through a prepared SELECT and through ReadQuery.
// Every database is on the in-memory file system with a manual clock and
// the default commit log (on, periodic sync), so the figures are the
// engine's CPU cost, not the disk's.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "cassette/clock.h"
#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/mutation.h"
#include "cassette/query.h"
#include "engine/cql/parser.h"

namespace cassette {
namespace {

constexpr int64_t kStartMicros = 1'705'276'800'000'000;  // 2024-01-15T00:00:00Z
constexpr int32_t kDay = 19737;                          // 2024-01-15 in days since the epoch
constexpr int kSensors = 100;
// With the 8-byte value and the keys, a row is about 100 bytes.
const std::string kNote(48, 'n');

constexpr const char* kSelectText =
    "SELECT reading_time, value FROM iot.readings WHERE sensor_id = ? AND day = ? "
    "AND reading_time >= ? AND reading_time < ? LIMIT 100";
constexpr const char* kInsertText =
    "INSERT INTO iot.readings (sensor_id, day, reading_time, value, unit, note) "
    "VALUES (?, ?, ?, ?, ?, ?)";

void BM_ParseSelect(benchmark::State& state) {
  for (auto _ : state) {
    auto parsed = cql::ParseStatement(kSelectText);
    if (!parsed.ok()) {
      state.SkipWithError(parsed.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(parsed);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseSelect);

void BM_ParseInsert(benchmark::State& state) {
  for (auto _ : state) {
    auto parsed = cql::ParseStatement(kInsertText);
    if (!parsed.ok()) {
      state.SkipWithError(parsed.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(parsed);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseInsert);

// A fresh database with the iot.readings time-series table.
struct Fixture {
  std::unique_ptr<Database> db;
  std::unique_ptr<CqlSession> session;
};

Result<Fixture> OpenFixture() {
  Options options;
  options.file_system = NewMemFileSystem();
  options.clock = std::make_shared<ManualClock>(kStartMicros);
  Fixture f;
  CASSETTE_ASSIGN_OR_RETURN(f.db, Database::Open(options, "/db"));
  f.session = std::make_unique<CqlSession>(f.db.get());
  for (const char* ddl : {
           "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', "
           "'replication_factor': 1}",
           "CREATE TABLE iot.readings (sensor_id text, day date, reading_time timestamp, "
           "value double, unit text, note text, PRIMARY KEY ((sensor_id, day), reading_time)) "
           "WITH CLUSTERING ORDER BY (reading_time DESC)",
       }) {
    auto r = f.session->Execute(ddl);
    if (!r.ok()) return r.status();
  }
  return f;
}

std::vector<std::string> SensorNames() {
  std::vector<std::string> names;
  for (int i = 0; i < kSensors; ++i) names.push_back("sensor-" + std::to_string(i));
  return names;
}

void Finish(benchmark::State& state, Fixture& f) {
  state.SetItemsProcessed(state.iterations());
  Status s = f.db->Close();
  if (!s.ok()) state.SkipWithError(s.ToString().c_str());
}

void BM_InsertCqlPrepared(benchmark::State& state) {
  auto f = OpenFixture();
  if (!f.ok()) return state.SkipWithError(f.status().ToString().c_str());
  auto insert = f->session->Prepare(kInsertText);
  if (!insert.ok()) return state.SkipWithError(insert.status().ToString().c_str());
  const std::vector<std::string> sensors = SensorNames();
  int64_t i = 0;
  for (auto _ : state) {
    std::vector<Value> values = {Value::Text(sensors[i % kSensors]),
                                 Value::Date(kDay),
                                 Value::Timestamp(kStartMicros / 1000 + i),
                                 Value::Double(20.0 + static_cast<double>(i % 100) / 10),
                                 Value::Text("celsius"),
                                 Value::Text(kNote)};
    auto r = f->session->Execute(*insert, values);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      break;
    }
    ++i;
  }
  Finish(state, *f);
}
BENCHMARK(BM_InsertCqlPrepared);

void BM_InsertApi(benchmark::State& state) {
  auto f = OpenFixture();
  if (!f.ok()) return state.SkipWithError(f.status().ToString().c_str());
  const std::vector<std::string> sensors = SensorNames();
  int64_t i = 0;
  for (auto _ : state) {
    Mutation m("iot", "readings", {Value::Text(sensors[i % kSensors]), Value::Date(kDay)});
    m.Insert({Value::Timestamp(kStartMicros / 1000 + i)})
        .Set("value", Value::Double(20.0 + static_cast<double>(i % 100) / 10))
        .Set("unit", Value::Text("celsius"))
        .Set("note", Value::Text(kNote));
    Status s = f->db->Apply(m);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    ++i;
  }
  Finish(state, *f);
}
BENCHMARK(BM_InsertApi);

// The same rows through ApplyBatch of a one-mutation vector, as the CQL
// executor applies them: Database::Apply copies its mutation into a new
// vector (DatabaseImpl::Apply is ApplyBatch({mutation})), which this skips.
// The API's cost without that copy, the fairer floor for the CQL path.
void BM_InsertApiBatchOfOne(benchmark::State& state) {
  auto f = OpenFixture();
  if (!f.ok()) return state.SkipWithError(f.status().ToString().c_str());
  const std::vector<std::string> sensors = SensorNames();
  int64_t i = 0;
  for (auto _ : state) {
    std::vector<Mutation> batch;
    batch.emplace_back("iot", "readings",
                       std::vector<Value>{Value::Text(sensors[i % kSensors]), Value::Date(kDay)});
    batch.back()
        .Insert({Value::Timestamp(kStartMicros / 1000 + i)})
        .Set("value", Value::Double(20.0 + static_cast<double>(i % 100) / 10))
        .Set("unit", Value::Text("celsius"))
        .Set("note", Value::Text(kNote));
    Status s = f->db->ApplyBatch(batch);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    ++i;
  }
  Finish(state, *f);
}
BENCHMARK(BM_InsertApiBatchOfOne);

// Ten partitions of 1,000 rows, flushed to an SSTable; reads take the
// newest 100 rows (the table's clustering order is DESC) of one of them.
Result<Fixture> OpenReadFixture() {
  CASSETTE_ASSIGN_OR_RETURN(Fixture f, OpenFixture());
  const std::vector<std::string> sensors = SensorNames();
  for (int sensor = 0; sensor < 10; ++sensor) {
    for (int row = 0; row < 1000; ++row) {
      Mutation m("iot", "readings", {Value::Text(sensors[sensor]), Value::Date(kDay)});
      m.Insert({Value::Timestamp(kStartMicros / 1000 + row * 1000)})
          .Set("value", Value::Double(row))
          .Set("unit", Value::Text("celsius"))
          .Set("note", Value::Text(kNote));
      CASSETTE_RETURN_IF_ERROR(f.db->Apply(m));
    }
  }
  CASSETTE_RETURN_IF_ERROR(f.db->FlushTable("iot", "readings"));
  return f;
}

void BM_SelectCqlPrepared(benchmark::State& state) {
  auto f = OpenReadFixture();
  if (!f.ok()) return state.SkipWithError(f.status().ToString().c_str());
  auto select = f->session->Prepare(
      "SELECT reading_time, value FROM iot.readings WHERE sensor_id = ? AND day = ? LIMIT 100");
  if (!select.ok()) return state.SkipWithError(select.status().ToString().c_str());
  const std::vector<std::string> sensors = SensorNames();
  int64_t i = 0;
  for (auto _ : state) {
    const std::vector<Value> values = {Value::Text(sensors[i % 10]), Value::Date(kDay)};
    auto r = f->session->Execute(*select, values);
    if (!r.ok() || r->rows.size() != 100) {
      state.SkipWithError(r.ok() ? "expected 100 rows" : r.status().ToString().c_str());
      break;
    }
    ++i;
  }
  Finish(state, *f);
}
BENCHMARK(BM_SelectCqlPrepared);

// Arg 0: the two selected columns. Arg 1: also the partition key columns,
// which the CQL executor reads with every row (partition identity for PER
// PARTITION LIMIT and GROUP BY); the gap between the two is that cost.
void BM_SelectApi(benchmark::State& state) {
  auto f = OpenReadFixture();
  if (!f.ok()) return state.SkipWithError(f.status().ToString().c_str());
  const std::vector<std::string> sensors = SensorNames();
  int64_t i = 0;
  for (auto _ : state) {
    ReadQuery q;
    q.keyspace = "iot";
    q.table = "readings";
    q.partition_keys = {{Value::Text(sensors[i % 10]), Value::Date(kDay)}};
    q.columns = {"reading_time", "value"};
    if (state.range(0) == 1) q.columns = {"sensor_id", "day", "reading_time", "value"};
    q.limit = 100;
    auto r = f->db->Read(q);
    if (!r.ok() || r->rows.size() != 100) {
      state.SkipWithError(r.ok() ? "expected 100 rows" : r.status().ToString().c_str());
      break;
    }
    ++i;
  }
  Finish(state, *f);
}
BENCHMARK(BM_SelectApi)->Arg(0)->Arg(1);

}  // namespace
}  // namespace cassette
