// MemtableArena: bump allocation for a memtable's nodes and encoded rows.
// Nothing is freed until the arena dies, which is what makes lock-free
// reads safe: a reader holding a pointer into the arena never sees it
// recycled while the memtable lives.
//
// Thread safety: Allocate* must be called by one thread at a time (the
// memtable's writer, under its mutex). MemoryUsage() may be called from any
// thread at any time.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

namespace cassette {

class MemtableArena {
 public:
  MemtableArena() = default;
  MemtableArena(const MemtableArena&) = delete;
  MemtableArena& operator=(const MemtableArena&) = delete;

  // Unaligned bytes (encoded rows, keys). REQUIRES: bytes > 0.
  char* Allocate(size_t bytes);
  // Bytes aligned for any object the memtable places in the arena (nodes
  // holding pointers and atomics). REQUIRES: bytes > 0.
  char* AllocateAligned(size_t bytes);

  // Bytes reserved from the system so far, block headers included.
  size_t MemoryUsage() const { return memory_usage_.load(std::memory_order_relaxed); }

 private:
  // Blocks are large enough that the per-block overhead is noise, small
  // enough that an idle memtable costs little.
  static constexpr size_t kBlockSize = 32 * 1024;
  // The first blocks are smaller, doubling up to kBlockSize: an empty
  // memtable (a fresh one follows every flush) then costs about a
  // kilobyte, not a whole block of its table's memtable budget, which may
  // be only a few kilobytes.
  static constexpr size_t kFirstBlockSize = 1024;
  // Requests above this get a block of their own, so a big row does not
  // waste the tail of the current block.
  static constexpr size_t kLargeAllocation = kBlockSize / 4;

  char* AllocateFallback(size_t bytes);
  char* NewBlock(size_t bytes);

  char* alloc_ptr_ = nullptr;
  size_t remaining_ = 0;
  size_t next_block_size_ = kFirstBlockSize;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::atomic<size_t> memory_usage_{0};
};

}  // namespace cassette
