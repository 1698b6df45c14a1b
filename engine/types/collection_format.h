// Zero-copy readers of the serialized forms of frozen collections and
// tuples (Cassandra's native protocol v3+ layout, big-endian):
//   list, set: [int32 n] then n x ([int32 len][len bytes])
//   map:       [int32 n] then n x (key, value), each [int32 len][bytes]
//   tuple:     per component [int32 len][bytes], len -1 = null; a value may
//              hold fewer components than its type (a prefix)
// The views point into the input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"

namespace cassette {

// Reads a list or set (values_per_entry 1) or a map (2, keys and values
// alternating). `what` names the kind in errors ("list", "set", "map").
// InvalidRequest with Cassandra's messages on malformed input.
Status ReadCollection(std::string_view serialized, int values_per_entry, std::string_view what,
                      std::vector<std::string_view>* values);

// The same for a collection a result may carry with null elements (length
// -1, nullopt here): the list TTL(l) returns holds null for an element
// that never expires, as Cassandra 5's does. Stored and written
// collections never hold one (ReadCollection refuses it).
Status ReadCollectionWithNulls(std::string_view serialized, int values_per_entry,
                               std::string_view what,
                               std::vector<std::optional<std::string_view>>* values);

// Reads a tuple's components (nullopt for null ones).
Status ReadTuple(std::string_view serialized,
                 std::vector<std::optional<std::string_view>>* components);

// Appends [int32 len][bytes].
void AppendValue(std::string* out, std::string_view value);

}  // namespace cassette
