// BlockFetcher: reads the blocks of one open SSTable file (data chunks and
// index blocks), checks their checksums, decompresses data chunks, and goes
// through the block cache when the reader has one. Immutable after
// construction; safe for concurrent access from multiple threads without
// any external synchronization.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/sstable/block_cache.h"
#include "engine/sstable/chunk_offsets.h"
#include "engine/sstable/sstable_format.h"

namespace cassette {

class BlockFetcher {
 public:
  BlockFetcher(std::string path, std::unique_ptr<RandomAccessFile> file, BlockCache* cache,
               ChunkOffsets chunks, uint64_t blocks_end);

  // The uncompressed bytes of data chunk `index`.
  Result<BlockRef> Chunk(uint64_t index) const;
  // The payload of the raw index block at `handle` (partition index block
  // or row index node); `what` names it in errors.
  Result<BlockRef> IndexBlock(const BlockHandle& handle, std::string_view what) const;
  // Exactly n bytes at offset, uncached; Corruption when the file is shorter.
  Status ReadExact(uint64_t offset, uint64_t n, std::string* out) const;
  // Same checks as Chunk() and IndexBlock(), bypassing the cache (for
  // verification).
  Status VerifyChunk(uint64_t index) const;
  Status LoadIndexBlock(const BlockHandle& handle, std::string_view what, std::string* out) const;

  // Corruption naming the file and the data-stream position (with the
  // chunk and file offset that hold it).
  Status DataCorruption(uint64_t position, std::string_view what) const;

  const ChunkOffsets& chunks() const { return chunks_; }
  uint64_t data_size() const { return chunks_.data_size; }
  uint64_t chunk_length() const { return chunks_.chunk_length; }
  const std::string& path() const { return path_; }
  uint64_t cache_owner() const { return owner_; }

 private:
  Status LoadChunk(uint64_t index, std::string* out) const;

  std::string path_;
  std::unique_ptr<RandomAccessFile> file_;
  BlockCache* cache_;
  uint64_t owner_;
  ChunkOffsets chunks_;
  uint64_t blocks_end_;
};

}  // namespace cassette
