#include "engine/sstable/block_cache.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace cassette {
namespace {

BlockRef Block(size_t n, char c = 'x') { return std::make_shared<const std::string>(n, c); }

TEST(BlockCache, HitMissAndLruEviction) {
  BlockCache cache(300, 0);  // one shard
  cache.Insert(1, 0, Block(100, 'a'));
  cache.Insert(1, 1, Block(100, 'b'));
  cache.Insert(1, 2, Block(100, 'c'));
  EXPECT_EQ(cache.usage(), 300u);
  ASSERT_NE(cache.Lookup(1, 0), nullptr);  // 0 becomes most recent
  cache.Insert(1, 3, Block(100, 'd'));     // evicts 1, the least recent
  EXPECT_EQ(cache.Lookup(1, 1), nullptr);
  EXPECT_EQ(*cache.Lookup(1, 0), std::string(100, 'a'));
  EXPECT_NE(cache.Lookup(1, 2), nullptr);
  EXPECT_NE(cache.Lookup(1, 3), nullptr);
  EXPECT_EQ(cache.Lookup(2, 0), nullptr);  // other owner
  EXPECT_EQ(cache.usage(), 300u);
  EXPECT_EQ(cache.hits(), 4u);
  EXPECT_EQ(cache.misses(), 2u);
}

TEST(BlockCache, OversizedBlocksAreNotCachedAndReplaceWorks) {
  BlockCache cache(100, 0);
  cache.Insert(1, 0, Block(101));
  EXPECT_EQ(cache.Lookup(1, 0), nullptr);
  EXPECT_EQ(cache.usage(), 0u);
  cache.Insert(1, 0, Block(10, 'a'));
  cache.Insert(1, 0, Block(20, 'b'));
  EXPECT_EQ(cache.usage(), 20u);
  EXPECT_EQ(*cache.Lookup(1, 0), std::string(20, 'b'));
  cache.Erase(1, 0);
  EXPECT_EQ(cache.usage(), 0u);
  EXPECT_EQ(cache.Lookup(1, 0), nullptr);
}

TEST(BlockCache, EvictedBlocksStayAliveForHolders) {
  BlockCache cache(100, 0);
  cache.Insert(1, 0, Block(60, 'a'));
  BlockRef held = cache.Lookup(1, 0);
  cache.Insert(1, 1, Block(60, 'b'));
  EXPECT_EQ(cache.Lookup(1, 0), nullptr);
  EXPECT_EQ(*held, std::string(60, 'a'));
}

TEST(BlockCache, OwnerIdsAreUnique) {
  EXPECT_NE(BlockCache::NewOwnerId(), BlockCache::NewOwnerId());
}

TEST(BlockCache, ConcurrentUseKeepsUsageWithinCapacity) {
  BlockCache cache(64 * 1024, 4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (uint64_t i = 0; i < 2000; ++i) {
        const uint64_t block = (i * 7 + static_cast<uint64_t>(t)) % 300;
        BlockRef b = cache.Lookup(1, block);
        if (b == nullptr) {
          cache.Insert(1, block, Block(512, static_cast<char>('a' + block % 26)));
        } else {
          EXPECT_EQ((*b)[0], static_cast<char>('a' + block % 26));
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(cache.usage(), cache.capacity());
  EXPECT_GT(cache.hits(), 0u);
}

}  // namespace
}  // namespace cassette
