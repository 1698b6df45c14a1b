// DataStreamWriter: the writer's side of the data stream. Bytes appended
// are cut into chunks of exactly chunk_length uncompressed bytes (the last
// one shorter), each compressed and appended as a block as soon as it
// fills, so memory stays at one chunk (plus the entry being appended).
// Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"
#include "engine/sstable/block_appender.h"
#include "engine/sstable/chunk_codec.h"
#include "engine/sstable/chunk_offsets.h"

namespace cassette {

class DataStreamWriter {
 public:
  DataStreamWriter(BlockAppender* out, uint32_t chunk_length, bool compress, int level);

  Status Append(std::string_view bytes);
  // Appending in place, for entries encoded straight into the stream:
  // Reserve returns room for up to `max` bytes at the stream's end, valid
  // until the next call; Commit(n) appends the first n of them.
  char* Reserve(size_t max) {
    if (buffer_.size() - used_ < max) Grow(max);
    return buffer_.data() + used_;
  }
  Status Commit(size_t n) {
    used_ += n;
    offsets_.data_size += n;
    return used_ >= offsets_.chunk_length ? FlushFullChunks() : Status::OK();
  }
  // Writes the last, partial chunk.
  Status Finish();

  // Uncompressed bytes appended so far: the stream position of the next byte.
  uint64_t position() const { return offsets_.data_size; }
  // Stored bytes of the chunks written so far (trailers included).
  uint64_t stored_bytes() const { return stored_bytes_; }
  size_t buffered() const { return used_; }
  const ChunkOffsets& offsets() const { return offsets_; }

 private:
  void Grow(size_t max);
  // Writes every whole chunk buffered and moves the rest to the front.
  Status FlushFullChunks();
  Status FlushChunk(std::string_view raw);

  BlockAppender* out_;
  ChunkCompressor compressor_;
  ChunkOffsets offsets_;
  // buffer_[0, used_) is the open chunk; the rest is room for appends.
  std::string buffer_;
  size_t used_ = 0;
  std::string stored_;
  uint64_t stored_bytes_ = 0;
};

}  // namespace cassette
