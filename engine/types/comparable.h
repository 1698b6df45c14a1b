// Comparable ("byte-comparable") encoding of values: memcmp order of the
// encodings equals Cassandra's comparison order of the values. Every
// encoding is prefix-free, so clusterings are the concatenation of their
// components' encodings, a clustering prefix is a byte prefix, and a DESC
// column is its encoding with every byte inverted. Also used for collection
// element paths (set elements, map keys, list timeuuids). Format:
// engine/types/FORMAT.md (indexed from docs/FORMAT.md).
#pragma once

#include <string>
#include <string_view>

#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette {

// Appends the comparable encoding of `serialized` (a value of `type` in
// Cassandra's serialized form). REQUIRES: ValidateValue(type, serialized) ok.
void EncodeComparable(const DataType& type, std::string_view serialized, bool descending,
                      std::string* out);

// Decodes one component from the front of *in (advancing it) back into the
// serialized form. Corruption on malformed input, and on bytes that decode
// to no valid value of the type (ValidateValue refuses it).
Status DecodeComparable(const DataType& type, bool descending, std::string_view* in,
                        std::string* serialized);

}  // namespace cassette
