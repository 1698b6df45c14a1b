// SELECT: restrictions checked against the table as Cassandra checks them
// (StatementRestrictions), turned into engine reads, then filtering,
// selectors, aggregates, GROUP BY, ORDER BY across IN partitions, LIMIT,
// JSON and paging.
#pragma once

#include "cassette/cql.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"

namespace cassette::cql {

Result<CqlResult> ExecuteSelect(const SelectStatement& statement, const ExecutionContext& context);

}  // namespace cassette::cql
