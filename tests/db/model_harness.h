// ModelHarness: drives one randomized model run. It applies random writes
// to the database and to ReferenceModel alike, runs random maintenance
// (flushes, clock advances, reopens, background jobs, compactions), and
// checks reads against the model: whole partitions, random queries
// (slices, order, limits, columns, token ranges), a paged read that is
// resumed between other steps, and crash clones whose recovered state
// must be what the sync mode promises.
//
// Seeds: CASSETTE_SEED replays one; CASSETTE_MODEL_STEPS sets the steps
// per run. On a mismatch the failure prints the steps so far.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "engine/mutation/timestamps.h"
#include "tests/db/db_test_util.h"
#include "tests/db/model_operations.h"
#include "tests/db/model_query.h"
#include "tests/db/reference_model.h"

namespace cassette::testing {

inline uint64_t ModelSeed(uint64_t fallback) {
  if (const char* env = std::getenv("CASSETTE_SEED")) return std::strtoull(env, nullptr, 10);
  return fallback;
}

inline int ModelSteps(int fallback) {
  if (const char* env = std::getenv("CASSETTE_MODEL_STEPS")) return std::atoi(env);
  return fallback;
}

// What a run checked; printed as one line for scripts/model-test.sh.
struct ModelCounts {
  int64_t operations = 0;
  int64_t reads_checked = 0;
  int64_t pages = 0;
  int64_t paged_queries = 0;
  int64_t crashes = 0;
  int64_t lost_unsynced = 0;  // periodic mode: acknowledged, unsynced writes a crash dropped

  void Print(const std::string& name, uint64_t seed) const {
    std::printf(
        "model-counts name=%s seed=%llu operations=%lld reads=%lld pages=%lld paged_queries=%lld "
        "crashes=%lld lost_unsynced=%lld\n",
        name.c_str(), static_cast<unsigned long long>(seed), static_cast<long long>(operations),
        static_cast<long long>(reads_checked), static_cast<long long>(pages),
        static_cast<long long>(paged_queries), static_cast<long long>(crashes),
        static_cast<long long>(lost_unsynced));
  }
};

// After a crash in periodic mode, the recovered data can match several
// prefixes of the unsynced writes: a write whose effect no read shows yet
// (a tombstone of a row that has no live data) may or may not have
// survived. The harness then keeps every world the reads so far allow,
// applies each write to all of them, and drops those a later read
// contradicts; a read no world explains is a failure. In batch and group
// mode there is always exactly one world.
struct ModelWorld {
  ReferenceModel model;
  ReferenceModel durable;                         // after every write known durable
  std::vector<std::vector<ModelWrite>> unsynced;  // acknowledged since, in order
  std::optional<ModelCursor> cursor;              // the open paged query's position
  bool operator==(const ModelWorld&) const = default;
};

class ModelHarness {
 public:
  ModelHarness(uint64_t seed, bool compacting) : r_(seed), compacting_(compacting) {
    worlds_.emplace_back();
  }

  TestDb& t() { return t_; }
  ModelRandom& random() { return r_; }
  ModelCounts& counts() { return counts_; }
  int64_t Now() const { return NowInSeconds(t_.clock->WallMicros()); }
  void Note(const std::string& line) { history_ += line + "\n"; }

  void Open(Options options) {
    sync_ = options.commitlog_sync;
    sync_period_micros_ = options.commitlog_sync_period_ms * 1000;
    ASSERT_OK(t_.Open(options));
    last_log_activity_ = t_.clock->WallMicros();
  }

  // A random Mutation or InsertBatch, applied to both. Acknowledged writes
  // stay unsynced until a point where the sync mode makes them durable.
  void RandomWrite() {
    DrawnWrite w = r_.OneIn(4) ? DrawInsertBatch(r_, Now(), compacting_)
                               : DrawMutation(r_, Now(), compacting_);
    Note(w.description);
    const Status s = w.mutation ? t_.db->Apply(*w.mutation) : t_.db->ApplyInserts(*w.batch);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ++counts_.operations;
    // A periodic log fsyncs on the append that finds a whole period gone
    // since its last fsync (commit_log_sync_policy.h); every fsync happens
    // during some operation, so when a period has passed since the last
    // one that may have touched the log, this append certainly synced.
    // Batch and group mode acknowledge only after an fsync covering the
    // write.
    const int64_t now = t_.clock->WallMicros();
    const bool synced =
        sync_ != CommitLogSync::kPeriodic || now - last_log_activity_ >= sync_period_micros_;
    last_log_activity_ = now;
    for (ModelWorld& world : worlds_) {
      for (const ModelWrite& write : w.writes) world.model.Apply(write);
      world.unsynced.push_back(w.writes);
    }
    if (synced) MarkDurable();
  }

