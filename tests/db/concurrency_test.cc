// Many threads writing to the same and different partitions while readers
// check that every mutation is seen whole or not at all, while flushes and
// compactions (background ones on a thread-pool scheduler, and explicit
// ones, major included, from another thread) replace the files under them. Also built under
// ThreadSanitizer
// (-DCASSETTE_TSAN=ON).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

constexpr int kRowsPerMutation = 5;

TEST(ConcurrencyTest, ReadersSeeWholeMutationsDuringWritesAndFlushes) {
  TestDb t;
  Options options = t.MakeOptions();
  options.scheduler = NewThreadPoolScheduler(2);
  options.memtable_flush_threshold = 32 << 10;  // frequent background flushes
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
  ASSERT_OK(t.db->CreateTable(SimpleTable()));
  Database& db = *t.db;

  constexpr int kWriters = 3;
  constexpr int kWritesPerWriter = 300;
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::atomic<int> reads{0};

  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 1; i <= kWritesPerWriter; ++i) {
        // Partition 0 is shared by every writer; the others are private.
        for (int32_t pk : {0, w + 1}) {
          Mutation m("ks", "t", {Value::Int(pk)});
          for (int ck = 0; ck < kRowsPerMutation; ++ck) {
            m.Insert({Value::Int(ck)}).Set("v", Value::Int(w * 100000 + i));
          }
          if (!db.Apply(m).ok()) ++failures;
        }
      }
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&] {
      while (!done) {
        for (int32_t pk = 0; pk <= kWriters; ++pk) {
          auto result = db.Read(ReadPartition(pk, {"v"}));
          if (!result.ok()) {
            ++failures;
            continue;
          }
          ++reads;
          const auto& rows = result->rows;
          if (rows.empty()) continue;
          if (rows.size() != kRowsPerMutation) ++failures;
          for (const ResultRow& row : rows) {
            if (!(row.values[0] == rows[0].values[0])) ++failures;  // a torn mutation
          }
        }
      }
    });
  }
  threads.emplace_back([&] {
    while (!done) {
      if (!db.Flush().ok()) ++failures;
    }
  });
  std::atomic<int> compactions{0};
  threads.emplace_back([&] {
    for (int round = 0; !done; ++round) {
      Status s = round % 4 == 3 ? db.CompactMajor("ks", "t") : db.Compact("ks", "t");
      if (!s.ok()) ++failures;
      ++compactions;
    }
  });
  for (int w = 0; w < kWriters; ++w) threads[w].join();
  done = true;
  for (size_t i = kWriters; i < threads.size(); ++i) threads[i].join();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(reads.load(), 0);
  EXPECT_GT(compactions.load(), 0);
  auto stats = db.GetTableStats("ks", "t");
  ASSERT_TRUE(stats.ok());
  EXPECT_GT(stats->compactions_completed, 0);
  for (int w = 0; w < kWriters; ++w) {
    auto result = db.Read(ReadPartition(w + 1, {"v"}));
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result->rows.size(), static_cast<size_t>(kRowsPerMutation));
    EXPECT_EQ(result->rows[0].values[0], Value::Int(w * 100000 + kWritesPerWriter));
  }
  ASSERT_OK(t.Reopen());
}

}  // namespace
}  // namespace cassette::testing
