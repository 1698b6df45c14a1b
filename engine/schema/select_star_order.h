// The order of a table's columns in SELECT * (and in a read that names no
// columns): partition key columns in key order, clustering columns in
// clustering order, then static and regular columns each by name, as
// Cassandra's TableMetadata orders them.
#pragma once

#include <vector>

#include "cassette/schema.h"

namespace cassette {

// Indices into schema.columns().
std::vector<size_t> SelectStarOrder(const TableSchema& schema);

}  // namespace cassette
