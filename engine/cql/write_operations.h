// What a write does to each column: UPDATE's SET assignments, INSERT's
// values and DELETE's column list, checked as Cassandra's Operation checks
// them (with its messages) and with their terms evaluated.
#pragma once

#include <string>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/write_plan.h"

namespace cassette::cql {

// UPDATE ... SET.
Result<std::vector<ColumnWrite>> PrepareAssignments(const TableSchema& schema,
                                                    const std::vector<Assignment>& assignments,
                                                    const ExecutionContext& context);

// DELETE's column list (columns and collection elements).
Result<std::vector<ColumnWrite>> PrepareDeletions(const TableSchema& schema,
                                                  const std::vector<DeleteTarget>& targets,
                                                  const ExecutionContext& context);

// `column = value` for INSERT (a null value writes a tombstone; a
// non-frozen collection replaces the old elements).
ColumnWrite SetColumnValue(const ColumnDefinition& column, Value value);

}  // namespace cassette::cql