  // Maintenance at random (compactions only in compacting runs).
  void RandomMaintenance() {
    switch (r_.Pick(12)) {
      case 0:
        Note("flush");
        ASSERT_OK(t_.db->Flush());
        MarkDurable();  // every memtable is in a synced SSTable now
        break;
      case 1: {
        const int seconds = r_.Pick(20);
        Note("advance " + std::to_string(seconds));
        t_.Advance(seconds);
        return;  // time passes; the log is not touched
      }
      case 2:
        if (r_.OneIn(5)) {
          // Default timestamps restart from the clock after a reopen (as a
          // restarted Cassandra's do), so let the clock move past every
          // timestamp issued so far, as a real restart would.
          Note("reopen");
          ASSERT_OK(t_.Reopen());  // Close syncs the log
          MarkDurable();
          t_.Advance(1);
        }
        break;
      case 3:
        Note("run background jobs");
        t_.scheduler->RunUntilIdle();  // background flushes and compactions
        break;
      case 4:
        if (!compacting_) break;
        Note("compact");
        ASSERT_OK(t_.db->Compact("ks", "t"));
        break;
      case 5:
        if (compacting_ && r_.OneIn(4)) {
          Note("major compaction");
          ASSERT_OK(t_.db->CompactMajor("ks", "t"));
        }
        break;
      default:
        break;
    }
    // A flush may switch segments, which syncs the log: the period
    // restarts at any operation that may have touched it.
    last_log_activity_ = t_.clock->WallMicros();
  }

