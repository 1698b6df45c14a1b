// Power loss, simulated: the crash test's mixed workload runs in-process on
// the in-memory file system (ManualClock, ManualScheduler: deterministic),
// and before every call that changes a file or directory -- every append,
// flush and fsync of a commit, every step of a memtable flush, of a
// compaction and of a commit-log segment roll -- the file system is
// cloned as a power loss would leave it (MemFileSystem::CrashClone: unsynced
// bytes dropped, or a seeded share of them kept, as torn writes). Each
// clone is reopened and read whole.
//
// The promise checked (RocksDB's point-in-time recovery, the README's
// durability table): the recovered database equals the model after some
// prefix of the operations, the one in flight applied whole or not at all;
// in batch and group mode that prefix holds every acknowledged operation.
// Periodic mode may lose the operations since its last fsync, but only as
// a suffix: never a LOGGED batch torn across two tables, never a later
// write kept while an earlier one is lost.
//
// CASSETTE_SEED replays one seed; CASSETTE_CRASH_OPS sets the operations
// per mode (default 120).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "tests/crash/cloning_file_system.h"
#include "tests/crash/crash_state.h"
#include "tests/crash/kill_checker.h"

namespace cassette::crash {
namespace {

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoll(value, nullptr, 10) : fallback;
}

struct PendingClone {
  std::shared_ptr<MemFileSystem> fs;
  std::string where;  // the I/O call it was taken before
  int keep_unsynced_pct;
};

class CrashPowerLossTest : public ::testing::TestWithParam<CommitLogSync> {
 protected:
  // The model after each prefix of the operations, rendered at `now`
  // (cached per second: TTLs count whole seconds).
  const DbState& Expected(size_t prefix, int64_t now) {
    const int64_t second = now / 1'000'000;
    if (second != rendered_second_) {
      rendered_.clear();
      rendered_second_ = second;
    }
    auto found = rendered_.find(prefix);
    if (found == rendered_.end()) {
      found = rendered_.emplace(prefix, models_[prefix].Render(shape_, now)).first;
    }
    return found->second;
  }

  // Reopens the clone and checks it. `done` operations were acknowledged;
  // `in_flight` (may be null) was running.
  void CheckClone(const PendingClone& clone, size_t done, const Op* in_flight, int64_t now) {
    ++clones_checked_;
    const std::string where = "after " + std::to_string(done) + " operations" +
                              (in_flight ? ", during " + DescribeOp(*in_flight) : "") +
                              ", power lost before " + clone.where + " (keeping " +
                              std::to_string(clone.keep_unsynced_pct) + "% of unsynced bytes)";
    Options options = CrashOptions(GetParam(), std::make_shared<ManualClock>(now));
    options.file_system = clone.fs;
    options.scheduler = std::make_shared<ManualScheduler>();
    auto opened = Database::Open(options, "/db");
    if (!opened.ok()) {
      ADD_FAILURE() << "reopen failed " << where << ": " << opened.status().ToString();
      ++failures_;
      return;
    }
    auto got = ReadState(**opened, shape_);
    if (!got.ok()) {
      ADD_FAILURE() << "read failed " << where << ": " << got.status().ToString();
      ++failures_;
      return;
    }
    const bool durable_acks = GetParam() != CommitLogSync::kPeriodic;
    // Allowed: prefixes [first, last]; below `first` only for diagnosis.
    const size_t last = in_flight && in_flight->IsWrite() ? done + 1 : done;
    std::vector<const DbState*> candidates;
    std::vector<const Op*> ops;
    for (size_t k = 0; k <= last; ++k) {
      candidates.push_back(&Expected(k, now));
      if (k < last) ops.push_back(&ops_[k]);
    }
    const Verdict verdict = Compare(*got, candidates, ops);
    torn_batches_ += verdict.torn_batches;
    if (verdict.consistent && (!durable_acks || static_cast<size_t>(verdict.prefix) >= done)) {
      lost_to_periodic_ += static_cast<int64_t>(done) - std::min<int64_t>(verdict.prefix, done);
      return;
    }
    ++failures_;
    if (failures_ > 3) return;  // the first ones say enough; the rest are counted
    if (verdict.consistent) {
      ADD_FAILURE() << "lost acknowledged operations " << where << ": recovered the state after "
                    << verdict.prefix << " operations; lost from "
                    << DescribeOp(ops_[verdict.prefix]);
    } else {
      ADD_FAILURE() << "recovered state is no prefix of the operations " << where << ":\n"
                    << verdict.detail;
    }
  }

