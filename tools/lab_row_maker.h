// The rows the compaction lab writes: the values of a workload's insert,
// partition keys, clustering keys and sub-buckets, filled from the
// workload's column names and the table's types (docs/LAB.md says which
// columns the lab fills and how).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cassette/mutation.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/util/random.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

// The values a write puts in the table, built from the workload's column
// names and the table's types. A row is identified by its identifier, its
// event second and its sequence number (the identifier's writes counted
// from 1): every key column is a function of those.
class RowMaker {
 public:
  static Result<RowMaker> Make(const WorkloadSpec& spec, const TableSchema& schema);

  // The partition of identifier `id`'s row at `event_second`: its time
  // bucket and, with table.hash_column, its sub-bucket.
  std::vector<Value> PartitionKey(int64_t id, int64_t event_second) const {
    return KeyIn(id, event_second, SubBucket(id, event_second));
  }

  // Every partition of `id`'s time bucket at `event_second`: one per
  // sub-bucket, what a reader of the bucket fans out to.
  std::vector<std::vector<Value>> BucketPartitions(int64_t id, int64_t event_second) const;

  // The sub-bucket of a row (0 without table.hash_column): a hash of its
  // identifier and event time, so an identifier's rows spread evenly over
  // the sub-buckets, as an event id's hash spreads them.
  int64_t SubBucket(int64_t id, int64_t event_second) const;
  int64_t sub_buckets() const { return spec_->hash_column.empty() ? 1 : spec_->hash_buckets; }

  // The full clustering key of the row at `event_second` with `sequence`.
  std::vector<Value> Clustering(int64_t event_second, int64_t sequence) const;
  // Range reads and range deletes slice on the first clustering column:
  // the time column, or table.sequence_column (a tick table numbering its
  // rows); SliceValue is a row's value of it.
  bool slices_by_sequence() const { return slices_by_sequence_; }
  Value SliceValue(int64_t event_second, int64_t sequence) const;
  // The newest rows come first when the first clustering column is in
  // descending order; otherwise a newest-N read reverses the table's order.
  bool newest_first() const { return newest_first_; }

  // The columns an insert sets, in the order FillInsert fills them: the
  // partition key, the clustering key, the time and sequence columns when
  // regular, the payload (if any).
  std::vector<std::string> InsertColumns() const;

  // One InsertBatch row of identifier `id` (0 <= id < identifiers) at
  // `event_second` with `payload_bytes` of payload.
  void FillInsert(std::span<Value> row, int64_t id, int64_t event_second, int64_t sequence,
                  Random* random, int64_t payload_bytes);
  // The regular columns of that row, for a write built as a Mutation.
  void SetRegulars(RowBuilder* row, int64_t event_second, int64_t sequence, Random* random,
                   int64_t payload_bytes) const;

  // Payload bytes from a 16-letter alphabet: about half compressible, as
  // readings and event bodies tend to be.
  Value Payload(Random* random, int64_t bytes) const;

  // Logical bytes of a row's key and time columns, as written (the
  // payload's are added by the caller).
  int64_t KeyBytes() const { return key_bytes_; }

 private:
  // What the lab puts in a column of the key.
  enum class Fill {
    kIdentifier,  // the identifier (table.identifier_column, or any other partition column)
    kBucket,      // the time bucket of the event
    kSubBucket,   // table.hash_column
    kTime,        // the event time
    kSequence,    // the identifier's write count
    kDerived,     // a clustering column made unique per row from time and sequence
  };
  struct Column {
    std::string name;
    TypeKind kind;
    Fill fill;
  };

  std::vector<Value> KeyIn(int64_t id, int64_t event_second, int64_t sub) const;
  Value ValueOf(const Column& c, int64_t id, int64_t event_second, int64_t sequence,
                int64_t sub) const;
  Value Bucket(TypeKind kind, int64_t event_second) const;

  const WorkloadSpec* spec_ = nullptr;
  std::vector<Column> partition_;
  std::vector<Column> clustering_;
  std::vector<Column> regular_keys_;  // the time and sequence columns when regular
  bool slices_by_sequence_ = false;
  bool newest_first_ = true;
  bool payload_is_blob_ = true;
  int64_t key_bytes_ = 0;
  std::vector<Value> identifiers_;  // built on first use: one per identifier
};

}  // namespace cassette::tools
