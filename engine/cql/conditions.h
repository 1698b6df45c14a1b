// Lightweight transactions on one node: IF conditions evaluated against the
// current row (read under the session's serial mutex by the caller), with
// Cassandra's comparison rules for nulls, and the "[applied]" result rows
// Cassandra returns for applied and rejected conditional writes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/schema.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/write_plan.h"

namespace cassette::cql {

// IF c op v AND c[k] op v ...: checked against the table, terms evaluated.
Result<std::vector<ColumnCondition>> PrepareConditions(const TableSchema& schema,
                                                       const std::vector<Relation>& conditions,
                                                       const ExecutionContext& context);

// The row a conditional write targets, as it is now.
struct CurrentRow {
  // A live regular row (or, for static-only writes, a live static row).
  bool exists = false;
  // Every column in SELECT * order and its value (null where absent); the
  // static columns hold the partition's static values even when the row
  // does not exist.
  std::vector<ColumnSpec> columns;
  std::vector<Value> values;
  bool has_statics = false;

  const Value* Find(const std::string& column) const;
};

// Reads the row of `clustering` in partition `key` (the static row when
// `static_only`).
Result<CurrentRow> ReadCurrentRow(Database* db, const TableSchema& schema,
                                  const std::vector<Value>& key,
                                  const std::vector<Value>& clustering, bool static_only);

// Whether the plan's condition holds for `row`. InvalidRequest for a
// comparison Cassandra refuses (e.g. `IF v < null`).
Result<bool> ConditionHolds(const WritePlan& plan, const CurrentRow& row);

// The one-row result of a conditional statement: [applied], and when not
// applied the current values Cassandra shows (the condition columns, or
// the whole row for IF [NOT] EXISTS).
CqlResult AppliedResult(bool applied, const WritePlan& plan, const CurrentRow& row);

// A conditional BATCH that did not apply: [applied] false, then the
// primary key and the condition columns of every targeted row that exists
// (every column when a statement used IF [NOT] EXISTS).
CqlResult BatchNotAppliedResult(const std::vector<const WritePlan*>& plans,
                                const std::vector<CurrentRow>& rows);

}  // namespace cassette::cql
