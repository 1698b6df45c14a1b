// Whole-SSTable expiry (FullyExpiredSSTables,
// engine/compaction/fully_expired_sstables.cc: a file whose every cell and
// tombstone is purgeable, shadowing nothing older elsewhere, is dropped
// without being read) paired with its general twin, rewriting the same
// files through CompactionIterator, which purges the same data
// (docs/ARCHITECTURE.md "Fast paths and their general twins";
// docs/COMPACTION.md for the rule). Two databases on equal manual clocks
// get the same random TTL data (rows, statics, collections, deletions,
// some data that never expires) over random TWCS windows, flushed window
// by window. One compacts with the drop (the strategy's background tasks
// or a major compaction); the other only by major compactions with the
// drop turned off (SetWholeSSTableExpiryForTesting(false)), so every file
// is rewritten. After each compaction, and at later and later times, every
// read of every partition and of the whole table gives the same rows,
// write times and TTLs. The seed is printed on failure; CASSETTE_SEED
// replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/compaction/compaction_common_options.h"
#include "engine/util/random.h"
#include "tests/db/db_test_util.h"
#include "tests/db/pairing_test_util.h"

namespace cassette::testing {
namespace {

struct ExpiryRestorer {
  ~ExpiryRestorer() { SetWholeSSTableExpiryForTesting(true); }
};

constexpr int kPartitions = 16;

// With `forever`, some writes have no TTL. Such data blocks the drop of
// every older file it overlaps (FullyExpiredSSTables' rule), so the test
// writes it only in its last windows.
Mutation RandomTtlMutation(Random& rnd, bool forever) {
  Mutation m("ks", "t", {Value::Int(static_cast<int32_t>(rnd.Uniform(kPartitions)))});
  // Mostly short TTLs, so that whole windows expire; some long ones, so
  // that newer short-lived data shadows older data that outlives it (the
  // case where dropping a file whole would bring that older data back if
  // the overlap rule were wrong); some data lives on.
  if (!forever || !rnd.OneIn(8)) {
    m.UsingTtl(static_cast<int32_t>(rnd.OneIn(6) ? rnd.Range(300, 900) : rnd.Range(5, 40)));
  }
  const int32_t at = static_cast<int32_t>(rnd.Uniform(10));
  const Value ck = Value::Int(at);
  switch (rnd.Uniform(10)) {
    case 0:
      m.DeleteRow({ck});
      break;
    case 1:
      m.Update({}).Set("s", Value::Int(static_cast<int32_t>(rnd.Uniform(100))));
      break;
    case 2:
      m.Update({ck}).Add("tags",
                         {Value::Text(std::string(1, static_cast<char>('a' + rnd.Uniform(4))))});
      break;
    case 3:
      m.DeleteRange({{ck}, true},
                    {{Value::Int(at + static_cast<int32_t>(rnd.Uniform(4)))}, rnd.OneIn(2)});
      break;
    default:
      m.Insert({ck}).Set("v", Value::Int(static_cast<int32_t>(rnd.Uniform(1000))));
  }
  return m;
}

class ExpiryDropPairing {
 public:
  explicit ExpiryDropPairing(uint64_t seed) : rnd_(seed) {}

