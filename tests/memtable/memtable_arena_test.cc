// MemtableArena: alignment, large allocations, accounting, and that bytes
// written stay put while more is allocated.
#include "engine/memtable/memtable_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "engine/util/random.h"
#include "tests/memtable/memtable_test_util.h"

namespace cassette {
namespace {

TEST(MemtableArenaTest, StartsEmpty) {
  MemtableArena arena;
  EXPECT_EQ(arena.MemoryUsage(), 0u);
}

// A memtable's budget counts its arena: a nearly empty one must not cost a
// whole 32 KiB block, and a full one must not pay for many small blocks.
TEST(MemtableArenaTest, BlocksGrowFromAKilobyte) {
  MemtableArena arena;
  arena.AllocateAligned(100);
  const size_t first = arena.MemoryUsage();
  EXPECT_GE(first, 100u);
  EXPECT_LE(first, 2048u);
  for (int i = 0; i < 10000; ++i) arena.Allocate(100);
  // 1 MB in blocks that quickly reach full size: little beyond the bytes.
  EXPECT_LT(arena.MemoryUsage(), 1'000'000u + 2 * 32 * 1024);
}

TEST(MemtableArenaTest, MixedAllocationsKeepTheirBytes) {
  Random rnd(memtable_test::TestSeed());
  MemtableArena arena;
  std::vector<std::pair<char*, size_t>> blocks;
  size_t total = 0;
  for (int i = 0; i < 2000; ++i) {
    // Mostly small, sometimes above the large-allocation threshold.
    size_t n = rnd.OneIn(50) ? 1 + rnd.Uniform(40000) : 1 + rnd.Uniform(200);
    bool aligned = rnd.OneIn(2);
    char* p = aligned ? arena.AllocateAligned(n) : arena.Allocate(n);
    ASSERT_NE(p, nullptr);
    if (aligned) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 8, 0u);
    }
    std::memset(p, static_cast<char>(i), n);
    blocks.emplace_back(p, n);
    total += n;
    EXPECT_GE(arena.MemoryUsage(), total);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    auto [p, n] = blocks[i];
    for (size_t j = 0; j < n; ++j) ASSERT_EQ(p[j], static_cast<char>(i)) << i;
  }
  // Waste stays bounded: at most the abandoned tails and block headers.
  EXPECT_LT(arena.MemoryUsage(), total * 2 + 64 * 1024);
}

}  // namespace
}  // namespace cassette
