// What the crash test compares: the visible state of every table of the
// workload, rendered per partition, as the database shows it and as the
// model says it must be after a given prefix of the operations.
//
// The model is tests/db/reference_model.h (an obviously-correct map of the
// winning versions, deletions and TTLs) per data table, plus the sum of the
// increments per counter cell.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cassette/db.h"
#include "tests/crash/crash_workload.h"
#include "tests/db/reference_model.h"

namespace cassette::crash {

// Per partition key 0..n-1: "pk,ck,s,v,tags;..." (data tables) or
// "pk,ck,c;..." (the counter table), "" when the partition shows nothing.
using TableState = std::vector<std::string>;
using DbState = std::array<TableState, kTables>;

class CrashModel {
 public:
  // An LWT or counter update changes the model only when `applied`.
  void Apply(const Op& op, bool applied);
  // Whether the LWT `op` must apply on this state at its time: IF NOT
  // EXISTS when the row shows nothing, IF v = x when v is x.
  bool LwtApplies(const Op& op) const;
  // What a full read of every partition returns at `now_micros`.
  DbState Render(const Shape& shape, int64_t now_micros) const;

 private:
  std::array<testing::ReferenceModel, kDataTables> tables_;
  std::map<std::pair<int32_t, int32_t>, int64_t> counters_;
};

// Reads every partition of every table of the workload.
Result<DbState> ReadState(Database& db, const Shape& shape);

// The recovered state against the allowed states: the model after
// consecutive prefixes of the operations, oldest first. ops[i] is the
// operation that takes candidates[i] to candidates[i + 1].
struct Verdict {
  // Equal to some candidate; `prefix` is the index of the latest one it equals.
  bool consistent = false;
  int prefix = -1;
  // LOGGED batches whose part in one table is in the state while their
  // part in another table is not (judged table by table).
  int torn_batches = 0;
  // Partitions of the tables that match no candidate, differing from the
  // latest candidate.
  int differing_partitions = 0;
  std::string detail;  // what differs, for the failure report
};
Verdict Compare(const DbState& got, const std::vector<const DbState*>& candidates,
                const std::vector<const Op*>& ops);

}  // namespace cassette::crash