  Shape shape_;
  std::vector<CrashModel> models_;  // models_[k]: after ops_[0, k)
  std::vector<Op> ops_;
  std::map<size_t, DbState> rendered_;
  int64_t rendered_second_ = -1;
  int64_t clones_checked_ = 0;
  int64_t lost_to_periodic_ = 0;
  int torn_batches_ = 0;
  int failures_ = 0;
};

TEST_P(CrashPowerLossTest, EveryCrashPointRecoversAPrefixOfTheOperations) {
  const bool default_seed = std::getenv("CASSETTE_SEED") == nullptr;
  const uint64_t seed = static_cast<uint64_t>(EnvInt("CASSETTE_SEED", 7));
  const int operations = static_cast<int>(EnvInt("CASSETTE_CRASH_OPS", 120));
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  shape_.partitions = 6;
  shape_.clusterings = 5;
  shape_.counter_partitions = 3;
  shape_.tag_padding = 1500;  // large set elements: segment rolls within the run

  std::mt19937_64 rng(seed);
  auto mem = NewMemFileSystem();
  bool capturing = false;
  uint64_t clone_seed = seed * 1000;
  std::vector<PendingClone> pending;
  int segment_rolls = 0, sstables_written = 0;
  auto hook = [&](std::string_view op, const std::string& path) {
    if (op == "create" && path.find("commitlog") != std::string::npos) ++segment_rolls;
    if (op == "create" && path.ends_with(".sst")) ++sstables_written;
    if (!capturing) return;
    static constexpr int kKeep[] = {0, 0, 50, 100};
    const int keep = kKeep[rng() % 4];
    pending.push_back({mem->CrashClone(keep, ++clone_seed), std::string(op) + " " + path, keep});
  };
  auto clock = std::make_shared<ManualClock>(OpMicros(0));
  auto scheduler = std::make_shared<ManualScheduler>();
  Options options = CrashOptions(GetParam(), clock);
  options.file_system = std::make_shared<CloningFileSystem>(mem, hook);
  options.scheduler = scheduler;
  options.memtable_flush_threshold = 32 << 10;
  auto opened = Database::Open(options, "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Database> db = std::move(opened).value();
  CqlSession session(db.get());
  for (const std::string& statement : SchemaStatements()) {
    auto done = session.Execute(statement);
    ASSERT_TRUE(done.ok()) << statement << ": " << done.status().ToString();
  }
  models_.emplace_back();

  auto check_pending = [&](size_t done, const Op* in_flight, int64_t now) {
    for (const PendingClone& clone : pending) CheckClone(clone, done, in_flight, now);
    pending.clear();
  };
  for (int i = 0; i < operations; ++i) {
    const int64_t now = OpMicros(i);
    ASSERT_TRUE(clock->Set(now).ok());
    // A background flush or compaction between operations, at random.
    while (scheduler->pending() > 0 && rng() % 3 == 0) {
      capturing = true;
      scheduler->RunOne();
      capturing = false;
      check_pending(ops_.size(), nullptr, now);
    }
    std::optional<int32_t> current_v;
    if (const auto row = LwtReadTarget(seed, i, shape_)) {
      auto read = ReadV(session, *row);
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      current_v = *read;
    }
    const Op op = GenerateOp(seed, i, shape_, current_v);
    bool applied = false;
    capturing = true;
    const Status status = ExecuteOp(session, op, &applied);
    capturing = false;
    ASSERT_TRUE(status.ok()) << DescribeOp(op) << ": " << status.ToString();
    if ((op.kind == OpKind::kLwtInsert || op.kind == OpKind::kLwtUpdate) &&
        models_.back().LwtApplies(op) != applied) {
      ADD_FAILURE() << DescribeOp(op) << " answered [applied] = " << applied
                    << " where the operations before it say otherwise";
      ++failures_;
    }
    ops_.push_back(op);
    models_.push_back(models_.back());
    models_.back().Apply(op, applied);
    check_pending(ops_.size() - 1, &ops_.back(), now);
  }
  scheduler->RunUntilIdle();
  printf(
      "power-loss mode=%s seed=%llu operations=%zu crash_points=%lld segment_files=%d "
      "sstables_written=%d torn_batches=%d failures=%d periodic_rollback_ops=%lld\n",
      SyncModeName(GetParam()), static_cast<unsigned long long>(seed), ops_.size(),
      static_cast<long long>(clones_checked_), segment_rolls, sstables_written, torn_batches_,
      failures_, static_cast<long long>(lost_to_periodic_));
  fflush(stdout);
  EXPECT_EQ(failures_, 0);
  EXPECT_EQ(torn_batches_, 0);
  // The default run reaches what it is meant to cover (other seeds print
  // what they reached: a light one may fill a single commit-log segment).
  if (default_seed) {
    EXPECT_GT(segment_rolls, 1);
    EXPECT_GT(sstables_written, 0);
  }
  ASSERT_TRUE(db->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(SyncModes, CrashPowerLossTest,
                         ::testing::Values(CommitLogSync::kBatch, CommitLogSync::kGroup,
                                           CommitLogSync::kPeriodic),
                         [](const ::testing::TestParamInfo<CommitLogSync>& info) {
                           return std::string(SyncModeName(info.param));
                         });

}  // namespace
}  // namespace cassette::crash
