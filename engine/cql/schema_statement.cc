// PLACEHOLDER (replaced by the schema work).
#include "engine/cql/schema_statement.h"
namespace cassette::cql {
Result<CqlResult> ExecuteCreateKeyspace(const CreateKeyspaceStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteAlterKeyspace(const AlterKeyspaceStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteDropKeyspace(const DropKeyspaceStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteCreateTable(const CreateTableStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteAlterTable(const AlterTableStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteDropTable(const DropTableStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteTruncate(const TruncateStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteUse(const UseStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteDescribe(const DescribeStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
std::string DescribeTableCql(const TableSchema&) { return ""; }
}  // namespace cassette::cql
