#include "engine/compaction/compaction_common_options.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/compaction/compaction_option_parsing.h"
#include "tests/compaction/synthetic_table.h"

namespace cassette {
namespace {

using namespace testing_compaction;  // NOLINT: test builders

using Options = std::map<std::string, std::string>;

Status ParseError(const Options& options) {
  std::set<std::string> unconsumed;
  Result<CompactionCommonOptions> r = ParseCompactionCommonOptions(options, &unconsumed);
  return r.ok() ? Status::OK() : r.status();
}

std::string Message(const Options& options) {
  Status s = ParseError(options);
  EXPECT_EQ(s.code(), Status::Code::kConfigurationError) << s.ToString();
  return s.message();
}

TEST(CompactionCommonOptionsTest, DefaultsAreCassandras) {
  std::set<std::string> unconsumed = {"class", "bucket_low"};
  Result<CompactionCommonOptions> r =
      ParseCompactionCommonOptions({{"class", "X"}, {"bucket_low", "0.4"}}, &unconsumed);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->min_threshold, 4);
  EXPECT_EQ(r->max_threshold, 32);
  EXPECT_DOUBLE_EQ(r->tombstone_threshold, 0.2);
  EXPECT_EQ(r->tombstone_compaction_interval_seconds, 86400);
  EXPECT_FALSE(r->unchecked_tombstone_compaction);
  EXPECT_FALSE(r->tombstone_options_given);
  EXPECT_TRUE(r->enabled);
  EXPECT_FALSE(r->only_purge_repaired_tombstones);
  EXPECT_FALSE(r->log_all);
  // "class" is consumed; the strategy's own options are left for it.
  EXPECT_EQ(unconsumed, std::set<std::string>{"bucket_low"});
}

TEST(CompactionCommonOptionsTest, ParsesEveryOptionAndConsumesIt) {
  const Options options = {{"min_threshold", "2"},
                           {"max_threshold", "8"},
                           {"tombstone_threshold", "0.5"},
                           {"tombstone_compaction_interval", "3600"},
                           {"unchecked_tombstone_compaction", "TRUE"},
                           {"enabled", "False"},
                           {"only_purge_repaired_tombstones", "true"},
                           {"log_all", "true"},
                           {"provide_overlapping_tombstones", "row"}};
  std::set<std::string> unconsumed;
  for (const auto& [k, v] : options) unconsumed.insert(k);
  Result<CompactionCommonOptions> r = ParseCompactionCommonOptions(options, &unconsumed);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->min_threshold, 2);
  EXPECT_EQ(r->max_threshold, 8);
  EXPECT_DOUBLE_EQ(r->tombstone_threshold, 0.5);
  EXPECT_EQ(r->tombstone_compaction_interval_seconds, 3600);
  EXPECT_TRUE(r->unchecked_tombstone_compaction);
  EXPECT_TRUE(r->tombstone_options_given);
  EXPECT_FALSE(r->enabled);
  EXPECT_TRUE(r->only_purge_repaired_tombstones);
  EXPECT_TRUE(r->log_all);
  EXPECT_TRUE(unconsumed.empty());
}

TEST(CompactionCommonOptionsTest, TombstoneOptionsGivenUnlessOnlyUncheckedFalse) {
  auto given = [](const Options& o) {
    Result<CompactionCommonOptions> r = ParseCompactionCommonOptions(o, nullptr);
    EXPECT_TRUE(r.ok());
    return r.ok() && r->tombstone_options_given;
  };
  EXPECT_FALSE(given({}));
  EXPECT_FALSE(given({{"unchecked_tombstone_compaction", "false"}}));
  EXPECT_TRUE(given({{"unchecked_tombstone_compaction", "true"}}));
  EXPECT_TRUE(given({{"tombstone_threshold", "0.2"}}));  // even the default value
  EXPECT_TRUE(given({{"tombstone_compaction_interval", "86400"}}));
}

