#include "engine/sstable/block_cache.h"

#include <algorithm>

namespace cassette {

size_t BlockCache::KeyHash::operator()(const Key& k) const {
  // Mix both halves; block ids of one owner are dense small integers.
  uint64_t h = k.owner * 0x9E3779B97F4A7C15ULL ^ (k.block + 0x632BE59BD9B4E019ULL);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return static_cast<size_t>(h);
}

BlockCache::BlockCache(size_t capacity_bytes, int shard_bits) : capacity_(capacity_bytes) {
  const int bits = std::clamp(shard_bits, 0, 8);
  const size_t n = size_t{1} << bits;
  shard_capacity_ = capacity_bytes / n;
  shards_.reserve(n);
  for (size_t i = 0; i < n; ++i) shards_.push_back(std::make_unique<Shard>());
}

BlockCache::Shard& BlockCache::ShardFor(const Key& k) {
  const size_t h = KeyHash{}(k);
  return *shards_[(h >> 32) & (shards_.size() - 1)];
}

BlockRef BlockCache::Lookup(uint64_t owner, uint64_t block) {
  const Key key{owner, block};
  Shard& s = ShardFor(key);
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.map.find(key);
  if (it == s.map.end()) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  hits_.fetch_add(1, std::memory_order_relaxed);
  s.lru.splice(s.lru.begin(), s.lru, it->second);
  return it->second->second;
}

void BlockCache::Insert(uint64_t owner, uint64_t block, BlockRef value) {
  if (value == nullptr) return;
  const Key key{owner, block};
  const size_t charge = value->size();
  Shard& s = ShardFor(key);
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.map.find(key);
  if (it != s.map.end()) {
    s.usage -= it->second->second->size();
    s.lru.erase(it->second);
    s.map.erase(it);
  }
  if (charge > shard_capacity_) return;
  while (s.usage + charge > shard_capacity_ && !s.lru.empty()) {
    auto& victim = s.lru.back();
    s.usage -= victim.second->size();
    s.map.erase(victim.first);
    s.lru.pop_back();
  }
  s.lru.emplace_front(key, std::move(value));
  s.map.emplace(key, s.lru.begin());
  s.usage += charge;
}

void BlockCache::Erase(uint64_t owner, uint64_t block) {
  const Key key{owner, block};
  Shard& s = ShardFor(key);
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.map.find(key);
  if (it == s.map.end()) return;
  s.usage -= it->second->second->size();
  s.lru.erase(it->second);
  s.map.erase(it);
}

uint64_t BlockCache::NewOwnerId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

size_t BlockCache::usage() const {
  size_t total = 0;
  for (const auto& s : shards_) {
    std::lock_guard<std::mutex> lock(s->mu);
    total += s->usage;
  }
  return total;
}

}  // namespace cassette
