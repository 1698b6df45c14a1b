// SSTableRowIterator: the rows of one partition of one SSTable within a
// clustering range, forward or reversed, decoded from the data stream as
// they are reached. Forward, it starts at the row-index block that can
// hold the range's start and stops at the first row past its end; reversed,
// it decodes one block at a time from the last block that can hold the
// range's end, walking the row index backwards, so neither direction reads
// chunks outside the range (beyond the blocks at its two edges).
// Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/mutation/partition_source.h"
#include "engine/mutation/row_codec.h"
#include "engine/sstable/data_cursor.h"
#include "engine/sstable/row_index_cursor.h"

namespace cassette {

class SSTableReader;

struct RowIteratorParams {
  std::shared_ptr<const SSTableReader> reader;  // keeps the file open
  std::shared_ptr<DataCursor> cursor;
  EncodingStats encoding;
  uint64_t partition_start = 0;
  uint64_t rows_start = 0;  // first row entry
  uint64_t rows_end = 0;    // the end-of-partition marker
  std::optional<RowIndexRoot> row_index;
  ClusteringRange range;
  bool reversed = false;
};

class SSTableRowIterator final : public RowIterator {
 public:
  // Positioned on the first row (or invalid, with status() telling why).
  static std::unique_ptr<SSTableRowIterator> Create(RowIteratorParams params);

  bool Valid() const override { return valid_; }
  const Row& row() const override { return row_; }
  void Next() override;
  Status status() const override { return status_; }

 private:
  explicit SSTableRowIterator(RowIteratorParams params);

  void Init();
  // Forward: decodes until the next row in range.
  Status AdvanceForward();
  // Reversed: steps back through the buffered block, loading earlier blocks.
  Status AdvanceReversed();
  // Copies the block [start, end) and lists its rows in range.
  Status LoadBlock(uint64_t start, uint64_t end);
  void EnterBlock(uint64_t start, uint64_t end);
  // The data-stream span of a leaf entry, checked against the partition.
  Status BlockRange(const RowIndexEntry& e, uint64_t* start, uint64_t* end) const;
  // Reads a row entry's clustering into clustering_ (prefix-decoded);
  // leaves the cursor at the body and sets *body_length.
  Status ReadEntryHead(uint64_t block_end, uint64_t* body_length);
  Status DecodeBody(uint64_t body_length, Row* row);
  // `at`: the body's data position, for errors.
  Status DecodeBodyBytes(std::string_view body, uint64_t at, Row* row);
  void Fail(Status s);

  RowIteratorParams params_;
  DataCursor* cursor_;
  std::optional<RowIndexCursor> index_;
  bool valid_ = false;
  Status status_;

  uint64_t pos_ = 0;
  uint64_t block_end_ = 0;
  std::string clustering_;
  Row row_;

  // Reversed: the current block's bytes and its rows in range, whose
  // bodies are decoded as they are returned (last first).
  struct BufferedRow {
    std::string clustering;
    size_t body_offset;
    size_t body_length;
  };
  std::string block_;
  uint64_t block_start_ = 0;
  std::vector<BufferedRow> buffered_;
  size_t buffered_pos_ = 0;
};

}  // namespace cassette
