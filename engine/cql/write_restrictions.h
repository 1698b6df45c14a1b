// The WHERE clause of UPDATE and DELETE (and INSERT's key values, given as
// equalities) checked as Cassandra's StatementRestrictions checks a
// modification, and resolved to the partition keys and clustering
// prefixes or slice it writes.
#pragma once

#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/write_plan.h"

namespace cassette::cql {

// `static_only`: the statement modifies (and conditions) static columns
// only, so it may omit the clustering columns. Slices on clustering columns
// are allowed for DELETE only.
Result<WriteTargets> ResolveWriteTargets(const TableSchema& schema, WriteKind kind,
                                         bool static_only, const std::vector<Relation>& where,
                                         const ExecutionContext& context);

}  // namespace cassette::cql
