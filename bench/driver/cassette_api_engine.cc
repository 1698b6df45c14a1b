// cassette through its typed C++ API: a write call is one InsertBatch of
// its readings (Database::ApplyInserts, what a prepared INSERT bound per
// row in a batch is), reads as ReadQuery streamed through
// Database::ReadEach (the peers iterate without building rows; so does this).
#include <memory>
#include <vector>

#include "bench/driver/bench_engine.h"
#include "bench/driver/cassette_table.h"
#include "cassette/db.h"
#include "cassette/insert_batch.h"
#include "cassette/mutation.h"
#include "cassette/query.h"

namespace cassette::bench {
namespace {

class CassetteApiEngine final : public BenchEngine {
 public:
  std::string name() const override { return "cassette"; }
  std::string description() const override {
    return "cassette typed API, " + ReadingsTableDescription(config_);
  }

  Status Open(const EngineConfig& config) override {
    config_ = config;
    CASSETTE_ASSIGN_OR_RETURN(db_, Database::Open(BenchDatabaseOptions(config), config.dir));
    CASSETTE_RETURN_IF_ERROR(db_->CreateKeyspace(KeyspaceSchema{kBenchKeyspace}, true));
    CASSETTE_RETURN_IF_ERROR(db_->CreateTable(ReadingsTableSchema(config), true));
    uuids_.clear();
    tags_.clear();
    for (int s = 0; s < config.sensors * 2; ++s) uuids_.push_back(Value::Uuid(SensorUuid(s)));
    for (int s = 0; s < config.sensors; ++s) tags_.push_back(Value::Text(Tag(s)));
    return Status::OK();
  }

  Status Write(std::span<const Reading> readings) override {
    batch_.Clear();
    for (const Reading& r : readings) {
      SetReadingRow(r, uuids_[r.sensor], tags_[r.sensor], batch_.AddRow());
    }
    return db_->ApplyInserts(batch_);
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
    ReadQuery query = Query(sensor, day);
    query.limit = n;
    return Run(query);
  }

  Result<ReadOutcome> Slice(int sensor, int32_t day, int64_t from_ms, int64_t to_ms) override {
    ReadQuery query = Query(sensor, day);
    query.slice_start = ClusteringBound{{Value::Timestamp(from_ms)}, true};
    query.slice_end = ClusteringBound{{Value::Timestamp(to_ms)}, false};
    return Run(query);
  }

  Result<bool> HasPartition(int sensor, int32_t day) override {
    ReadQuery query = Query(sensor, day);
    query.limit = 1;
    CASSETTE_ASSIGN_OR_RETURN(ReadOutcome outcome, Run(query));
    return outcome.rows > 0;
  }

  Result<WriteCounters> Counters() override {
    if (db_ == nullptr) return Status::InvalidArgument("cassette engine not open");
    return ReadingsTableCounters(db_.get());
  }

  bool ExpiresOnRead() const override { return true; }

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    Status s = db_->Close();
    db_.reset();
    return s;
  }

 private:
  ReadQuery Query(int sensor, int32_t day) const {
    ReadQuery query;
    query.keyspace = kBenchKeyspace;
    query.table = kBenchTable;
    query.partition_keys.push_back({uuids_[sensor], Value::Date(day)});
    query.columns = {"temperature", "humidity", "tag"};  // the whole row, as a peer reads it
    return query;
  }

  Result<ReadOutcome> Run(const ReadQuery& query) {
    // Streamed, as the peers' iterators read: no result row is built.
    ReadOutcome outcome;
    auto visit = [&](const RowView& row) {
      ++outcome.rows;
      outcome.temperature_sum += row.values[0].AsDouble();
      return Status::OK();
    };
    CASSETTE_RETURN_IF_ERROR(db_->ReadEach(query, visit).status());
    return outcome;
  }

  EngineConfig config_;
  std::unique_ptr<Database> db_;
  std::vector<Value> uuids_;  // sensors 0..2S-1 (S..2S-1 never written: W4)
  std::vector<Value> tags_;
  InsertBatch batch_{std::string(kBenchKeyspace),
                     std::string(kBenchTable),
                     {"sensor_id", "day", "reading_time", "temperature", "humidity", "tag"}};
};

}  // namespace

std::unique_ptr<BenchEngine> NewCassetteApiEngine() {
  return std::make_unique<CassetteApiEngine>();
}

}  // namespace cassette::bench
