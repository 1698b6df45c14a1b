// Converts a public ReadQuery into the read path's ReadCommand: encodes
// partition keys and clustering bounds (turning CQL-order slices on DESC
// columns into storage order), resolves selected column names, and checks
// limits with Cassandra's messages.
#pragma once

#include <cstdint>

#include "cassette/query.h"
#include "cassette/schema.h"
#include "engine/read/execute_read.h"

namespace cassette {

struct ReadLimits {
  int64_t tombstone_warn_threshold = 1000;
  int64_t tombstone_failure_threshold = 100000;
};

// REQUIRES: `schema` outlives the returned command (it points to it).
Result<ReadCommand> ConvertReadQuery(const TableSchema& schema, const ReadQuery& query,
                                     int64_t now_sec, const ReadLimits& limits);

}  // namespace cassette