TEST(CompactionCommonOptionsTest, BadValuesGetCassandrasMessages) {
  EXPECT_EQ(Message({{"tombstone_threshold", "abc"}}),
            "abc is not a parsable int (base10) for tombstone_threshold");
  EXPECT_EQ(Message({{"tombstone_threshold", "-1"}}),
            "tombstone_threshold must be greater than 0, but was -1.000000");
  EXPECT_EQ(Message({{"tombstone_compaction_interval", "1.5"}}),
            "1.5 is not a parsable int (base10) for tombstone_compaction_interval");
  EXPECT_EQ(Message({{"tombstone_compaction_interval", "-5"}}),
            "tombstone_compaction_interval must be greater than 0, but was -5");
  EXPECT_EQ(Message({{"unchecked_tombstone_compaction", "yes"}}),
            "'unchecked_tombstone_compaction' should be either 'true' or 'false', not 'yes'");
  EXPECT_EQ(Message({{"log_all", "1"}}), "'log_all' should either be 'true' or 'false', not 1");
  EXPECT_EQ(Message({{"enabled", "no"}}), "enabled should either be 'true' or 'false', not no");
  EXPECT_EQ(Message({{"provide_overlapping_tombstones", "rows"}}),
            "Invalid value ROWS for 'provide_overlapping_tombstones' compaction sub-option - "
            "must be one of the following [NONE, ROW, CELL].");
  EXPECT_EQ(Message({{"min_threshold", "-1"}}),
            "Invalid value -1 for 'min_threshold' compaction sub-option - must be an integer");
  EXPECT_EQ(Message({{"max_threshold", "3x"}}),
            "Invalid value 3x for 'max_threshold' compaction sub-option - must be an integer");
  EXPECT_EQ(Message({{"min_threshold", "0"}}),
            "Disabling compaction by setting compaction thresholds to 0 has been removed, set "
            "the compaction option 'enabled' to false instead.");
  EXPECT_EQ(Message({{"max_threshold", "0"}}),
            "Disabling compaction by setting compaction thresholds to 0 has been removed, set "
            "the compaction option 'enabled' to false instead.");
  EXPECT_EQ(Message({{"min_threshold", "1"}}),
            "Min compaction threshold cannot be less than 2 (got 1)");
  EXPECT_EQ(Message({{"min_threshold", "8"}, {"max_threshold", "4"}}),
            "Min compaction threshold (got 8) cannot be greater than max compaction threshold "
            "(got 4)");
  // Checked after the tombstone options, as Cassandra does.
  EXPECT_EQ(Message({{"min_threshold", "1"}, {"enabled", "maybe"}}),
            "enabled should either be 'true' or 'false', not maybe");
}