  void Run() {
    for (TestDb* t : {&dropping_, &rewriting_}) {
      Options options = t->MakeOptions();
      options.auto_compaction = false;
      ASSERT_OK(t->Open(options));
      ASSERT_OK(t->db->CreateKeyspace({.name = "ks"}));
    }
    TableSchema schema = SimpleTable();
    schema.mutable_options().gc_grace_seconds = rnd_.OneIn(2) ? 0 : 60;
    schema.mutable_options().compaction = {{"class", "TimeWindowCompactionStrategy"},
                                           {"compaction_window_unit", "MINUTES"},
                                           {"compaction_window_size", "1"},
                                           {"min_threshold", "2"}};
    for (TestDb* t : {&dropping_, &rewriting_}) ASSERT_OK(t->db->CreateTable(schema));

    for (int window = 0; window < 40; ++window) {
      const int writes = static_cast<int>(rnd_.Range(1, 25));
      for (int i = 0; i < writes; ++i) {
        const Mutation m = RandomTtlMutation(rnd_, window >= 32);
        ASSERT_OK(dropping_.db->Apply(m));
        ASSERT_OK(rewriting_.db->Apply(m));
      }
      ASSERT_OK(dropping_.db->Flush());
      ASSERT_OK(rewriting_.db->Flush());
      AdvanceBoth(rnd_.Range(20, 90));
      if (rnd_.OneIn(3)) {
        ASSERT_NO_FATAL_FAILURE(CompactBoth());
        ASSERT_NO_FATAL_FAILURE(ExpectSameReads("window " + std::to_string(window)));
      }
    }
    ASSERT_NO_FATAL_FAILURE(CompactBoth());
    // Every later now: the TTLs run out one after another.
    for (int step = 0; step < 12; ++step) {
      ASSERT_NO_FATAL_FAILURE(ExpectSameReads("late step " + std::to_string(step)));
      AdvanceBoth(rnd_.Range(1, 150));
      if (rnd_.OneIn(3)) {
        ASSERT_NO_FATAL_FAILURE(CompactBoth());
      }
    }
  }

  int dropped_files() const { return dropped_files_; }

 private:
  void AdvanceBoth(int64_t seconds) {
    dropping_.Advance(seconds);
    rewriting_.Advance(seconds);
  }

  void CompactBoth() {
    SetWholeSSTableExpiryForTesting(true);
    ASSERT_OK(rnd_.OneIn(8) ? dropping_.db->CompactMajor("ks", "t")
                            : dropping_.db->Compact("ks", "t"));
    SetWholeSSTableExpiryForTesting(false);
    const Status rewritten = rewriting_.db->CompactMajor("ks", "t");
    SetWholeSSTableExpiryForTesting(true);
    ASSERT_OK(rewritten);
    auto stats = dropping_.db->GetTableStats("ks", "t");
    ASSERT_TRUE(stats.ok());
    int dropped = 0;
    for (const CompactionRecord& record : stats->recent_compactions) {
      dropped += static_cast<int>(record.expired.size());
    }
    dropped_files_ = std::max(dropped_files_, dropped);
    auto rewriter = rewriting_.db->GetTableStats("ks", "t");
    ASSERT_TRUE(rewriter.ok());
    for (const CompactionRecord& record : rewriter->recent_compactions) {
      ASSERT_TRUE(record.expired.empty()) << "the twin dropped a file whole";
    }
  }

  void ExpectSameReads(const std::string& when) {
    SCOPED_TRACE(when);
    ASSERT_EQ(FirstDifference(ReadTable(*dropping_.db, "t"), ReadTable(*rewriting_.db, "t")), "");
    for (int pk = 0; pk < kPartitions; ++pk) {
      ReadQuery query = ReadPartition(pk);
      query.with_cell_metadata = true;
      query.reversed = rnd_.OneIn(2);
      ASSERT_EQ(
          FirstDifference(ReadAllPages(*dropping_.db, query), ReadAllPages(*rewriting_.db, query)),
          "")
          << "partition " << pk;
    }
  }

  Random rnd_;
  TestDb dropping_;
  TestDb rewriting_;
  int dropped_files_ = 0;
};

TEST(ExpiryDropPairingTest, DroppingExpiredFilesReadsAsRewritingThem) {
  const uint64_t seed = PairingSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  ExpiryRestorer restorer;
  int dropped = 0;
  for (uint64_t round = 0; round < 4; ++round) {
    ExpiryDropPairing pairing(seed + round);
    ASSERT_NO_FATAL_FAILURE(pairing.Run());
    dropped += pairing.dropped_files();
  }
  // The drop happened: the pairing compared something.
  EXPECT_GT(dropped, 0);
  std::printf("expiry drop pairing: at least %d files dropped whole\n", dropped);
}

}  // namespace
}  // namespace cassette::testing
