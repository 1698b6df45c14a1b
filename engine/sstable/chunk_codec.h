// ChunkCompressor and DecompressChunk: how one data chunk is stored (zstd
// when that saves space, raw otherwise) and checked on the way back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"
#include "engine/sstable/sstable_format.h"

typedef struct ZSTD_CCtx_s ZSTD_CCtx;

namespace cassette {

// Not thread-safe: one per writer (it keeps a zstd context for reuse).
class ChunkCompressor {
 public:
  // compress == false stores every chunk raw.
  ChunkCompressor(bool compress, int level);
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  // Appends `raw` as a stored block (payload then trailer) to *out. Chunks
  // that zstd does not shrink are stored raw, so no chunk costs more than
  // its size plus the trailer.
  BlockType Compress(std::string_view raw, std::string* out);

 private:
  bool compress_;
  int level_;
  ZSTD_CCtx* ctx_ = nullptr;
  std::string scratch_;
};

// Checks a stored chunk (`block`, trailer included) and writes its
// uncompressed bytes, which must be exactly `expected_size`, to *out.
// Corruption (naming path and offset) on any mismatch.
Status DecompressChunk(std::string_view block, size_t expected_size, const std::string& path,
                       uint64_t offset, std::string* out);

}  // namespace cassette
