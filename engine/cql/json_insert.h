// INSERT JSON's value: a JSON object whose keys name columns (lower-cased
// unless the key itself is a quoted name, "\"Name\"", as Cassandra's
// Json.handleCaseSensitivity does) and whose values convert to each
// column's type as Cassandra's fromJSONObject converts them: numbers,
// strings (for any type whose literal is a string, e.g. timestamps, uuids,
// blobs as "0x.."), booleans, arrays for lists, sets and tuples, objects
// for maps. Errors are Cassandra's InvalidRequest messages.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette::cql {

// Column name -> value (a JSON null gives a null Value). Columns the
// object does not name are absent.
Result<std::map<std::string, Value>> ParseInsertJson(std::string_view json,
                                                     const TableSchema& schema);

// One JSON document as a value of `type`, converted as INSERT JSON converts
// a column's member (from_json()'s work). A JSON null gives a null Value.
// `*malformed` tells an error in the JSON itself from one converting it.
Result<Value> ParseJsonValue(std::string_view json, const DataType& type, bool* malformed);

}  // namespace cassette::cql
