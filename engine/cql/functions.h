// CQL's native scalar functions, called by name: the time functions (now(),
// current_timestamp(), to_date(), min_timeuuid(), floor(), ... under their
// Cassandra 5 snake_case and older camelCase names), blob conversions,
// cast_as_<type>(), token(), the math, collection, masking and JSON
// functions (see function_registry.h), and CAST conversions. Aggregates
// live with SELECT.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette::cql {

struct FunctionContext {
  int64_t now_micros = 0;
};

// The function's return type for these argument types, or InvalidRequest
// with Cassandra's message ("Unknown function 'f'", "Invalid number of
// arguments in call to function system.todate: 1 required but 2 provided", ...).
// An argument type may be absent (an untyped literal or NULL): the
// function's signature then decides the argument's type, returned in
// `*argument_types`.
Result<DataType> ResolveFunction(std::string_view name,
                                 const std::vector<std::optional<DataType>>& argument_types,
                                 std::vector<DataType>* resolved_argument_types);

// Calls a scalar function on values already typed per ResolveFunction.
Result<Value> CallFunction(std::string_view name, const std::vector<Value>& arguments,
                           const FunctionContext& context);

// CAST(value AS type), as Cassandra's CastFcts allow it (numbers between
// numeric types, anything to text/ascii, timestamp/date/timeuuid between
// each other); InvalidRequest otherwise.
Result<Value> CastValue(const Value& value, const DataType& target);

}  // namespace cassette::cql
