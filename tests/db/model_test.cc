// A randomized model test: thousands of random writes, updates, TTLs, every
// deletion kind and explicit timestamps (with deliberate ties), checked
// after every step against ReferenceModel, an obviously-correct map that
// re-derives visibility from first principles. Flushes, clock advances and
// reopens happen at random points. The seed is printed; set CASSETTE_SEED
// to replay one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <random>

#include "engine/mutation/timestamps.h"
#include "tests/db/db_test_util.h"
#include "tests/db/reference_model.h"

namespace cassette::testing {
namespace {

constexpr int kPartitions = 4;
constexpr int kClusterings = 6;

// The strategy whose compactions run at random points; none of them may
// change what a read returns.
const char* const kStrategies[] = {"SizeTieredCompactionStrategy", "LeveledCompactionStrategy",
                                   "TimeWindowCompactionStrategy", "UnifiedCompactionStrategy"};

class ModelTest : public ::testing::TestWithParam<int> {};

uint64_t SeedFor(int param) {
  if (const char* env = std::getenv("CASSETTE_SEED")) return std::strtoull(env, nullptr, 10);
  return 0x5eed0000u + static_cast<uint64_t>(param);
}

TEST_P(ModelTest, RandomOperationsMatchTheModel) {
  const uint64_t seed = SeedFor(GetParam());
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };

  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  options.memtable_flush_threshold = 16 << 10;  // small: background flushes happen too
  const bool compacting = GetParam() >= 4;
  options.auto_compaction = compacting;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
  // Seeds 0-3 never compact. Seeds 4-11 compact at random points with each
  // strategy in turn; there, explicit timestamps carry no TTL: compaction
  // rewrites an expired cell as a tombstone at the same timestamp, and a
  // tombstone beats an expiring cell of equal timestamp where the expired
  // cell lost to it on expiry time (Cassandra behaves the same; the model
  // does not know when compactions ran).
  TableSchema table = SimpleTable();
  const char* strategy = kStrategies[GetParam() % 4];
  if (compacting) {
    table.mutable_options().compaction = {{"class", strategy}};
    if (GetParam() % 4 == 2) {
      table.mutable_options().compaction["compaction_window_unit"] = "MINUTES";
    }
  }
  SCOPED_TRACE(compacting ? strategy : "no compaction");
  ASSERT_OK(t.db->CreateTable(table));
  ReferenceModel model;
  std::vector<std::string> history;  // printed on a mismatch

