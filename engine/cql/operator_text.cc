#include "engine/cql/operator_text.h"

namespace cassette::cql {

const char* OperatorText(Operator op) {
  switch (op) {
    case Operator::kEq:
      return "=";
    case Operator::kNeq:
      return "!=";
    case Operator::kLt:
      return "<";
    case Operator::kLe:
      return "<=";
    case Operator::kGt:
      return ">";
    case Operator::kGe:
      return ">=";
    case Operator::kIn:
      return "IN";
    case Operator::kContains:
      return "CONTAINS";
    case Operator::kContainsKey:
      return "CONTAINS KEY";
    case Operator::kLike:
      return "LIKE";
    case Operator::kIsNotNull:
      return "IS NOT";
  }
  return "?";
}

}  // namespace cassette::cql
