// CREATE TYPE / ALTER TYPE / DROP TYPE, with Cassandra 5.0's messages.
#pragma once

#include "cassette/cql.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"

namespace cassette::cql {

Result<CqlResult> ExecuteUserTypeStatement(const UserTypeStatement& statement,
                                           const ExecutionContext& context);

}  // namespace cassette::cql