  const int steps = 1500;
  for (int step = 0; step < steps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const int32_t pk = pick(kPartitions);
    const int64_t now_sec = NowInSeconds(t.clock->WallMicros());
    // Explicit timestamps from a narrow band make ties common; default ones
    // come from the database and always increase.
    std::optional<int64_t> timestamp;
    if (pick(3) != 0) timestamp = 1'000'000 + pick(8);
    int32_t ttl = pick(4) == 0 ? 1 + pick(30) : 0;
    if (compacting && timestamp) ttl = 0;

    Mutation m("ks", "t", {Value::Int(pk)});
    if (timestamp) m.UsingTimestamp(*timestamp);
    if (ttl) m.UsingTtl(ttl);
    const int32_t ck = pick(kClusterings);
    const int32_t value = pick(5) - 2;  // negative values exercise unsigned tie-breaks
    ModelWrite write;
    write.pk = pk;
    write.ck = ck;
    write.timestamp = timestamp;
    write.ttl = ttl;
    write.now_sec = now_sec;
    switch (pick(9)) {
      case 0:
      case 1:
        m.Insert({Value::Int(ck)}).Set("v", Value::Int(value));
        write.kind = ModelWrite::kInsert;
        write.value = value;
        break;
      case 2:
        m.Update({Value::Int(ck)}).Set("v", Value::Int(value));
        write.kind = ModelWrite::kUpdate;
        write.value = value;
        break;
      case 3:
        m.Update({Value::Int(ck)}).SetNull("v");
        write.kind = ModelWrite::kDeleteCell;
        break;
      case 4:
        m.DeleteRow({Value::Int(ck)});
        write.kind = ModelWrite::kDeleteRow;
        break;
      case 5: {
        const int32_t hi = ck + pick(3);
        const bool lo_inclusive = pick(2), hi_inclusive = pick(2);
        m.DeleteRange({{Value::Int(ck)}, lo_inclusive}, {{Value::Int(hi)}, hi_inclusive});
        write.kind = ModelWrite::kDeleteRange;
        write.range = {ck, lo_inclusive, hi, hi_inclusive};
        break;
      }
      case 6:
        if (pick(4) == 0) {
          m.DeletePartition();
          write.kind = ModelWrite::kDeletePartition;
        } else {
          m.Update({}).Set("s", Value::Int(value));
          write.kind = ModelWrite::kStatic;
          write.value = value;
        }
        break;
      case 7:
        m.Update({Value::Int(ck)}).Add("tags", {Value::Text(std::string(1, 'a' + pick(3)))});
        write.kind = ModelWrite::kAddTag;
        write.value = 0;
        break;
      default:
        m.Insert({Value::Int(ck)});
        write.kind = ModelWrite::kInsertMarkerOnly;
        break;
    }
    if (write.kind == ModelWrite::kAddTag) {
      // The element name is in the mutation; recover it for the model.
      write.tag = m.rows()[0].columns[0].elements[0].bytes();
    }
    history.push_back(
        "step " + std::to_string(step) + " pk=" + std::to_string(pk) + " ck=" + std::to_string(ck) +
        " kind=" + std::to_string(write.kind) + " value=" + std::to_string(value) +
        " ts=" + (timestamp ? std::to_string(*timestamp) : std::string("default")) +
        " ttl=" + std::to_string(ttl) + " now=" + std::to_string(now_sec) +
        (write.kind == ModelWrite::kDeleteRange
             ? " range=" + std::to_string(write.range.lo) + (write.range.lo_inclusive ? "i" : "x") +
                   "," + std::to_string(write.range.hi) + (write.range.hi_inclusive ? "i" : "x")
             : std::string()) +
        (write.kind == ModelWrite::kAddTag ? " tag=" + write.tag : std::string()));
    Status s = t.db->Apply(m);
    ASSERT_TRUE(s.ok()) << s.ToString();
    // The timestamp the database gave a default-timestamped write is the
    // largest so far; the model only needs its order, so use a counter
    // above every explicit timestamp.
    model.Apply(write);

    switch (pick(12)) {
      case 0:
        history.push_back("flush");
        ASSERT_OK(t.db->Flush());
        break;
      case 1: {
        const int seconds = pick(20);
        history.push_back("advance " + std::to_string(seconds));
        t.Advance(seconds);
        break;
      }
      case 2:
        if (pick(5) == 0) {
          // Default timestamps restart from the clock after a reopen (as a
          // restarted Cassandra's do), so let the clock move past every
          // timestamp issued so far, as a real restart would.
          history.push_back("reopen");
          ASSERT_OK(t.Reopen());
          t.Advance(1);
        }
        break;
      case 3:
        history.push_back("run background jobs");
        t.scheduler->RunUntilIdle();  // background flushes and compactions
        break;
      case 4:
        if (!compacting) break;
        history.push_back("compact");
        ASSERT_OK(t.db->Compact("ks", "t"));
        break;
      case 5:
        if (compacting && pick(4) == 0) {
          history.push_back("major compaction");
          ASSERT_OK(t.db->CompactMajor("ks", "t"));
        }
        break;
      default:
        break;
    }

    const int64_t read_now = NowInSeconds(t.clock->WallMicros());
    for (int32_t p = 0; p < kPartitions; ++p) {
      const ReadQuery query = ReadPartition(p, {"pk", "ck", "s", "v", "tags"});
      auto result = t.db->Read(query);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      // The streamed read sees exactly the rows the collected one returns.
      auto streamed = ReadEachCollected(*t.db, query);
      ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
      ASSERT_EQ(Render(*streamed), Render(*result)) << "partition " << p;
      if (Render(*result) != model.Render(p, read_now)) {
        std::string trace;
        for (const std::string& h : history) {
          if (h.find(" pk=") == std::string::npos ||
              h.find(" pk=" + std::to_string(p) + " ") != std::string::npos) {
            trace += h + "\n";
          }
        }
        FAIL() << "partition " << p << " at now=" << read_now << "\n engine: " << Render(*result)
               << "\n  model: " << model.Render(p, read_now) << "\nhistory:\n"
               << trace;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelTest, ::testing::Range(0, 12));

}  // namespace
}  // namespace cassette::testing
