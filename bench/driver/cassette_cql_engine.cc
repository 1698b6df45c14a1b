// cassette through prepared CQL: each write call is one prepared
// BEGIN UNLOGGED BATCH of INSERTs with bound values, reads are prepared
// SELECTs (the path an application moving to a cluster would keep).
#include <map>
#include <memory>
#include <vector>

#include "bench/driver/bench_engine.h"
#include "bench/driver/cassette_table.h"
#include "cassette/cql.h"
#include "cassette/db.h"

namespace cassette::bench {
namespace {

constexpr const char* kInsert =
    "INSERT INTO bench.readings (sensor_id, day, reading_time, temperature, humidity, tag) "
    "VALUES (?, ?, ?, ?, ?, ?)";
constexpr const char* kSelectColumns =
    "SELECT temperature, humidity, tag FROM bench.readings WHERE sensor_id = ? AND day = ?";

class CassetteCqlEngine final : public BenchEngine {
 public:
  std::string name() const override { return "cassette-cql"; }
  std::string description() const override {
    return "cassette prepared CQL (UNLOGGED BATCH of INSERTs), " +
           ReadingsTableDescription(config_);
  }

  Status Open(const EngineConfig& config) override {
    config_ = config;
    CASSETTE_ASSIGN_OR_RETURN(db_, Database::Open(BenchDatabaseOptions(config), config.dir));
    session_ = std::make_unique<CqlSession>(db_.get());
    CASSETTE_RETURN_IF_ERROR(session_
                                 ->Execute("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
                                           "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                                 .status());
    CASSETTE_RETURN_IF_ERROR(session_->Execute(ReadingsTableCql(config)).status());
    CASSETTE_ASSIGN_OR_RETURN(newest_, session_->Prepare(std::string(kSelectColumns) + " LIMIT ?"));
    CASSETTE_ASSIGN_OR_RETURN(slice_,
                              session_->Prepare(std::string(kSelectColumns) +
                                                " AND reading_time >= ? AND reading_time < ?"));
    batches_.clear();
    uuids_.clear();
    tags_.clear();
    for (int s = 0; s < config.sensors * 2; ++s) uuids_.push_back(Value::Uuid(SensorUuid(s)));
    for (int s = 0; s < config.sensors; ++s) tags_.push_back(Value::Text(Tag(s)));
    return Status::OK();
  }

  Status Write(std::span<const Reading> readings) override {
    CASSETTE_ASSIGN_OR_RETURN(const CqlPreparedStatement* batch, BatchOf(readings.size()));
    values_.clear();
    values_.reserve(readings.size() * 6);
    for (const Reading& r : readings) {
      values_.push_back(uuids_[r.sensor]);
      values_.push_back(Value::Date(DayOf(r.second)));
      values_.push_back(Value::Timestamp(ReadingTimeMillis(r.second)));
      values_.push_back(Value::Double(Temperature(r.sensor, r.second)));
      values_.push_back(Value::Double(Humidity(r.sensor, r.second)));
      values_.push_back(tags_[r.sensor]);
    }
    return session_->Execute(*batch, values_).status();
  }

  Status Settle() override {
    CASSETTE_RETURN_IF_ERROR(db_->Flush());
    return db_->Compact(kBenchKeyspace, kBenchTable);
  }

  Status CompactAll() override {
    CASSETTE_RETURN_IF_ERROR(db_->Flush());
    return db_->CompactMajor(kBenchKeyspace, kBenchTable);
  }

  Result<ReadOutcome> Newest(int sensor, int32_t day, int n) override {
    return Run(newest_, {uuids_[sensor], Value::Date(day), Value::Int(n)});
  }

  Result<ReadOutcome> Slice(int sensor, int32_t day, int64_t from_ms, int64_t to_ms) override {
    return Run(slice_, {uuids_[sensor], Value::Date(day), Value::Timestamp(from_ms),
                        Value::Timestamp(to_ms)});
  }

  Result<bool> HasPartition(int sensor, int32_t day) override {
    CASSETTE_ASSIGN_OR_RETURN(ReadOutcome outcome,
                              Run(newest_, {uuids_[sensor], Value::Date(day), Value::Int(1)}));
    return outcome.rows > 0;
  }

  Result<WriteCounters> Counters() override {
    if (db_ == nullptr) return Status::InvalidArgument("cassette engine not open");
    return ReadingsTableCounters(db_.get());
  }

  bool ExpiresOnRead() const override { return true; }

  Status Close() override {
    batches_.clear();
    session_.reset();
    if (db_ == nullptr) return Status::OK();
    Status s = db_->Close();
    db_.reset();
    return s;
  }

 private:
  // The prepared batch of `rows` INSERTs (one per batch size seen).
  Result<const CqlPreparedStatement*> BatchOf(size_t rows) {
    auto it = batches_.find(rows);
    if (it != batches_.end()) return &it->second;
    std::string text = "BEGIN UNLOGGED BATCH ";
    for (size_t i = 0; i < rows; ++i) text.append(kInsert).append("; ");
    text += "APPLY BATCH";
    CASSETTE_ASSIGN_OR_RETURN(CqlPreparedStatement prepared, session_->Prepare(text));
    return &batches_.emplace(rows, std::move(prepared)).first->second;
  }

  Result<ReadOutcome> Run(const CqlPreparedStatement& select, const std::vector<Value>& values) {
    CASSETTE_ASSIGN_OR_RETURN(CqlResult result, session_->Execute(select, values));
    ReadOutcome outcome;
    outcome.rows = static_cast<int64_t>(result.rows.size());
    for (const auto& row : result.rows) outcome.temperature_sum += row[0].AsDouble();
    return outcome;
  }

  EngineConfig config_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
  CqlPreparedStatement newest_;
  CqlPreparedStatement slice_;
  std::map<size_t, CqlPreparedStatement> batches_;
  std::vector<Value> uuids_;
  std::vector<Value> tags_;
  std::vector<Value> values_;
};

}  // namespace

std::unique_ptr<BenchEngine> NewCassetteCqlEngine() {
  return std::make_unique<CassetteCqlEngine>();
}

}  // namespace cassette::bench
