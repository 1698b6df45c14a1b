// Concurrency: writers apply multi-row updates while readers read; every
// update writes one value to rows r1..r5 of a partition, so a reader that
// ever saw part of an update would see rows that disagree. Run under ASan
// and TSan builds.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "engine/memtable/memtable.h"
#include "tests/memtable/memtable_test_util.h"

namespace cassette {
namespace {

using memtable_test::Ck;
using memtable_test::LiveRow;
using memtable_test::Name;

constexpr int kPartitions = 4;
constexpr int kWriters = 3;
constexpr int kReaders = 3;
constexpr int kUpdatesPerWriter = 1500;

DecoratedKey Key(int p) { return DecoratedKey::FromKey(Name("partition-", p)); }

PartitionUpdate FiveRows(int p, int64_t ts, const std::string& value) {
  PartitionUpdate u;
  u.key = Key(p);
  for (int r = 1; r <= 5; ++r) u.rows.push_back(LiveRow(Ck(r), ts, 1, value));
  u.static_row = LiveRow("", ts, 9, value);
  return u;
}

// The value every row carries; fails the test on a mix or a gap.
std::string CheckConsistent(const PartitionContent& c, bool reversed) {
  std::string value;
  int count = 0;
  int64_t ts = 0;
  for (RowIterator* it = c.rows.get(); it->Valid(); it->Next()) {
    const Row& row = it->row();
    ++count;
    const std::string& v = row.columns.at(0).cells.at(0).value;
    if (count == 1) {
      value = v;
      ts = row.marker.timestamp;
      EXPECT_EQ(row.clustering, Ck(reversed ? 5 : 1));
    }
    EXPECT_EQ(v, value) << "a reader saw part of an update";
    EXPECT_EQ(row.marker.timestamp, ts);
  }
  EXPECT_EQ(count, 5) << "rows missing";
  EXPECT_EQ(c.static_row.columns.at(0).cells.at(0).value, value) << "static row out of step";
  return value;
}

TEST(MemtableConcurrencyTest, ReadersNeverSeePartialUpdates) {
  Memtable m;
  // Every partition starts with a complete update, so readers always find it.
  for (int p = 0; p < kPartitions; ++p) m.Apply(FiveRows(p, 0, "init"));

  std::atomic<int64_t> clock{1};
  std::atomic<int> writers_running{kWriters};
  std::atomic<int64_t> reads{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kUpdatesPerWriter; ++i) {
        // Timestamps rise, so the newest update wins every row it writes.
        int64_t ts = clock.fetch_add(1);
        m.Apply(FiveRows((w + i) % kPartitions, ts, Name(Name("w", w) + "-", i)));
      }
      writers_running.fetch_sub(1);
    });
  }
  for (int r = 0; r < kReaders; ++r) {
    threads.emplace_back([&, r] {
      int64_t n = 0;
      // Keep reading while writers run, and at least a few rounds.
      while (writers_running.load() > 0 || n < 20) {
        int p = static_cast<int>(n % kPartitions);
        bool reversed = (n + r) % 2 == 1;
        std::optional<PartitionContent> c =
            m.ReadPartition(Key(p), ClusteringRange::All(), reversed);
        EXPECT_TRUE(c.has_value());
        if (c) CheckConsistent(*c, reversed);
        if (n % 8 == 0) {
          int seen = 0;
          for (auto it = m.NewIterator(); it->Valid(); it->Next()) {
            CheckConsistent(it->partition(), false);
            ++seen;
          }
          EXPECT_EQ(seen, kPartitions);
        }
        ++n;
        if (::testing::Test::HasFailure()) break;
      }
      reads.fetch_add(n);
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_GT(reads.load(), 0);

  // At the end each partition holds its newest update.
  for (int p = 0; p < kPartitions; ++p) {
    std::optional<PartitionContent> c = m.ReadPartition(Key(p), ClusteringRange::All(), false);
    ASSERT_TRUE(c.has_value());
    CheckConsistent(*c, false);
  }
  EXPECT_EQ(m.MaxTimestamp(), kWriters * kUpdatesPerWriter);
}

TEST(MemtableConcurrencyTest, ConcurrentWritersToManyPartitionsLoseNothing) {
  Memtable m;
  constexpr int kPerWriter = 2000;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; ++i) {
        PartitionUpdate u;
        u.key = DecoratedKey::FromKey(Name(Name("w", w) + "-", i % 50));
        u.rows.push_back(LiveRow(Ck(i), i, 1, "v"));
        m.Apply(u);
      }
    });
  }
  // A scanner runs alongside: partition order must hold in every snapshot.
  threads.emplace_back([&] {
    for (int n = 0; n < 30; ++n) {
      DecoratedKey prev;
      bool first = true;
      for (auto it = m.NewIterator(); it->Valid(); it->Next()) {
        if (!first) {
          EXPECT_TRUE(prev < it->partition().key);
        }
        prev = it->partition().key;
        first = false;
      }
    }
  });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(m.partition_count(), static_cast<size_t>(kWriters * 50));
  size_t rows = 0;
  for (auto it = m.NewIterator(); it->Valid(); it->Next()) {
    for (RowIterator* r = it->partition().rows.get(); r->Valid(); r->Next()) ++rows;
  }
  EXPECT_EQ(rows, static_cast<size_t>(kWriters * kPerWriter));
}

}  // namespace
}  // namespace cassette
