// ChunkBufferPool: recycles the buffers that decompressed data chunks live
// in. A read that misses the block cache decompresses a chunk into a fresh
// 16 KiB-or-so buffer, and the chunk it evicts frees one of the same size:
// recycled, the buffer costs neither an allocation nor a zero-fill (a
// std::string grows only by filling) on every miss. Buffers go back when
// the last reference to their chunk goes, whoever holds it (the cache or a
// reader). Bounded: beyond kMaxBuffers free buffers, or for a buffer
// larger than kMaxBufferBytes, a returned buffer is freed. Thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/sstable/block_cache.h"

namespace cassette {

class ChunkBufferPool {
 public:
  static constexpr size_t kMaxBuffers = 64;
  static constexpr size_t kMaxBufferBytes = 1 << 20;

  // Gives a buffer back to the pool it came from.
  struct Returner {
    ChunkBufferPool* pool;
    void operator()(const std::string* buffer) const;
  };
  using Buffer = std::unique_ptr<std::string, Returner>;

  // The process's pool (never destroyed: chunks may outlive static
  // destruction in a reader still open).
  static ChunkBufferPool& Default();

  // A buffer to fill, of unspecified contents and size: resizing it to a
  // size it had before fills nothing.
  Buffer Take();
  // The filled buffer as a chunk for the cache and readers; it comes back
  // to the pool when the last reference goes.
  static BlockRef Share(Buffer buffer);

  size_t free_buffers() const;

 private:
  void Give(std::string* buffer);

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<std::string>> free_;
};

}  // namespace cassette
