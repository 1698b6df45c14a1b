// DataCursor: reads the uncompressed data stream of an SSTable at any
// position, loading the chunks it needs on demand. It keeps the last two
// chunks it used (a row may straddle a chunk boundary, and reversed reads
// step back into the previous chunk), plus every chunk of a span the caller
// asked it to retain. Chunks are the block cache's shared buffers, never
// copied: reads inside one chunk return views into it. Every chunk it loads
// counts once in *blocks_read. Not thread-safe: one per read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/sstable/block_fetcher.h"
#include "engine/util/coding.h"

namespace cassette {

class DataCursor {
 public:
  // `fetcher` must outlive the cursor; `blocks_read` may be null.
  DataCursor(const BlockFetcher* fetcher, int64_t* blocks_read);

  void Seek(uint64_t position) { pos_ = position; }
  uint64_t position() const { return pos_; }

  Status ReadVarint(uint64_t* v) {
    // Fast path: the varint lies in the chunk used last.
    if (pos_ - cur_begin_ < cur_end_ - cur_begin_) {
      std::string_view in(cur_data_ + (pos_ - cur_begin_), cur_end_ - pos_);
      if (GetVarint64(&in, v)) {
        pos_ = cur_end_ - in.size();
        return Status::OK();
      }
    }
    return ReadVarintSlow(v);
  }
  // n bytes from the position, contiguous; *out stays valid until the next
  // call on this cursor (a view into the chunk unless the bytes straddle
  // two chunks).
  Status ReadBytes(uint64_t n, std::string_view* out) {
    if (pos_ - cur_begin_ < cur_end_ - cur_begin_ && n <= cur_end_ - pos_) {
      *out = std::string_view(cur_data_ + (pos_ - cur_begin_), n);
      pos_ += n;
      return Status::OK();
    }
    return ReadBytesSlow(n, out);
  }
  // The bytes from the position to the end of the chunk holding it, at
  // most `max` (and at least one when max > 0), without moving: entries
  // are parsed in place, and only one that straddles chunks takes the
  // byte-wise path. Valid until the next call on this cursor.
  Status Peek(uint64_t max, std::string_view* out) {
    if (max > 0 && pos_ - cur_begin_ < cur_end_ - cur_begin_) {
      *out = std::string_view(cur_data_ + (pos_ - cur_begin_), std::min(max, cur_end_ - pos_));
      return Status::OK();
    }
    return PeekSlow(max, out);
  }
  // Appends n bytes from the position to *out (one copy, however many
  // chunks they span).
  Status AppendBytes(uint64_t n, std::string* out);
  Status Skip(uint64_t n);

  // Loads every chunk of the stream span [start, end) and keeps them until
  // the next Retain(), so reads anywhere in the span never reload a chunk
  // (a reversed read walks a row-index block back to front).
  Status Retain(uint64_t start, uint64_t end);

  Status Corruption(std::string_view what) const { return fetcher_->DataCorruption(pos_, what); }
  const BlockFetcher* fetcher() const { return fetcher_; }

 private:
  struct Slot {
    uint64_t index = UINT64_MAX;
    BlockRef data;
    uint64_t last_use = 0;
  };

  Status ReadVarintSlow(uint64_t* v);
  Status ReadBytesSlow(uint64_t n, std::string_view* out);
  Status PeekSlow(uint64_t max, std::string_view* out);
  // The chunk holding `pos`, loading it if needed; sets *offset to pos's
  // offset inside it and makes it the current chunk.
  Result<const std::string*> ChunkAt(uint64_t pos, uint64_t* offset);
  bool Retained(uint64_t index) const { return index - retain_first_ < retain_count_; }

  const BlockFetcher* fetcher_;
  int64_t* blocks_read_;
  uint64_t pos_ = 0;
  // The chunk used last: its bytes and its stream span [cur_begin_, cur_end_).
  const char* cur_data_ = nullptr;
  uint64_t cur_begin_ = 0;
  uint64_t cur_end_ = 0;
  // Loaded chunks: the retained span plus the two used last.
  std::vector<Slot> slots_;
  uint64_t use_clock_ = 0;
  uint64_t retain_first_ = 0;
  uint64_t retain_count_ = 0;
  std::string scratch_;
};

}  // namespace cassette