  // Every partition read whole, collected and streamed, against the model.
  void CheckPartitions() {
    const int64_t now = Now();
    for (const auto& key_and_token : kModelKeys) {
      const int32_t pk = key_and_token.first;
      const ReadQuery query = ReadPartition(pk, {"pk", "ck", "s", "v", "tags"});
      auto result = t_.db->Read(query);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      auto streamed = ReadEachCollected(*t_.db, query);
      ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
      ASSERT_EQ(Render(*streamed), Render(*result)) << "partition " << pk;
      ++counts_.reads_checked;
      const std::string got = Render(*result);
      Keep([&](const ModelWorld& w) { return w.model.Render(pk, now); }, got,
           "partition " + std::to_string(pk) + " at now=" + std::to_string(now));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

  // One random unpaged query, collected and streamed, against the model.
  void CheckRandomQuery() {
    const ModelQuery q = DrawQuery(r_, /*paged=*/false);
    const ReadQuery query = q.ToReadQuery();
    auto result = t_.db->Read(query);
    ASSERT_TRUE(result.ok()) << q.Describe() << ": " << result.status().ToString();
    auto streamed = ReadEachCollected(*t_.db, query);
    ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
    ASSERT_EQ(Render(*streamed), Render(*result)) << q.Describe();
    ASSERT_TRUE(result->paging_state.empty()) << q.Describe();
    ++counts_.reads_checked;
    const int64_t now = Now();
    Keep(
        [&](const ModelWorld& w) {
          return JoinRows(EvaluatePage(w.model, q, now, std::nullopt).rows);
        },
        Render(*result), q.Describe() + " at now=" + std::to_string(now));
  }

  // Reads the next page of the open paged query (opening one when none
  // is), so that writes, flushes, compactions, clock advances and reopens
  // of the steps in between fall between its pages.
  void NextPage() {
    if (!pager_) {
      pager_ = DrawQuery(r_, /*paged=*/true);
      paging_state_.clear();
      for (ModelWorld& world : worlds_) world.cursor.reset();
      Note("paged " + pager_->Describe());
      ++counts_.paged_queries;
    }
    ReadQuery query = pager_->ToReadQuery();
    query.paging_state = paging_state_;
    auto result = t_.db->Read(query);
    ASSERT_TRUE(result.ok()) << pager_->Describe() << ": " << result.status().ToString();
    ++counts_.pages;
    ++counts_.reads_checked;
    const int64_t now = Now();
    const bool more = !result->paging_state.empty();
    Note("page " + Render(*result) + (more ? " (more)" : " (last)"));
    // The page's rows, and whether a paging state came with them.
    Keep(
        [&](const ModelWorld& w) {
          const ModelPage page = EvaluatePage(w.model, *pager_, now, w.cursor);
          return JoinRows(page.rows) + (page.next ? " (more)" : " (last)");
        },
        Render(*result) + (more ? " (more)" : " (last)"),
        pager_->Describe() + " page at now=" + std::to_string(now));
    if (::testing::Test::HasFatalFailure()) return;
    if (!more) {
      pager_.reset();
      return;
    }
    for (ModelWorld& world : worlds_) {
      world.cursor = EvaluatePage(world.model, *pager_, now, world.cursor).next;
    }
    paging_state_ = result->paging_state;
  }

  // A power loss now (MemFileSystem::CrashClone, a random share of the
  // unsynced bytes kept as torn writes), then Open. The recovered data
  // must be the model after every write known durable plus some prefix of
  // the later, acknowledged but unsynced ones (periodic mode only: the
  // engine may have synced more than the rule guarantees, at a segment
  // switch or a flush), each write whole or absent; nothing else. The
  // model is rewound to what survived (each prefix that matches is a
  // world of its own until later reads tell them apart).
  void CrashAndCheck() {
    const int keep_pct = r_.OneIn(2) ? 0 : r_.Pick(101);
    Note("crash keep_unsynced_pct=" + std::to_string(keep_pct) +
         " unsynced_writes=" + std::to_string(worlds_.front().unsynced.size()));
    ++counts_.crashes;
    ASSERT_OK(t_.CrashAndReopen(keep_pct, static_cast<uint64_t>(r_.Pick(1 << 30))));
    t_.Advance(1);  // as after a reopen: later default timestamps exceed the lost ones
    last_log_activity_ = t_.clock->WallMicros();
    pager_.reset();  // a client's paged read does not survive the crash either
    const int64_t now = Now();
    std::string recovered;
    for (const auto& [pk, token] : kModelKeys) {
      auto result = t_.db->Read(ReadPartition(pk, {"pk", "ck", "s", "v", "tags"}));
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      recovered += Render(*result) + "|";
      ++counts_.reads_checked;
    }
    std::vector<ModelWorld> survivors;
    size_t fewest_lost = SIZE_MAX;
    for (const ModelWorld& world : worlds_) {
      ModelWorld candidate{world.durable, world.durable, {}, std::nullopt};
      // The prefixes that match, longest first: past the cap of worlds the
      // later ones are dropped, and the engine usually keeps more than the
      // rule promises (it syncs at segment switches and flushes), so the
      // worlds where more writes survived are the likelier ones.
      std::vector<ModelWorld> matches;
      for (size_t k = 0;; ++k) {
        if (RenderAll(candidate.model, now) == recovered) {
          candidate.durable = candidate.model;
          matches.push_back(candidate);
          fewest_lost = std::min(fewest_lost, world.unsynced.size() - k);
        }
        if (k == world.unsynced.size()) break;
        for (const ModelWrite& write : world.unsynced[k]) candidate.model.Apply(write);
      }
      for (auto it = matches.rbegin(); it != matches.rend(); ++it) AddWorld(&survivors, *it);
    }
    ASSERT_FALSE(survivors.empty())
        << "recovered state is no prefix of the acknowledged writes after the last known sync"
        << "\n recovered: " << recovered
        << "\n   durable: " << RenderAll(worlds_.front().durable, now)
        << "\n       all: " << RenderAll(worlds_.front().model, now) << DroppedWorlds()
        << "\nhistory:\n"
        << history_;
    counts_.lost_unsynced += static_cast<int64_t>(fewest_lost);
    worlds_ = std::move(survivors);
    Note("recovered; " + std::to_string(fewest_lost) + " unsynced writes lost at least, " +
         std::to_string(worlds_.size()) + " possible worlds");
  }

 private:
  static constexpr size_t kMaxWorlds = 64;

  static std::string RenderAll(const ReferenceModel& model, int64_t now) {
    std::string out;
    for (const auto& [pk, token] : kModelKeys) out += model.Render(pk, now) + "|";
    return out;
  }
  void AddWorld(std::vector<ModelWorld>* worlds, const ModelWorld& world) {
    for (const ModelWorld& w : *worlds) {
      if (w == world) return;
    }
    // Past the cap a world is dropped: that can only make a later read
    // fail that some dropped world would explain, never pass a wrong one.
    // A failure after a drop says so (DroppedWorlds()).
    if (worlds->size() < kMaxWorlds) {
      worlds->push_back(world);
    } else if (worlds_dropped_++ == 0) {
      first_drop_ = std::to_string(counts_.operations) + " operations in";
    }
  }
  // For a failure message: whether the world that explains the engine may
  // have been dropped at the cap.
  std::string DroppedWorlds() const {
    if (worlds_dropped_ == 0) return "";
    return "\n(" + std::to_string(worlds_dropped_) +
           " possible worlds were dropped at the cap of " + std::to_string(kMaxWorlds) +
           ", first " + first_drop_ + ": this failure may be the model's, not the engine's)";
  }
  void MarkDurable() {
    for (ModelWorld& world : worlds_) {
      world.durable = world.model;
      world.unsynced.clear();
    }
  }
  // Keeps the worlds whose expectation (`expect`) is what the engine
  // returned (`got`); fails when none is.
  template <typename Expect>
  void Keep(const Expect& expect, const std::string& got, const std::string& what) {
    std::vector<ModelWorld> kept;
    std::string first_expected;
    for (ModelWorld& world : worlds_) {
      const std::string expected = expect(world);
      if (first_expected.empty()) first_expected = expected;
      if (expected == got) kept.push_back(std::move(world));
    }
    if (kept.empty()) {
      FAIL() << what << "\n engine: " << got << "\n  model: " << first_expected << " ("
             << worlds_.size() << " possible worlds)" << DroppedWorlds() << "\nhistory:\n"
             << history_;
    }
    worlds_ = std::move(kept);
  }

  ModelRandom r_;
  const bool compacting_;
  TestDb t_;
  std::vector<ModelWorld> worlds_;
  CommitLogSync sync_ = CommitLogSync::kBatch;
  int64_t sync_period_micros_ = 0;
  int64_t last_log_activity_ = 0;
  std::optional<ModelQuery> pager_;
  std::string paging_state_;
  std::string history_;
  int64_t worlds_dropped_ = 0;
  std::string first_drop_;
  ModelCounts counts_;
};

}  // namespace cassette::testing
