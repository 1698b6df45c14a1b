// The contract between data sources (memtables, SSTables) and the consumers
// that merge them (the read path, flush, compaction). A source yields, per
// partition, its partition deletion, static row, range tombstones and an
// iterator over its rows in storage (clustering) order, or reversed.
// Sources return raw data: shadowed cells, tombstones and expired cells are
// left for the consumer to reconcile at `now`.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/row_codec.h"

namespace cassette {

class DeferredRowIterator;

// A row as an SSTable stores it: its body (row_codec.h) and the bases it
// was encoded against, with the summary compaction works from.
struct EncodedRow {
  std::string_view body;
  EncodingStats encoding;
  RowBodyScan scan;
};

class RowIterator {
 public:
  virtual ~RowIterator() = default;
  virtual bool Valid() const = 0;
  // REQUIRES: Valid(). The reference stays valid until Next(). A source
  // that decodes rows lazily (an SSTable's) may find the row corrupt only
  // here: it then returns an empty row and ends the iteration (Valid()
  // turns false, status() tells why).
  virtual const Row& row() const = 0;
  virtual void Next() = 0;
  // An error ends the iteration (Valid() turns false) and stays here.
  virtual Status status() const = 0;

  // REQUIRES: Valid(). row().clustering, without decoding the row where
  // the source keeps it encoded. Valid until Next().
  virtual const std::string& clustering() const { return row().clustering; }
  // REQUIRES: Valid(). The row still encoded, when the source keeps it so
  // and can hand it out unchanged; null otherwise (and when the body is
  // corrupt, which ends the iteration as row() does). Compaction copies
  // such a row into its output without decoding and re-encoding it. Valid
  // until Next().
  virtual const EncodedRow* encoded() const { return nullptr; }
  // REQUIRES: Valid(). The row's body still encoded and the bases it was
  // encoded against, when the source keeps it so: unchecked (a reader of it
  // checks what it reads, and turns to row() for what it cannot read).
  // False otherwise. Valid until Next(). The read path reads the commonest
  // rows (ReadPlainRow) in place this way, without building a Row.
  virtual bool EncodedBody(std::string_view* /*body*/, const EncodingStats** /*bases*/) const {
    return false;
  }
  // Non-null for a source that has read nothing yet and can wait until a
  // merge reaches its rows (MergingRowIterator opens it then).
  virtual DeferredRowIterator* AsDeferred() { return nullptr; }
};

// One partition from one source.
struct PartitionContent {
  DecoratedKey key;
  DeletionTime partition_deletion;
  Row static_row;
  // Only those intersecting the requested clustering range.
  std::vector<RangeTombstone> range_tombstones;
  std::unique_ptr<RowIterator> rows;
};

// Partitions of one source in partition order (token, then key bytes).
class PartitionIterator {
 public:
  virtual ~PartitionIterator() = default;
  virtual bool Valid() const = 0;
  // REQUIRES: Valid(). The content (and its row iterator) stays valid until Next().
  virtual PartitionContent& partition() = 0;
  virtual void Next() = 0;
  virtual Status status() const = 0;
};

// A RowIterator over rows held in memory (forward, or reversed).
class VectorRowIterator final : public RowIterator {
 public:
  explicit VectorRowIterator(std::vector<Row> rows, bool reversed = false);
  bool Valid() const override { return pos_ < rows_.size(); }
  const Row& row() const override { return rows_[reversed_ ? rows_.size() - 1 - pos_ : pos_]; }
  void Next() override { ++pos_; }
  Status status() const override { return Status::OK(); }

 private:
  std::vector<Row> rows_;
  bool reversed_;
  size_t pos_ = 0;
};

// Materializes a PartitionContent into a PartitionUpdate (drains the rows).
Result<PartitionUpdate> Materialize(PartitionContent& content);

}  // namespace cassette