TEST(CompactionCommonOptionsTest, JavaParsingRules) {
  double d;
  EXPECT_TRUE(ParseJavaFloat(" 0.5f ", &d));
  EXPECT_DOUBLE_EQ(d, 0.5);
  EXPECT_TRUE(ParseJavaDouble("1e3", &d));
  EXPECT_DOUBLE_EQ(d, 1000);
  EXPECT_TRUE(ParseJavaDouble(".5", &d));
  EXPECT_TRUE(ParseJavaDouble("-Infinity", &d));
  EXPECT_TRUE(std::isinf(d));
  EXPECT_FALSE(ParseJavaDouble("inf", &d));
  EXPECT_FALSE(ParseJavaDouble("", &d));
  EXPECT_FALSE(ParseJavaDouble("1e", &d));
  EXPECT_FALSE(ParseJavaDouble("0.5x", &d));
  int64_t l;
  EXPECT_TRUE(ParseJavaLong("+42", &l));
  EXPECT_EQ(l, 42);
  EXPECT_TRUE(ParseJavaLong("-9223372036854775808", &l));
  EXPECT_EQ(l, std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(ParseJavaLong("9223372036854775808", &l));
  EXPECT_FALSE(ParseJavaLong(" 1", &l));
  EXPECT_FALSE(ParseJavaLong("-", &l));
  int32_t i;
  EXPECT_FALSE(ParseJavaInt("2147483648", &i));
  EXPECT_TRUE(ParseJavaInt("-2147483648", &i));
  EXPECT_TRUE(IsJavaNumeric("007"));
  EXPECT_FALSE(IsJavaNumeric("+7"));
  EXPECT_FALSE(IsJavaNumeric(""));
}

TEST(CompactionCommonOptionsTest, UnknownOptionsAreNamed) {
  EXPECT_TRUE(RejectUnknownCompactionOptions({}, "SizeTieredCompactionStrategy").ok());
  Status one = RejectUnknownCompactionOptions({"x"}, "SizeTieredCompactionStrategy");
  EXPECT_EQ(one.code(), Status::Code::kConfigurationError);
  EXPECT_EQ(one.message(),
            "Properties specified [x] are not understood by SizeTieredCompactionStrategy");
  EXPECT_EQ(
      RejectUnknownCompactionOptions({"zeta", "alpha"}, "TimeWindowCompactionStrategy").message(),
      "Properties specified [alpha, zeta] are not understood by TimeWindowCompactionStrategy");
}

TEST(CompactionCommonOptionsTest, OverlapIsKeyRangeIntersection) {
  SyntheticTable t;
  t.Add({.generation = 1, .first_token = 0, .last_token = 10});
  t.Add({.generation = 2, .first_token = 10, .last_token = 20});  // touches at 10
  t.Add({.generation = 3, .first_token = 11, .last_token = 20});
  t.Add({.generation = 4, .first_token = -5, .last_token = 5, .partitions = 0});  // empty
  CompactionSnapshot s = t.Snapshot(0);
  EXPECT_TRUE(SSTablesOverlap(s.sstables[0], s.sstables[1]));
  EXPECT_FALSE(SSTablesOverlap(s.sstables[0], s.sstables[2]));
  EXPECT_TRUE(SSTablesOverlap(s.sstables[2], s.sstables[1]));
  EXPECT_FALSE(SSTablesOverlap(s.sstables[0], s.sstables[3]));

  // Same token, ordered by key bytes: real keys decorated as the partitioner does.
  SSTableStats a, b;
  a.partition_count = b.partition_count = 1;
  a.first_key = a.last_key = DecoratedKey::FromKey("sensor-1");
  b.first_key = b.last_key = DecoratedKey::FromKey("sensor-2");
  CompactionCandidate ca{.generation = 1, .stats = &a}, cb{.generation = 2, .stats = &b};
  EXPECT_FALSE(SSTablesOverlap(ca, cb));
  b.first_key = std::min(a.first_key, b.first_key);
  b.last_key = std::max(a.last_key, DecoratedKey::FromKey("sensor-2"));
  EXPECT_TRUE(SSTablesOverlap(ca, cb));
}

// docs/SEMANTICS.md §4: a candidate's max local deletion time is before gc_before, and
// nothing that may hold older data is left outside.
TEST(FullyExpiredSSTablesTest, ExpiredWithNothingOlderAround) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 10, .max_ts = 20, .max_ldt = 100});
  t.Add({.generation = 2, .min_ts = 30, .max_ts = 40, .max_ldt = 200});
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(101), {1, 2}, false), std::vector<uint64_t>{1});
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(100), {1, 2}, false),
            std::vector<uint64_t>{});  // strict
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(201), {1, 2}, false), (std::vector<uint64_t>{1, 2}));
  // gc_grace pushes gc_before back.
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(201, 150), {1, 2}, false), std::vector<uint64_t>{});
  // Only the candidates asked about.
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(201), {2}, false), std::vector<uint64_t>{2});
}

TEST(FullyExpiredSSTablesTest, NeverExpiringDataNeverExpires) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 10, .max_ts = 20, .max_ldt = kNeverExpires});
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(1000000), {1}, false).empty());
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(1000000), {1}, true).empty());
}

