// Terms to values: a literal typed by its receiver, a bind marker's value
// checked against the receiver's type, collection and tuple literals built
// element by element, function calls, casts and type hints.
#pragma once

#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/function_registry.h"

namespace cassette::cql {

// `receiver` is the column (or element, key, or function argument) the
// term is assigned to or compared with; `receiver_name` names it in
// errors, as Cassandra does ("Invalid INTEGER constant (1.5) for "v" of type int").
// A NULL term yields a null Value of the receiver's type.
Result<Value> EvaluateTerm(const Term& term, const DataType& receiver,
                           std::string_view receiver_name, const ExecutionContext& context);

// The values of an IN: a literal list or a bound list (`IN ?`), each typed
// by `receiver`. Duplicates are kept (callers de-duplicate where Cassandra does).
Result<std::vector<Value>> EvaluateInValues(const Relation& relation, const DataType& receiver,
                                            std::string_view receiver_name,
                                            const ExecutionContext& context);

// The type a term has without a receiver (a function call's return type, a
// cast, a hinted or bound value), when it has one: SELECT's constant
// selectors and function arguments need it.
Result<DataType> InferTermType(const Term& term, const ExecutionContext& context);

// A term as a function-call argument for overload resolution: how it fits
// each parameter type (a literal fits every type it can be written to),
// its text, and its own type when it has one. `term` and `context` must
// outlive the result.
ProvidedArgument TermArgument(const Term& term, const ExecutionContext& context);

}  // namespace cassette::cql
