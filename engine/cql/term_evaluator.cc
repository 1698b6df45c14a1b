// PLACEHOLDER (replaced by the terms work).
#include "engine/cql/term_evaluator.h"
namespace cassette::cql {
Result<Value> EvaluateTerm(const Term&, const DataType&, std::string_view, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<std::vector<Value>> EvaluateInValues(const Relation&, const DataType&, std::string_view,
                                            const ExecutionContext&) {
  return Status::NotSupported("pending");
}
Result<DataType> InferTermType(const Term&, const ExecutionContext&) {
  return Status::NotSupported("pending");
}
}  // namespace cassette::cql