TEST(FullyExpiredSSTablesTest, OverlappingOlderLiveDataBlocks) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100});
  // Live, older data on overlapping keys: the expired tombstones of 1 may shadow it.
  t.Add({.generation = 2, .min_ts = 40, .max_ts = 45, .max_ldt = kNeverExpires});
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(200), {1}, false).empty());
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(200), {1}, true), std::vector<uint64_t>{1});

  // Data exactly as old as the candidate's newest also blocks (strict <).
  SyntheticTable equal;
  equal.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100});
  equal.Add({.generation = 2, .min_ts = 60, .max_ts = 70, .max_ldt = kNeverExpires});
  EXPECT_TRUE(FullyExpiredSSTables(equal.Snapshot(200), {1}, false).empty());

  // Newer data does not.
  SyntheticTable newer;
  newer.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100});
  newer.Add({.generation = 2, .min_ts = 61, .max_ts = 70, .max_ldt = kNeverExpires});
  EXPECT_EQ(FullyExpiredSSTables(newer.Snapshot(200), {1}, false), std::vector<uint64_t>{1});
}

TEST(FullyExpiredSSTablesTest, OnlyOverlappingOutsideFilesCount) {
  SyntheticTable t;
  t.Add({.generation = 1,
         .min_ts = 50,
         .max_ts = 60,
         .max_ldt = 100,
         .first_token = 0,
         .last_token = 10});
  t.Add({.generation = 2,
         .min_ts = 1,
         .max_ts = 2,
         .max_ldt = kNeverExpires,
         .first_token = 11,
         .last_token = 20});
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(200), {1}, false), std::vector<uint64_t>{1});
  // But a non-expired file of the candidate set blocks whatever its keys.
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(200), {1, 2}, false).empty());
}

TEST(FullyExpiredSSTablesTest, ExpiredOverlappingFilesDoNotBlock) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100});
  t.Add({.generation = 2, .min_ts = 10, .max_ts = 20, .max_ldt = 150});
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(120), {1}, false).empty());  // 2 not expired yet
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(151), {1}, false), std::vector<uint64_t>{1});
}

TEST(FullyExpiredSSTablesTest, MemtableWithOlderDataBlocks) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100});
  t.memtable_min_timestamp = 55;
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(200), {1}, false).empty());
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(200), {1}, true), std::vector<uint64_t>{1});
  t.memtable_min_timestamp = 61;
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(200), {1}, false), std::vector<uint64_t>{1});
}

TEST(FullyExpiredSSTablesTest, CompactingFilesAreNotCandidatesButStillBlock) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100, .compacting = true});
  t.Add({.generation = 2, .min_ts = 70, .max_ts = 80, .max_ldt = 100});
  t.Add(
      {.generation = 3, .min_ts = 65, .max_ts = 66, .max_ldt = kNeverExpires, .compacting = true});
  EXPECT_TRUE(FullyExpiredSSTables(t.Snapshot(200), {1, 2}, false).empty());
  t.SetCompacting(3, false);
  t.Remove(3);
  EXPECT_EQ(FullyExpiredSSTables(t.Snapshot(200), {1, 2}, false), std::vector<uint64_t>{2});
}

TEST(FullyExpiredSSTablesTest, TaskDropsExpiredInputsWhole) {
  SyntheticTable t;
  t.Add({.generation = 1, .min_ts = 50, .max_ts = 60, .max_ldt = 100});
  t.Add({.generation = 2, .min_ts = 70, .max_ts = 80, .max_ldt = kNeverExpires});
  t.Add({.generation = 3, .min_ts = 90, .max_ts = 95, .max_ldt = 110});
  CompactionTask task = TaskDroppingExpired(t.Snapshot(200), {3, 2, 1}, false);
  // 1 is older than everything live; 3 is not older than 2's data.
  EXPECT_EQ(task.inputs, (std::vector<uint64_t>{3, 2}));
  EXPECT_EQ(task.expired, std::vector<uint64_t>{1});
  EXPECT_FALSE(task.empty());
}

