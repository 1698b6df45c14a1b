// DataStreamWriter: the writer's side of the data stream. Bytes appended
// are cut into chunks of exactly chunk_length uncompressed bytes (the last
// one shorter), each compressed and appended as a block as soon as it
// fills, so memory stays at one chunk. Not thread-safe.
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
  // Writes the last, partial chunk.
  Status Finish();

  // Uncompressed bytes appended so far: the stream position of the next byte.
  uint64_t position() const { return offsets_.data_size; }
  // Stored bytes of the chunks written so far (trailers included).
  uint64_t stored_bytes() const { return stored_bytes_; }
  size_t buffered() const { return buffer_.size(); }
  const ChunkOffsets& offsets() const { return offsets_; }

 private:
  Status FlushChunk();

  BlockAppender* out_;
  ChunkCompressor compressor_;
  ChunkOffsets offsets_;
  std::string buffer_;
  std::string stored_;
  uint64_t stored_bytes_ = 0;
};

}  // namespace cassette
