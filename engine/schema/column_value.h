// Whether a public Value may be written to a column: the check every write
// and every key encoding (key_codec.h) makes before a value's bytes are
// stored, with Cassandra's messages.
#pragma once

#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette {

// Whether a value of type `value` may be stored in a column (or collection
// element, or user type field) of type `column`: the same type up to
// frozenness (a frozen value has the same bytes as a whole non-frozen one),
// text and ascii interchangeably (ValidateValue then checks the bytes).
bool ValueTypeFitsColumn(const DataType& column, const DataType& value);

// InvalidRequest unless `value` is a non-null value of `column`'s type;
// `what` names the column's role in the message ("column", "partition key
// part", "clustering key part").
Status CheckValue(const ColumnDefinition& column, const Value& value, const char* what);

}  // namespace cassette
