// INSERT, UPDATE, DELETE and BATCH: validated against the table as
// Cassandra's ModificationStatement validates them, turned into engine
// mutations; IF conditions and IF [NOT] EXISTS (read, compare and write
// under the serial mutex, returning the [applied] row) and counters.
#pragma once

#include "cassette/cql.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"

namespace cassette::cql {

Result<CqlResult> ExecuteInsert(const InsertStatement& statement, const ExecutionContext& context);
Result<CqlResult> ExecuteUpdate(const UpdateStatement& statement, const ExecutionContext& context);
Result<CqlResult> ExecuteDelete(const DeleteStatement& statement, const ExecutionContext& context);
Result<CqlResult> ExecuteBatch(const BatchStatement& statement, const ExecutionContext& context);

}  // namespace cassette::cql
