// PLACEHOLDER (replaced by the terms work).
#include "engine/cql/functions.h"
namespace cassette::cql {
Result<DataType> ResolveFunction(std::string_view, const std::vector<std::optional<DataType>>&,
                                 std::vector<DataType>*) {
  return Status::NotSupported("pending");
}
Result<Value> CallFunction(std::string_view, const std::vector<Value>&, const FunctionContext&) {
  return Status::NotSupported("pending");
}
Result<Value> CastValue(const Value&, const DataType&) { return Status::NotSupported("pending"); }
}  // namespace cassette::cql
