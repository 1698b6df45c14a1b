#include "engine/sstable/chunk_offsets.h"

#include "engine/util/coding.h"

namespace cassette {

void EncodeChunkOffsets(const ChunkOffsets& c, std::string* out) {
  PutVarint32(out, c.chunk_length);
  PutVarint64(out, c.data_size);
  PutVarint64(out, c.chunks.size());
  uint64_t prev_end = 0;
  for (const BlockHandle& h : c.chunks) {
    // Offsets only grow, so each is stored as the gap after the previous chunk.
    PutVarint64(out, h.offset - prev_end);
    PutVarint64(out, h.size);
    prev_end = h.offset + h.size;
  }
}

bool DecodeChunkOffsets(std::string_view in, uint64_t blocks_end, ChunkOffsets* c) {
  ChunkOffsets result;
  uint64_t count;
  if (!GetVarint32(&in, &result.chunk_length) || !GetVarint64(&in, &result.data_size) ||
      !GetVarint64(&in, &count) || result.chunk_length == 0) {
    return false;
  }
  const uint64_t expected = result.data_size / result.chunk_length +
                            (result.data_size % result.chunk_length != 0 ? 1 : 0);
  // Each handle takes at least two bytes, which bounds the allocation.
  if (count != expected || count > in.size() / 2) return false;
  result.chunks.reserve(count);
  uint64_t prev_end = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t gap, size;
    if (!GetVarint64(&in, &gap) || !GetVarint64(&in, &size)) return false;
    if (gap > blocks_end - prev_end || size < kBlockTrailerSize ||
        size > blocks_end - prev_end - gap) {
      return false;
    }
    result.chunks.push_back({prev_end + gap, size});
    prev_end += gap + size;
  }
  if (!in.empty()) return false;
  *c = std::move(result);
  return true;
}

}  // namespace cassette
