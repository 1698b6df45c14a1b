// GroupFolder: GROUP BY and aggregates over rows fed one at a time, in
// the order Cassandra groups them (consecutive rows with the same
// partition and clustering prefix, the last one through the GROUP BY
// function; all rows one group for an aggregate without GROUP BY). Only
// the open group's aggregate state and the kept groups are held, so memory
// does not grow with the rows aggregated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/query.h"
#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/cql/select_plan.h"

namespace cassette::cql {

// The partition of `row` as one string (its partition key values,
// length-prefixed), for telling partitions apart.
std::string PartitionIdentity(const ResultRow& row, const std::vector<size_t>& key_slots);

class GroupFolder {
 public:
  // Skips the first `skip` groups (an earlier page's) and keeps at most
  // `keep` after them (0: all); honours the plan's LIMIT and PER PARTITION
  // LIMIT, which count groups.
  GroupFolder(SelectPlan* plan, uint64_t skip, uint64_t keep);

  Status Add(const ResultRow& row);
  // After the last row: closes the open group.
  Status Finish();
  // No further row can change the result: LIMIT or `keep` reached.
  bool done() const { return done_; }
  std::vector<std::vector<Value>>& groups() { return groups_; }
  // Groups completed, skipped ones included.
  uint64_t groups_closed() const { return groups_closed_; }

 private:
  // The row's group key: partition, then each grouped clustering value.
  Result<std::vector<std::string>> GroupKey(const ResultRow& row, std::string* partition);
  Status CloseGroup();
  void ResetSelectors();

  SelectPlan* const plan_;
  const uint64_t skip_;
  const uint64_t keep_;
  std::optional<std::vector<std::string>> current_key_;
  std::string current_partition_;
  int64_t groups_in_partition_ = 0;
  bool group_open_ = false;
  uint64_t groups_closed_ = 0;
  bool done_ = false;
  std::vector<std::vector<Value>> groups_;
};

}  // namespace cassette::cql
