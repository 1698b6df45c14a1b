// Cell paths that name a part of a multi-cell column and are not a value
// of the column's element type: a non-frozen user type's field.
#pragma once

#include <cstddef>
#include <string>

namespace cassette {

// The path of field `field` (its position in the type) of a non-frozen
// user type column: the position as a comparable smallint, since
// Cassandra's cell path for a field is a short.
std::string UserTypeFieldPath(size_t field);

}  // namespace cassette
