// The crash test's workload: a seeded random stream of operations over four
// tables (one per compaction strategy: STCS, LCS, TWCS, UCS) and a counter
// table, written as CQL and executed through a CqlSession.
//
// Every operation is a pure function of (seed, index) and of the one value
// an LWT reads first, so a run that restarts after a kill continues the same
// stream. Operation i runs at the database time OpMicros(i) (a ManualClock
// set before each operation), which makes TTL expiry decidable after the
// fact: a cell written by operation i with TTL t is live while the reading
// time in seconds is below floor(OpMicros(i) / 1e6) + t.
//
// Every write carries an explicit, unique timestamp (USING TIMESTAMP), except
// LWT and counters, which Cassandra forbids it on: their timestamp is the
// database clock's, OpMicros(i), a millisecond no other operation uses. So
// no two writes tie, and last-write-wins is reproducible from the log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/status.h"
#include "tests/db/reference_model.h"

namespace cassette::crash {

// The data tables, indexed 0..kDataTables-1, then the counter table.
inline constexpr int kDataTables = 4;
inline constexpr int kTables = kDataTables + 1;
inline constexpr int kCounterTable = kDataTables;
const char* TableName(int table);

// 2024-01-01T00:00:00Z, and 10 ms of database time per operation: a TTL of
// 1..5 s expires 100..500 operations later.
inline constexpr int64_t kStartMicros = 1'704'067'200'000'000;
inline constexpr int64_t kMicrosPerOp = 10'000;
inline constexpr int64_t OpMicros(int64_t index) { return kStartMicros + index * kMicrosPerOp; }

// The key space and value sizes. Small key spaces make overwrites,
// shadowing and deletions of live data common.
struct Shape {
  int partitions = 16;
  int clusterings = 8;
  int counter_partitions = 6;
  // Bytes of padding after a set element's first letter: large elements
  // fill commit-log segments and memtables sooner.
  int tag_padding = 0;
};

enum class OpKind : int {
  kWrite = 0,         // one data write (any ModelWrite kind)
  kLoggedBatch = 1,   // two data writes on two different tables, one record
  kCounter = 2,       // UPDATE ... SET c = c + d
  kCounterBatch = 3,  // BEGIN COUNTER BATCH with two increments
  kLwtInsert = 4,     // INSERT ... IF NOT EXISTS
  kLwtUpdate = 5,     // UPDATE ... SET v = x IF v = y
  kFlushTable = 6,
  kFlushAll = 7,
  kCompact = 8,  // the table's strategy until it proposes nothing
  kCompactMajor = 9,
};

struct DataWrite {
  int table = 0;
  testing::ModelWrite write;  // timestamp always set
  int tag_id = 0;             // kAddTag: the element is 'a'+tag_id
  int tag_padding = 0;        // ... then this many 'x'
  std::string Tag() const;
};

struct CounterWrite {
  int32_t pk = 0;
  int32_t ck = 0;
  int64_t delta = 0;  // never 0, so an applied increment is always visible
};

struct Op {
  int64_t index = 0;
  OpKind kind = OpKind::kWrite;
  int table = 0;  // flushes, compactions and LWT
  std::vector<DataWrite> writes;
  std::vector<CounterWrite> counters;
  // kLwtUpdate: the value the condition expects (IF v = expected): the
  // value read just before, or a different one so that some conditions fail.
  int32_t expected = 0;

  int64_t now_micros() const { return OpMicros(index); }
  bool IsWrite() const { return kind <= OpKind::kLwtUpdate; }
  // Writing it twice with the same timestamps and clock changes nothing:
  // every plain and batched write (not counters, not LWT).
  bool Idempotent() const { return kind == OpKind::kWrite || kind == OpKind::kLoggedBatch; }
};

// The operation `index` of the stream `seed`. An LWT UPDATE's expected
// value comes from `current_v` (the row's v as the database shows it now,
// nullopt when null or absent); pass nullopt where it does not matter.
Op GenerateOp(uint64_t seed, int64_t index, const Shape& shape,
              const std::optional<int32_t>& current_v);
// What GenerateOp needs to read first: the (table, pk, ck) of an LWT
// UPDATE, nullopt for every other operation.
struct RowRef {
  int table;
  int32_t pk;
  int32_t ck;
};
std::optional<RowRef> LwtReadTarget(uint64_t seed, int64_t index, const Shape& shape);

// One line (no newline) describing the operation, and back.
std::string EncodeOp(const Op& op);
Result<Op> DecodeOp(const std::string& text);
// A readable form for failure reports.
std::string DescribeOp(const Op& op);

// CREATE KEYSPACE / TABLE ... IF NOT EXISTS for every table.
std::vector<std::string> SchemaStatements();

// Runs the operation (the caller has set the clock to op.now_micros()).
// For an LWT, *applied receives the [applied] column; true otherwise.
Status ExecuteOp(CqlSession& session, const Op& op, bool* applied);

// The row's v now (nullopt when null or the row is absent).
Result<std::optional<int32_t>> ReadV(CqlSession& session, const RowRef& row);

}  // namespace cassette::crash
