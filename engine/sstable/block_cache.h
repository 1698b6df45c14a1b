// BlockCache: a sharded LRU cache of decompressed SSTable blocks (data
// chunks and index blocks), keyed by (owner, block id) where the owner is a
// reader's unique id. Capacity is in bytes of cached payload; each shard
// holds an equal share and evicts its least recently used blocks. An entry
// larger than a shard's share is not cached.
//
// Safe for concurrent access from multiple threads without any external
// synchronization. Values are shared, immutable strings: a block stays
// alive while a reader uses it even after eviction.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace cassette {

using BlockRef = std::shared_ptr<const std::string>;

class BlockCache {
 public:
  // 2^shard_bits shards (capped at 2^8).
  explicit BlockCache(size_t capacity_bytes, int shard_bits = 4);
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // nullptr on a miss.
  BlockRef Lookup(uint64_t owner, uint64_t block);
  // Replaces any entry with the same key.
  void Insert(uint64_t owner, uint64_t block, BlockRef value);
  void Erase(uint64_t owner, uint64_t block);

  // A process-unique owner id for a new reader.
  static uint64_t NewOwnerId();

  size_t capacity() const { return capacity_; }
  size_t usage() const;
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  struct Key {
    uint64_t owner;
    uint64_t block;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Shard {
    std::mutex mu;
    size_t usage = 0;  // guarded by mu
    // Most recently used first; guarded by mu.
    std::list<std::pair<Key, BlockRef>> lru;
    std::unordered_map<Key, std::list<std::pair<Key, BlockRef>>::iterator, KeyHash> map;
  };

  Shard& ShardFor(const Key& k);

  size_t capacity_;
  size_t shard_capacity_;
  std::vector<std::unique_ptr<Shard>> shards_;
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

}  // namespace cassette
