// PLACEHOLDER (replaced by the SELECT work).
#include "engine/cql/select_statement.h"
namespace cassette::cql {
Result<CqlResult> ExecuteSelect(const SelectStatement&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
}  // namespace cassette::cql