class WorthDroppingTombstonesTest : public ::testing::Test {
 protected:
  // 100 partitions x 10 cells, `tombstones` of them deleted at second 600.
  SSTableStats& File(uint64_t generation, uint64_t tombstones, int64_t first_token,
                     int64_t last_token) {
    SSTableStats& s = table_.Add({.generation = generation,
                                  .min_ts = 0,
                                  .max_ts = 10,
                                  .first_token = first_token,
                                  .last_token = last_token,
                                  .created_micros = 0});
    if (tombstones > 0) AddTombstones(&s, tombstones, 600);
    return s;
  }
  bool Worth(uint64_t generation, int64_t now_seconds, const CompactionCommonOptions& options) {
    snapshot_ = table_.Snapshot(now_seconds);
    for (const CompactionCandidate& c : snapshot_.sstables) {
      if (c.generation == generation) return WorthDroppingTombstones(c, snapshot_, options);
    }
    ADD_FAILURE() << "no generation " << generation;
    return false;
  }

  SyntheticTable table_;
  CompactionSnapshot snapshot_;
};

TEST_F(WorthDroppingTombstonesTest, RatioAboveThresholdAfterTheInterval) {
  File(1, 300, 0, 100);  // 300 / 1000 cells = 0.3
  CompactionCommonOptions o;
  o.tombstone_compaction_interval_seconds = 1000;
  EXPECT_FALSE(Worth(1, 999, o));  // written too recently
  EXPECT_TRUE(Worth(1, 1000, o));
  o.tombstone_threshold = 0.3;  // must exceed, strictly
  EXPECT_FALSE(Worth(1, 1000, o));
  o.tombstone_threshold = 0.29;
  EXPECT_TRUE(Worth(1, 1000, o));
  // Before the tombstones' drop time nothing is droppable.
  o.tombstone_compaction_interval_seconds = 0;
  EXPECT_FALSE(Worth(1, 599, o));
}

TEST_F(WorthDroppingTombstonesTest, OverlapsKeepTombstonesUnlessUnchecked) {
  File(1, 300, 0, 100);
  File(2, 0, 0, 100);  // covers every key of 1
  CompactionCommonOptions o;
  o.tombstone_compaction_interval_seconds = 0;
  EXPECT_FALSE(Worth(1, 1000, o));
  o.unchecked_tombstone_compaction = true;
  EXPECT_TRUE(Worth(1, 1000, o));
}

TEST_F(WorthDroppingTombstonesTest, OnlyKeysOutsideOverlapsCount) {
  File(1, 500, 0, 100);  // ratio 0.5
  File(2, 0, 50, 200);   // covers half of 1's token span
  CompactionCommonOptions o;
  o.tombstone_compaction_interval_seconds = 0;
  o.tombstone_threshold = 0.2;
  EXPECT_TRUE(Worth(1, 1000, o));  // 0.5 x 0.5 = 0.25 > 0.2
  o.tombstone_threshold = 0.3;
  EXPECT_FALSE(Worth(1, 1000, o));  // ratio 0.5 > 0.3, but 0.25 is not
}

TEST_F(WorthDroppingTombstonesTest, FullyExpiredDespiteOverlapsIsWorthIt) {
  SSTableStats& s = File(1, 800, 0, 100);
  s.max_local_deletion_time = 600;
  s.min_timestamp = 20;
  s.max_timestamp = 30;
  SSTableStats& other = File(2, 0, 0, 100);
  other.min_timestamp = 40;  // newer than everything in 1
  CompactionCommonOptions o;
  o.tombstone_compaction_interval_seconds = 0;
  EXPECT_TRUE(Worth(1, 1000, o));
  other.min_timestamp = 25;
  EXPECT_FALSE(Worth(1, 1000, o));
}

}  // namespace
}  // namespace cassette
