// Partition keys and clusterings as the storage layers see them.
//
// Partition key: Cassandra's serialized key, the bytes Murmur3 hashes. A
// one-column key is the column's serialized value; a composite key is,
// per component, [u16 BE length][bytes][0x00] (CompositeType).
//
// Clustering: the comparable encodings (engine/types/comparable.h) of the
// clustering values concatenated, each column ASC or DESC as declared.
// memcmp order is clustering order; fewer values than clustering columns
// encode a prefix, which is a byte prefix of every clustering starting
// with those values.
//
// The one codec of keys: the write path (db/mutation_converter.cc,
// db/insert_batch_converter.cc), the read path (db/query_converter.cc) and
// CQL (cql/select_restrictions.cc, cql/selection.cc) all encode here, from
// serialized components or from public Values.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette {

// InvalidRequest when the component count differs from the partition key's,
// a one-column key is empty ("Key may not be empty"), or a component or the
// whole key exceeds 65535 bytes.
Result<std::string> SerializePartitionKey(const TableSchema& schema,
                                          const std::vector<std::string>& serialized_components);
// The same over views, for callers that hold the bytes elsewhere (no copy
// of each component first).
Result<std::string> SerializePartitionKey(const TableSchema& schema,
                                          std::span<const std::string_view> serialized_components);

// The same key appended to *out; on error *out is as it was.
Status AppendPartitionKey(const TableSchema& schema,
                          std::span<const std::string_view> serialized_components,
                          std::string* out);

// Corruption when `key` is not a key of this table's shape.
Status DeserializePartitionKey(const TableSchema& schema, std::string_view key,
                               std::vector<std::string>* components);
Result<std::vector<std::string>> DeserializePartitionKey(const TableSchema& schema,
                                                         std::string_view key);

// REQUIRES: each component is a valid value of its column's type and there
// are at most as many components as clustering columns (extra ones are
// ignored).
std::string EncodeClustering(const TableSchema& schema,
                             const std::vector<std::string>& serialized_components);

// Decodes a full clustering or a prefix. Corruption on malformed input or
// bytes left after the last clustering column.
Status DecodeClustering(const TableSchema& schema, std::string_view clustering,
                        std::vector<std::string>* components);
Result<std::vector<std::string>> DecodeClustering(const TableSchema& schema,
                                                  std::string_view clustering);

// From public Values, each checked against its column (column_value.h,
// CheckValue) with Cassandra's messages.

// The partition key from one value per partition key column: missing,
// extra, null or mistyped components are InvalidRequest, as are the
// errors of SerializePartitionKey.
Result<std::string> EncodePartitionKeyValues(const TableSchema& schema,
                                             const std::vector<Value>& values);

// A clustering prefix from values for the clustering columns starting at
// `first_column`: InvalidRequest past the last clustering column, for a
// null or mistyped value, or a value over 65535 bytes.
Result<std::string> EncodeClusteringValues(const TableSchema& schema,
                                           const std::vector<Value>& values,
                                           size_t first_column = 0);

// One clustering column's value appended to *out as EncodeClusteringValues
// encodes it; on error *out is as it was.
Status AppendClusteringValue(const ColumnDefinition& column, const Value& value, std::string* out);

}  // namespace cassette
