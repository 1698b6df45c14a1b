// Arithmetic on typed values (Cassandra's OperationFcts): + - * / % on
// numbers with Cassandra's result types, timestamps and dates plus or minus
// a duration, and negation. The term evaluator types the operands first.
#pragma once

#include <optional>
#include <string_view>

#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette::cql {

// The result type of `left op right`, or nullopt when Cassandra has no such
// operation. Numbers: floating point if either side is, as wide as the
// wider side (int + float = float, bigint + float = double, varint + float
// = decimal); timestamp/date +- duration keeps the temporal type.
std::optional<DataType> OperationResultType(std::string_view op, const DataType& left,
                                            const DataType& right);

// `left op right`; a null operand gives null. InvalidRequest for a failed
// operation ("the operation 'int / int' failed: / by zero"). varint and
// decimal follow Java's BigInteger and BigDecimal as Cassandra 5.0's
// IntegerType and DecimalType use them (docs/CQL.md, "Numbers").
Result<Value> ApplyOperation(std::string_view op, const Value& left, const Value& right);

// -value for numbers and durations.
Result<Value> NegateValue(const Value& value);

}  // namespace cassette::cql
