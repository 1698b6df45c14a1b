// PLACEHOLDER (replaced by the modification work).
#include "engine/cql/modification_statement.h"
namespace cassette::cql {
Result<CqlResult> ExecuteInsert(const InsertStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteUpdate(const UpdateStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteDelete(const DeleteStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<CqlResult> ExecuteBatch(const BatchStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
}  // namespace cassette::cql
