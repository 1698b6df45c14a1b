// SSTableRowIterator: the rows of one partition of one SSTable within a
// clustering range, forward or reversed, decoded from the data stream as
// they are reached. Forward, it starts at the row-index block that can
// hold the range's start and stops at the first row past its end; reversed,
// it decodes one block at a time from the last block that can hold the
// range's end, walking the row index backwards, so neither direction reads
// chunks outside the range (beyond the blocks at its two edges). Entries
// are parsed in place in the block cache's chunks: the rows handed out are
// the only copies. A row's body is decoded only when row() asks for it;
// encoded() hands it out still encoded (checked and summarized) instead,
// for a compaction to copy, and EncodedBody() as it is, for a read to take
// its values in place. Not thread-safe.
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
  EncodingStats encoding;  // the file's: a row block's first row starts from it
  uint32_t format_version = 0;
  uint64_t partition_start = 0;
  uint64_t rows_start = 0;  // first row entry
  uint64_t rows_end = 0;    // the end-of-partition marker
  // The row index root's entries (empty: the partition has none) and the
  // tree's depth; the entries point into index_block.
  std::vector<RowIndexEntryRef> row_index;
  uint32_t row_index_depth = 0;
  BlockRef index_block;
  ClusteringRange range;
  bool reversed = false;
};

class SSTableRowIterator final : public RowIterator {
 public:
  // Positioned on the first row (or invalid, with status() telling why).
  static std::unique_ptr<SSTableRowIterator> Create(RowIteratorParams params);

  bool Valid() const override { return valid_; }
  const Row& row() const override {
    if (!decoded_) DecodeCurrent();
    return row_;
  }
  void Next() override;
  Status status() const override { return status_; }
  const std::string& clustering() const override { return row_.clustering; }
  const EncodedRow* encoded() const override;
  bool EncodedBody(std::string_view* body, const EncodingStats** bases) const override {
    *body = body_;
    *bases = &bases_;
    return true;
  }

 private:
  explicit SSTableRowIterator(RowIteratorParams params);

  void Init();
  // Forward: decodes until the next row in range.
  Status AdvanceForward();
  // Reversed: steps back through the buffered block, loading earlier blocks.
  Status AdvanceReversed();
  // Lists the rows in range of the block [start, end), whose chunks the
  // cursor keeps until the next block. all_in_range: the block's first and
  // last clusterings are in the range, so its rows need no check.
  Status LoadBlock(uint64_t start, uint64_t end, bool all_in_range);
  bool BlockInRange(const RowIndexEntryRef& e) const;
  // Forward: starts the block [start, end); all_in_range as for LoadBlock.
  Status EnterBlock(uint64_t start, uint64_t end, bool all_in_range);
  // Version 3: reads the timestamp steps at the block's start `start`
  // into steps_ and returns where its first row entry begins.
  Status ReadTimestampSteps(uint64_t start, uint64_t end, uint64_t* rows_start);
  // Version 3, at the end of a block read whole: every step was used.
  Status CheckStepsUsed() const;
  // The data-stream span of a leaf entry, checked against the partition.
  Status BlockRange(const RowIndexEntryRef& e, uint64_t* start, uint64_t* end) const;
  // Reads the row entry at pos_: its clustering into *clustering and its
  // bases into *bases (which hold the previous row's, or a block start's);
  // leaves the cursor at the body and sets *body_length.
  Status ReadEntryHead(std::string* clustering, EncodingStats* bases, uint64_t* body_length);
  // Takes the body at the cursor as the current row's (body_), to be
  // decoded when asked for.
  Status TakeBody(uint64_t body_length);
  // Decodes body_ into row_ (clustering left alone); a corrupt body ends
  // the iteration and leaves row_ empty.
  void DecodeCurrent() const;
  // The Corruption of a bad body_.
  Status BodyCorruption(const Status& s) const;
  void Fail(Status s) const;

  RowIteratorParams params_;
  DataCursor* cursor_;
  std::optional<RowIndexCursor> index_;
  // Mutable: a row found corrupt when decoded on demand ends the iteration.
  mutable bool valid_ = false;
  mutable Status status_;

  uint64_t pos_ = 0;
  uint64_t block_end_ = 0;
  // Forward: the current block lies inside the range, so its rows skip the
  // two clustering comparisons each.
  bool block_in_range_ = false;
  // Forward, row_.clustering is the previous entry's clustering, against
  // which the next one is prefix-decoded. row_'s other fields hold the
  // current row once decoded_.
  mutable Row row_;
  // The current row's bases; forward, also what the next head starts from.
  EncodingStats bases_;
  // Version 3: the current block's timestamp steps, and those not used yet
  // by the heads read (a view of timestamp_steps_).
  std::string timestamp_steps_;
  std::string_view steps_;
  // The current row's body (valid until the cursor moves, which only Next()
  // does) and its stream position, for errors.
  std::string_view body_;
  uint64_t body_position_ = 0;
  mutable bool decoded_ = false;
  mutable bool scanned_ = false;
  mutable EncodedRow encoded_;

  // Reversed: the current block's rows in range, whose bodies are decoded
  // as they are returned (last first). Their clusterings are packed in
  // clusterings_ (one buffer reused for every block, not a string per row);
  // clustering_ is the entry being parsed.
  struct BufferedRow {
    size_t clustering_offset;
    size_t clustering_length;
    uint64_t body_position;
    uint64_t body_length;
    EncodingStats bases;
  };
  std::string clustering_;
  std::string clusterings_;
  std::string head_scratch_;  // ReadEntryHead's copy of clustering bytes
  std::vector<BufferedRow> buffered_;
  size_t buffered_pos_ = 0;
};

}  // namespace cassette
