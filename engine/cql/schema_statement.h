// Schema statements: CREATE/ALTER/DROP KEYSPACE and TABLE, TRUNCATE, USE
// and DESCRIBE, with Cassandra's validation messages.
#pragma once

#include "cassette/cql.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"

namespace cassette::cql {

Result<CqlResult> ExecuteCreateKeyspace(const CreateKeyspaceStatement& statement,
                                        const ExecutionContext& context);
Result<CqlResult> ExecuteAlterKeyspace(const AlterKeyspaceStatement& statement,
                                       const ExecutionContext& context);
Result<CqlResult> ExecuteDropKeyspace(const DropKeyspaceStatement& statement,
                                      const ExecutionContext& context);
Result<CqlResult> ExecuteCreateTable(const CreateTableStatement& statement,
                                     const ExecutionContext& context);
Result<CqlResult> ExecuteAlterTable(const AlterTableStatement& statement,
                                    const ExecutionContext& context);
Result<CqlResult> ExecuteDropTable(const DropTableStatement& statement,
                                   const ExecutionContext& context);
Result<CqlResult> ExecuteTruncate(const TruncateStatement& statement,
                                  const ExecutionContext& context);
Result<CqlResult> ExecuteUse(const UseStatement& statement, const ExecutionContext& context);
Result<CqlResult> ExecuteDescribe(const DescribeStatement& statement,
                                  const ExecutionContext& context);

// The CREATE TABLE statement DESCRIBE prints for a table (every option).
std::string DescribeTableCql(const TableSchema& table);

}  // namespace cassette::cql
