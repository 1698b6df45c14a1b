#include "engine/sstable/chunk_buffer_pool.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace cassette {
namespace {

TEST(ChunkBufferPool, AChunksBufferComesBackWhenItsLastReferenceGoes) {
  ChunkBufferPool pool;
  ChunkBufferPool::Buffer buffer = pool.Take();
  buffer->assign(16384, 'a');
  const std::string* address = buffer.get();
  BlockRef chunk = ChunkBufferPool::Share(std::move(buffer));
  BlockRef reader = chunk;  // a reader still holds it after the cache let go
  chunk.reset();
  EXPECT_EQ(pool.free_buffers(), 0u);
  EXPECT_EQ(*reader, std::string(16384, 'a'));
  reader.reset();
  EXPECT_EQ(pool.free_buffers(), 1u);

  // The next chunk reuses it: same buffer, and resizing it to the size it
  // had fills nothing (its old bytes are still there until overwritten).
  ChunkBufferPool::Buffer again = pool.Take();
  EXPECT_EQ(again.get(), address);
  EXPECT_EQ(pool.free_buffers(), 0u);
  again->resize(16384);
  EXPECT_EQ((*again)[16383], 'a');
}

TEST(ChunkBufferPool, AFailedLoadsBufferComesBackToo) {
  ChunkBufferPool pool;
  {
    ChunkBufferPool::Buffer buffer = pool.Take();
    buffer->resize(100);
  }  // never shared: the load failed
  EXPECT_EQ(pool.free_buffers(), 1u);
}

TEST(ChunkBufferPool, KeepsAtMostItsBoundOfBuffersAndNoHugeOnes) {
  ChunkBufferPool pool;
  std::vector<BlockRef> chunks;
  for (size_t i = 0; i < ChunkBufferPool::kMaxBuffers + 10; ++i) {
    ChunkBufferPool::Buffer buffer = pool.Take();
    buffer->resize(64);
    chunks.push_back(ChunkBufferPool::Share(std::move(buffer)));
  }
  chunks.clear();
  EXPECT_EQ(pool.free_buffers(), ChunkBufferPool::kMaxBuffers);

  ChunkBufferPool small;
  ChunkBufferPool::Buffer huge = small.Take();
  huge->resize(ChunkBufferPool::kMaxBufferBytes + 1);
  huge.reset();
  EXPECT_EQ(small.free_buffers(), 0u);
}

TEST(ChunkBufferPool, ThreadsTakeAndReturnConcurrently) {
  ChunkBufferPool pool;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < 2000; ++i) {
        ChunkBufferPool::Buffer buffer = pool.Take();
        buffer->assign(1000, static_cast<char>('a' + t));
        BlockRef chunk = ChunkBufferPool::Share(std::move(buffer));
        EXPECT_EQ((*chunk)[999], static_cast<char>('a' + t));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_GE(pool.free_buffers(), 1u);
  EXPECT_LE(pool.free_buffers(), 4u);
}

}  // namespace
}  // namespace cassette
