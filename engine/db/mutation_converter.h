// Converts a public Mutation into the internal PartitionUpdate for one
// table: checks every value against the schema, assigns the write timestamp
// and TTL, encodes keys, and turns INSERT/UPDATE/DELETE semantics into cells,
// markers and deletions (SPEC.md §1-§3). Either the whole update is built or
// an InvalidRequest explains why not; nothing is applied here.
#pragma once

#include <cstdint>

#include "cassette/mutation.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/mutation/partition_update.h"

namespace cassette {

struct ConversionContext {
  uint64_t table_id = 0;
  int64_t timestamp = 0;  // the write timestamp (micros) to give every cell
  int64_t now_sec = 0;    // local deletion / expiry base
};

// Builds the update in *update, which must be empty (default-constructed):
// the caller owns where it lives, so it is built in place. On error *update
// holds part of the conversion and is to be dropped.
Status ConvertMutation(const TableSchema& schema, const Mutation& mutation,
                       const ConversionContext& context, PartitionUpdate* update);

// Encodes the partition key values of `schema` (null, missing or mistyped
// components are InvalidRequest with Cassandra's messages).
Result<std::string> EncodePartitionKeyValues(const TableSchema& schema,
                                             const std::vector<Value>& values);

// Encodes a clustering prefix (values for the leading clustering columns).
Result<std::string> EncodeClusteringValues(const TableSchema& schema,
                                           const std::vector<Value>& values,
                                           size_t first_column = 0);

// InvalidRequest unless `value` is a non-null value of `column`'s type.
Status CheckValue(const ColumnDefinition& column, const Value& value, const char* what);

}  // namespace cassette
