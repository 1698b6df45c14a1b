#include "engine/sstable/chunk_buffer_pool.h"

#include <utility>

namespace cassette {

void ChunkBufferPool::Returner::operator()(const std::string* buffer) const {
  // The pool handed the buffer out mutable; the chunk shared it read-only.
  pool->Give(const_cast<std::string*>(buffer));
}

ChunkBufferPool& ChunkBufferPool::Default() {
  static ChunkBufferPool* pool = new ChunkBufferPool();
  return *pool;
}

ChunkBufferPool::Buffer ChunkBufferPool::Take() {
  std::unique_ptr<std::string> buffer;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!free_.empty()) {
      buffer = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (buffer == nullptr) buffer = std::make_unique<std::string>();
  return Buffer(buffer.release(), Returner{this});
}

BlockRef ChunkBufferPool::Share(Buffer buffer) {
  const Returner returner = buffer.get_deleter();
  return BlockRef(buffer.release(), returner);
}

void ChunkBufferPool::Give(std::string* buffer) {
  std::unique_ptr<std::string> owned(buffer);
  if (owned->capacity() > kMaxBufferBytes) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (free_.size() < kMaxBuffers) free_.push_back(std::move(owned));
}

size_t ChunkBufferPool::free_buffers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return free_.size();
}

}  // namespace cassette
