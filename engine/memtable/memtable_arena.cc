#include "engine/memtable/memtable_arena.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace cassette {
namespace {

constexpr size_t kAlign = alignof(std::max_align_t) > 8 ? alignof(std::max_align_t) : 8;
static_assert((kAlign & (kAlign - 1)) == 0, "alignment must be a power of two");

}  // namespace

char* MemtableArena::Allocate(size_t bytes) {
  assert(bytes > 0);
  if (bytes <= remaining_) {
    char* result = alloc_ptr_;
    alloc_ptr_ += bytes;
    remaining_ -= bytes;
    return result;
  }
  return AllocateFallback(bytes);
}

char* MemtableArena::AllocateAligned(size_t bytes) {
  assert(bytes > 0);
  size_t misalignment = reinterpret_cast<uintptr_t>(alloc_ptr_) & (kAlign - 1);
  size_t slop = misalignment == 0 ? 0 : kAlign - misalignment;
  size_t needed = bytes + slop;
  if (needed <= remaining_) {
    char* result = alloc_ptr_ + slop;
    alloc_ptr_ += needed;
    remaining_ -= needed;
    return result;
  }
  // New blocks come from operator new[], which aligns for max_align_t.
  return AllocateFallback(bytes);
}

char* MemtableArena::AllocateFallback(size_t bytes) {
  if (bytes > kLargeAllocation) return NewBlock(bytes);
  // The rest of the current block is abandoned: less than `bytes`, so at
  // most a quarter block.
  size_t block_size = next_block_size_;
  while (block_size < bytes) block_size *= 2;  // bytes <= kLargeAllocation < kBlockSize
  next_block_size_ = std::min(block_size * 2, kBlockSize);
  alloc_ptr_ = NewBlock(block_size);
  remaining_ = block_size;
  char* result = alloc_ptr_;
  alloc_ptr_ += bytes;
  remaining_ -= bytes;
  return result;
}

char* MemtableArena::NewBlock(size_t bytes) {
  // Rounded up so that every block starts and ends on the alignment.
  bytes = (bytes + kAlign - 1) & ~(kAlign - 1);
  blocks_.push_back(std::make_unique_for_overwrite<char[]>(bytes));
  memory_usage_.fetch_add(bytes + sizeof(std::unique_ptr<char[]>), std::memory_order_relaxed);
  return blocks_.back().get();
}

}  // namespace cassette
