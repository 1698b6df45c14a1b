// Write plans to engine mutations. Operations that need the current value
// (counter increments, list index assignment and deletion, list removal by
// value) read it here, so the caller holds the serial mutex while building
// a plan that NeedsRead() and until the mutations are applied. A counter
// sees what earlier statements of its batch wrote (two increments of one
// counter in a batch add up); a list operation reads the list as stored
// with its own statement's earlier operations applied (not other
// statements' of its batch), as Cassandra's do. Thread-compatible.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/mutation.h"
#include "engine/cql/statement_list_view.h"
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

  // Keeps, of the counter cells written several times in `mutations` (a
  // BATCH's, built here), only the last write: each carries the running
  // total, and writes of one cell at one timestamp would otherwise
  // reconcile to the larger total, not the last (`c = c + 1` then
  // `c = c - 1` in one batch must leave c unchanged).
  static void DropSupersededCounterWrites(std::vector<Mutation>* mutations);

 private:
  // One statement's row: its builder, the operations it holds so far, and
  // the lists its operations have read (by column).
  struct StatementRow {
    RowBuilder builder;
    std::vector<ColumnOperation>* operations;
    std::map<std::string, StatementListView> lists;
  };

  Status ApplyWrites(const WritePlan& plan, const std::vector<Value>& key,
                     const std::vector<Value>& clustering, StatementRow* row);
  Status ApplyWrite(const WritePlan& plan, const ColumnWrite& write, const std::vector<Value>& key,
                    const std::vector<Value>& clustering, StatementRow* row);
  Status ApplyCounterWrite(const WritePlan& plan, const ColumnWrite& write,
                           const std::vector<Value>& key, const std::vector<Value>& clustering,
                           RowBuilder& row);
  // l[i] = v, DELETE l[i], l = l - [..]: the cells of the elements changed.
  Status ApplyListElementWrite(const WritePlan& plan, const ColumnWrite& write,
                               const std::vector<Value>& key, const std::vector<Value>& clustering,
                               StatementRow* row);
  // The list `write` names as the statement sees it now (read on first use).
  Result<StatementListView*> ListView(const WritePlan& plan, const ColumnWrite& write,
                                      const std::vector<Value>& key,
                                      const std::vector<Value>& clustering, StatementRow* row);
  // The read of the written column in the written row.
  static ReadQuery CurrentRowQuery(const WritePlan& plan, const ColumnWrite& write,
                                   const std::vector<Value>& key,
                                   const std::vector<Value>& clustering);
  // The column's value in the row now, or as this batch already wrote it.
  Result<Value> CurrentValue(const WritePlan& plan, const ColumnWrite& write,
                             const std::vector<Value>& key, const std::vector<Value>& clustering,
                             std::string* cache_key);

  Database* db_;
  std::map<std::string, Value> written_;
};

}  // namespace cassette::cql
