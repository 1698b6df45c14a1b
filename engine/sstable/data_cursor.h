// DataCursor: reads the uncompressed data stream of an SSTable at any
// position, loading the chunks it needs on demand and keeping the last two
// (a row may straddle a chunk boundary, and reversed reads step back into
// the previous chunk). Every chunk it loads counts in stats->blocks_read.
// Not thread-safe: one per read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/query.h"
#include "cassette/status.h"
#include "engine/sstable/block_fetcher.h"

namespace cassette {

class DataCursor {
 public:
  // `fetcher` must outlive the cursor; `stats` may be null.
  DataCursor(const BlockFetcher* fetcher, ReadStats* stats);

  void Seek(uint64_t position) { pos_ = position; }
  uint64_t position() const { return pos_; }

  Status ReadVarint(uint64_t* v);
  // n bytes from the position, contiguous; *out stays valid until the next
  // call on this cursor.
  Status ReadBytes(uint64_t n, std::string_view* out);
  // Appends n bytes from the position to *out (one copy, however many
  // chunks they span).
  Status AppendBytes(uint64_t n, std::string* out);
  Status Skip(uint64_t n);

  Status Corruption(std::string_view what) const { return fetcher_->DataCorruption(pos_, what); }
  const BlockFetcher* fetcher() const { return fetcher_; }

 private:
  // The chunk holding `pos`, loading it if needed; sets *offset to pos's
  // offset inside it.
  Result<const std::string*> ChunkAt(uint64_t pos, uint64_t* offset);

  struct Slot {
    uint64_t index = UINT64_MAX;
    BlockRef data;
  };

  const BlockFetcher* fetcher_;
  ReadStats* stats_;
  uint64_t pos_ = 0;
  Slot slots_[2];
  size_t last_used_ = 0;
  std::string scratch_;
};

}  // namespace cassette
