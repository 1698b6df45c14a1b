// Selectors computing operations (Cassandra's OperationFcts in the
// selection clause): `a + b`, `c * 2`, `time - 10m`, `-a`, and a type hint
// over a selector, `(int)(a + b)`.
#pragma once

#include <string_view>

#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/cql/ast.h"
#include "engine/cql/selection.h"

namespace cassette::cql {

// Builds a Selector::Kind::kOperation or kTypeHint selector. Operand types
// are checked here, when the statement is prepared: "the '+' operation is
// not supported between a and b".
Result<SelectorNodePtr> BuildOperationSelector(const Selector& selector,
                                               SelectionContext* selection);
Result<SelectorNodePtr> BuildTypeHintSelector(const Selector& selector,
                                              SelectionContext* selection);

// `left op right` as Cassandra executes an operation, failing ("/ by zero",
// a NaN into a decimal, a timestamp minus a duration finer than a
// millisecond) with OperationExecutionException's message. Cassandra's
// class for it is FunctionFailure; cassette's Status has no such class
// yet, so it is an InvalidRequest.
Result<Value> ExecuteOperation(std::string_view op, const Value& left, const Value& right);

}  // namespace cassette::cql
