// Operations on serialized values of a DataType: validation, Cassandra's
// comparison order, literal parsing and output formatting (cqlsh and SELECT
// JSON), and the binary form of a DataType itself for the schema file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette {

// InvalidRequest when the bytes are not a valid value of `type`
// (wrong length, bad UTF-8 for text, non-ASCII for ascii, ...).
Status ValidateValue(const DataType& type, std::string_view serialized);

// The empty value: zero bytes, a value distinct from null that Cassandra
// accepts for int, bigint, timestamp, float, double, boolean, uuid,
// timeuuid, inet, varint and decimal (blobAsInt(0x)). Drivers and cqlsh read it as
// null, functions take it as null, and it sorts before every other value.
// Text, ascii and blob have an ordinary empty value instead.
bool HasEmptyValue(const DataType& type);
bool IsEmptyValue(const DataType& type, std::string_view serialized);

// ValidateValue, also accepting the empty value of the types that have one:
// what a regular or static cell and a partition key part may hold. Keys
// compared through the comparable encoding (clustering columns, set
// elements, map keys) and values nested in collections, tuples and user
// types hold no empty value (ValidateValue refuses it).
Status ValidateCellValue(const DataType& type, std::string_view serialized);

// Cassandra's order (<0, 0, >0): signed for integers and timestamps,
// unsigned bytes for text/blob, numeric for varint/decimal, timeuuid by
// embedded time, collections element-wise.
int CompareValues(const DataType& type, std::string_view a, std::string_view b);

// Parses a CQL literal for `type` into serialized bytes. Strings may be
// quoted ('it''s') or bare; timestamps accept Cassandra's date formats;
// collections use [..], {..}, {k: v}. InvalidRequest with Cassandra's
// message on mismatch.
Result<std::string> ParseLiteral(const DataType& type, std::string_view literal);

// cqlsh rendering: timestamps as "2024-01-15 10:15:00.000000+0000", text
// unquoted at top level, blobs as 0x.., floats shortest round-trip.
std::string FormatValue(const DataType& type, std::string_view serialized);
// SELECT JSON rendering: timestamps "2024-01-15 10:15:00.000Z", blobs "0x..",
// numbers bare, collections as JSON arrays/objects.
std::string FormatJson(const DataType& type, std::string_view serialized);

// A JSON string literal for `s` (Jackson's escaping: quote, backslash and
// control characters; other characters verbatim). For JSON keys and values.
std::string JsonQuote(std::string_view s);

// Binary form of a type for the schema file.
void EncodeDataType(const DataType& type, std::string* out);
Status DecodeDataType(std::string_view* in, DataType* type);

// Element encodings inside a serialized (frozen or whole) collection value,
// Cassandra's format: [int32 count] then per element [int32 len][bytes].
// For lists and sets; a map's count is its number of entries, so maps use
// SerializeMap/DeserializeMap. Deserialize returns InvalidRequest on
// malformed input (and never reads past the end).
std::string SerializeCollection(const std::vector<std::string>& elements);
Status DeserializeCollection(std::string_view serialized, std::vector<std::string>* elements);

// Maps: [int32 count] then per entry key and value, each [int32 len][bytes].
std::string SerializeMap(const std::vector<std::pair<std::string, std::string>>& entries);
Status DeserializeMap(std::string_view serialized,
                      std::vector<std::pair<std::string, std::string>>* entries);

// Tuples: per component [int32 len][bytes], len -1 for a null component.
std::string SerializeTuple(const std::vector<std::optional<std::string>>& components);
Status DeserializeTuple(std::string_view serialized,
                        std::vector<std::optional<std::string>>* components);

}  // namespace cassette
