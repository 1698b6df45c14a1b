// Write plans to engine mutations. Operations that need the current value
// (counter increments, list index assignment and deletion, list removal by
// value) read it here, so the caller holds the serial mutex while building
// a plan that NeedsRead() and until the mutations are applied. Values
// written earlier in the same batch are seen by later statements (two
// increments of one counter in a batch add up). Thread-compatible.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/mutation.h"
#include "engine/cql/write_plan.h"

namespace cassette::cql {

class MutationBuilder {
 public:
  explicit MutationBuilder(Database* db) : db_(db) {}

  // Appends the plan's mutations (one per partition key) to `out`.
  Status Build(const WritePlan& plan, std::vector<Mutation>* out);
  // The same, moving the key and the values out of `plan` (left valid but
  // unspecified) when it writes one row that needs no read.
  Status Build(WritePlan&& plan, std::vector<Mutation>* out);

 private:
  Status ApplyWrites(const WritePlan& plan, const std::vector<Value>& key,
                     const std::vector<Value>& clustering, RowBuilder row);
  Status ApplyWrite(const WritePlan& plan, const ColumnWrite& write, const std::vector<Value>& key,
                    const std::vector<Value>& clustering, RowBuilder& row);
  Status ApplyReadWrite(const WritePlan& plan, const ColumnWrite& write,
                        const std::vector<Value>& key, const std::vector<Value>& clustering,
                        RowBuilder& row);
  // The column's value in the row now, or as this batch already wrote it.
  Result<Value> CurrentValue(const WritePlan& plan, const ColumnWrite& write,
                             const std::vector<Value>& key, const std::vector<Value>& clustering,
                             std::string* cache_key);

  Database* db_;
  std::map<std::string, Value> written_;
};

}  // namespace cassette::cql
