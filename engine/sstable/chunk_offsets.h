// ChunkOffsets: the chunk offsets section (Cassandra's CompressionInfo.db).
// Maps data-stream chunk i (uncompressed bytes [i*chunk_length,
// (i+1)*chunk_length)) to the stored block that holds it. Stored blocks of
// the data stream are not contiguous in the file (index blocks sit between
// them), so each chunk has its own handle.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/sstable/sstable_format.h"

namespace cassette {

struct ChunkOffsets {
  uint32_t chunk_length = 0;
  uint64_t data_size = 0;  // uncompressed bytes in the stream
  std::vector<BlockHandle> chunks;

  // Uncompressed bytes of chunk `index`. REQUIRES: index < chunks.size().
  uint64_t ChunkSize(uint64_t index) const {
    const uint64_t start = index * chunk_length;
    return data_size - start < chunk_length ? data_size - start : chunk_length;
  }
};

void EncodeChunkOffsets(const ChunkOffsets& c, std::string* out);
// False on malformed input, including handles outside [0, blocks_end)
// and a chunk count that does not match data_size.
bool DecodeChunkOffsets(std::string_view in, uint64_t blocks_end, ChunkOffsets* c);

}  // namespace cassette
