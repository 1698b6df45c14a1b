// LCS moving a lone file up a level without rewriting it
// (single_sstable_uplevel: CompactionTask::move_only from
// leveled_compaction_strategy.cc, DatabaseImpl::MoveSSTables) paired with
// its general twin, rewriting that file into the next level
// (docs/ARCHITECTURE.md "Fast paths and their general twins"). Two
// databases on equal manual clocks get the same random writes (rows of
// random payloads, overwrites, deletions, TTLs) in rounds, each round
// flushed and compacted until the strategy has nothing left to do; one
// table has single_sstable_uplevel on, the other off (the option
// Cassandra's LeveledCompactionStrategy has, which is the seam). After
// every round, and later once TTLs have run out, the whole table and
// random partitions read the same both ways; the moves must have happened
// on one side and never on the other. The seed is printed on failure;
// CASSETTE_SEED replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/util/random.h"
#include "tests/db/db_test_util.h"
#include "tests/db/pairing_test_util.h"

namespace cassette::testing {
namespace {

constexpr int kPartitions = 2000;

// Moves happen when a level outgrows its target: 1 MiB files, fanout 2
// (L1 holds 2 MiB), so a few MiB of random payloads reach L2.
TableSchema BlobTable(bool single_sstable_uplevel) {
  TableSchema schema("ks", "blobs");
  schema.AddPartitionKey("id", DataType::Int())
      .AddClustering("ck", DataType::Int())
      .AddRegular("payload", DataType::Text())
      .AddRegular("n", DataType::Int());
  schema.mutable_options().compaction = {
      {"class", "LeveledCompactionStrategy"},
      {"sstable_size_in_mb", "1"},
      {"fanout_size", "2"},
      {"single_sstable_uplevel", single_sstable_uplevel ? "true" : "false"}};
  return schema;
}

Mutation RandomWrite(Random& rnd) {
  Mutation m("ks", "blobs", {Value::Int(static_cast<int32_t>(rnd.Uniform(kPartitions)))});
  const Value ck = Value::Int(static_cast<int32_t>(rnd.Uniform(3)));
  if (rnd.OneIn(12)) {
    m.DeleteRow({ck});
    return m;
  }
  if (rnd.OneIn(30)) {
    m.DeletePartition();
    return m;
  }
  if (rnd.OneIn(6)) m.UsingTtl(static_cast<int32_t>(rnd.Range(10, 600)));
  // Random letters: about 60% of their size once compressed.
  std::string payload(static_cast<size_t>(rnd.Range(1000, 3000)), ' ');
  for (char& c : payload) c = static_cast<char>('a' + rnd.Uniform(26));
  m.Insert({ck})
      .Set("payload", Value::Text(payload))
      .Set("n", Value::Int(static_cast<int32_t>(rnd.Uniform(100))));
  return m;
}

// Moves (no bytes written, the inputs are the outputs) among the recent
// compactions.
int Moves(Database& db) {
  auto stats = db.GetTableStats("ks", "blobs");
  EXPECT_TRUE(stats.ok());
  if (!stats.ok()) return 0;
  int moves = 0;
  for (const CompactionRecord& record : stats->recent_compactions) {
    if (!record.inputs.empty() && record.bytes_written == 0 && record.outputs == record.inputs) {
      ++moves;
    }
  }
  return moves;
}

TEST(LcsMovePairingTest, MovingAFileUpReadsAsRewritingIt) {
  const uint64_t seed = PairingSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Random rnd(seed);
  TestDb moving, rewriting;
  for (TestDb* t : {&moving, &rewriting}) {
    Options options = t->MakeOptions();
    options.auto_compaction = false;
    ASSERT_OK(t->Open(options));
    ASSERT_OK(t->db->CreateKeyspace({.name = "ks"}));
  }
  ASSERT_OK(moving.db->CreateTable(BlobTable(true)));
  ASSERT_OK(rewriting.db->CreateTable(BlobTable(false)));

  auto expect_same_reads = [&](const std::string& when) {
    SCOPED_TRACE(when);
    ASSERT_EQ(FirstDifference(ReadTable(*moving.db, "blobs"), ReadTable(*rewriting.db, "blobs")),
              "");
    for (int i = 0; i < 40; ++i) {
      ReadQuery query;
      query.keyspace = "ks";
      query.table = "blobs";
      query.partition_keys = {{Value::Int(static_cast<int32_t>(rnd.Uniform(kPartitions)))}};
      query.with_cell_metadata = true;
      query.reversed = rnd.OneIn(2);
      ASSERT_EQ(
          FirstDifference(ReadAllPages(*moving.db, query), ReadAllPages(*rewriting.db, query)), "");
    }
  };

  int moves = 0;
  for (int round = 0; round < 5; ++round) {
    const int writes = static_cast<int>(rnd.Range(400, 900));
    for (int i = 0; i < writes; ++i) {
      const Mutation m = RandomWrite(rnd);
      ASSERT_OK(moving.db->Apply(m));
      ASSERT_OK(rewriting.db->Apply(m));
      if (rnd.OneIn(300)) {
        ASSERT_OK(moving.db->Flush());
        ASSERT_OK(rewriting.db->Flush());
      }
    }
    ASSERT_OK(moving.db->Flush());
    ASSERT_OK(rewriting.db->Flush());
    ASSERT_OK(moving.db->Compact("ks", "blobs"));
    ASSERT_OK(rewriting.db->Compact("ks", "blobs"));
    moves = std::max(moves, Moves(*moving.db));
    ASSERT_EQ(Moves(*rewriting.db), 0) << "round " << round;
    ASSERT_NO_FATAL_FAILURE(expect_same_reads("round " + std::to_string(round)));
    const int64_t seconds = rnd.Range(1, 200);
    moving.Advance(seconds);
    rewriting.Advance(seconds);
  }
  // After every TTL has run out.
  moving.Advance(700);
  rewriting.Advance(700);
  ASSERT_NO_FATAL_FAILURE(expect_same_reads("after the TTLs"));
  auto levels = moving.db->GetTableStats("ks", "blobs");
  ASSERT_TRUE(levels.ok());
  EXPECT_GT(moves, 0) << "no file moved up: the pairing compared nothing";
  std::printf("lcs move pairing: %d moves among the recent compactions, %zu levels\n", moves,
              levels->sstables_per_level.size());
}

}  // namespace
}  // namespace cassette::testing
