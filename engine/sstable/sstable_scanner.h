// SSTableScanner: the partitions of one SSTable whose tokens fall in a
// token range, in partition order. It walks the partition index blocks
// from the summary entry that can hold the range's start; each partition's
// header is decoded when reached and its rows only when iterated. One data
// cursor is shared by the scanner and its row iterators, so consecutive
// small partitions in one chunk load it once. Not thread-safe.
#pragma once

#include <memory>

#include "engine/mutation/partition_source.h"
#include "engine/mutation/token_interval.h"
#include "engine/sstable/block_cache.h"
#include "engine/sstable/data_cursor.h"

namespace cassette {

class SSTableReader;

class SSTableScanner final : public PartitionIterator {
 public:
  // `blocks_read` (may be null) counts the data chunks loaded.
  SSTableScanner(std::shared_ptr<const SSTableReader> reader, const TokenInterval& tokens,
                 int64_t* blocks_read);

  bool Valid() const override { return valid_; }
  PartitionContent& partition() override { return current_; }
  void Next() override;
  Status status() const override { return status_; }

 private:
  Status Advance();

  std::shared_ptr<const SSTableReader> reader_;
  TokenInterval tokens_;
  std::shared_ptr<DataCursor> cursor_;
  bool done_ = false;
  size_t next_block_ = 0;
  BlockRef block_;
  std::string_view rest_;     // undecoded entries of block_
  uint64_t rest_offset_ = 0;  // file offset of block_, for errors
  PartitionContent current_;
  bool valid_ = false;
  Status status_;
};

}  // namespace cassette
