// Pieces of the CQL literal syntax shared by the scalar and collection
// literal parsers (literal_parser.cc, collection_literal.cc).
#pragma once

#include <string>
#include <string_view>

#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/util/ascii.h"

namespace cassette {

// Without leading and trailing whitespace.
std::string_view TrimLiteral(std::string_view s);
// A list, set, map or tuple literal (already trimmed) for `type`.
Result<std::string> ParseCompositeLiteral(const DataType& type, std::string_view literal);
// A tuple from its string form, as Cassandra's TupleType.fromString reads
// a string constant: components split on ':' (escaped "\:"), "@" for null;
// components the string leaves out are null.
Result<std::string> ParseTupleString(const DataType& type, std::string_view text);

}  // namespace cassette
