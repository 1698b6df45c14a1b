// InsertBatch: rows INSERTed into one table, every row setting the same
// columns. It is what a client does with a prepared INSERT bound once per
// row and sent as one batch, and what an ingest loop does most.
//
// Database::ApplyInserts writes a batch exactly as ApplyBatch writes one
// Mutation per row,
//
//   Mutation(keyspace, table, {key values}).Insert({clustering values})
//       .Set(column, value)...        // UsingTimestamp / UsingTtl as set here
//
// (same cells, timestamps, TTL, errors, one commit-log record, all or
// nothing), but the columns are looked up once per batch instead of once
// per row, and no Mutation is built. The batch is reusable: Clear() keeps
// the values' storage, so refilling it with values of the same sizes
// allocates nothing.
//
//   InsertBatch batch("iot", "readings", {"sensor", "day", "ts", "v"});
//   for (...) {
//     std::span<Value> row = batch.AddRow();
//     row[0] = sensor;  row[1] = Value::Date(d);  ...
//   }
//   Status s = db->ApplyInserts(batch);
//   batch.Clear();
//
// Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cassette/value.h"

namespace cassette {

class InsertBatch {
 public:
  // `columns` must name every primary key column; the others are the
  // regular or static columns each row sets.
  InsertBatch(std::string keyspace, std::string table, std::vector<std::string> columns);

  // USING TIMESTAMP for every row (microseconds); without it the rows get
  // the batch's one write timestamp, as ApplyBatch gives its mutations.
  InsertBatch& UsingTimestamp(int64_t micros) {
    timestamp_ = micros;
    return *this;
  }
  // USING TTL for every row; without it the table's default_time_to_live.
  InsertBatch& UsingTtl(int32_t seconds) {
    ttl_ = seconds;
    return *this;
  }

  // Appends a row and returns its values, one per column in columns()
  // order, all null: assign each one (a null value left in a row writes a
  // tombstone for that column, as an INSERT of null does).
  std::span<Value> AddRow();
  // Drops every row, keeping their storage for the next ones.
  void Clear() { rows_ = 0; }

  const std::string& keyspace() const { return keyspace_; }
  const std::string& table() const { return table_; }
  const std::vector<std::string>& columns() const { return columns_; }
  std::optional<int64_t> timestamp() const { return timestamp_; }
  std::optional<int32_t> ttl() const { return ttl_; }
  size_t rows() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  std::span<const Value> row(size_t i) const {
    return {values_.data() + i * columns_.size(), columns_.size()};
  }

 private:
  std::string keyspace_;
  std::string table_;
  std::vector<std::string> columns_;
  std::optional<int64_t> timestamp_;
  std::optional<int32_t> ttl_;
  // The rows one after another; what lies past rows_ rows is storage kept
  // from rows that Clear() dropped.
  std::vector<Value> values_;
  size_t rows_ = 0;
};

}  // namespace cassette
