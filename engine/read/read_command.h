// ReadCommand: one single-table read as the read path executes it, after the
// CQL layer has resolved names, encoded the partition keys and turned the
// clustering restrictions into a storage-order range. A plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/query.h"
#include "cassette/schema.h"
#include "engine/mutation/clustering_bound.h"
#include "engine/mutation/decorated_key.h"

namespace cassette {

struct ReadCommand {
  // Borrowed; must outlive the read.
  const TableSchema* schema = nullptr;
  // Partitions to read, in the order their rows are returned.
  std::vector<DecoratedKey> keys;
  // When keys is empty: the token range to scan; nullopt too = full scan.
  std::optional<TokenRange> token_range;
  // Rows of each partition, in storage order (already encoded).
  ClusteringRange range;
  // Rows in the reverse of storage order (partitions keep their order).
  bool reversed = false;
  // The query restricts clustering or regular columns: a partition with
  // live static data but no live row then yields nothing (as in Cassandra).
  bool restricts_rows = false;
  // Indices into schema->columns(), in output order. Empty: SELECT * order.
  std::vector<size_t> selection;
  // Also return WRITETIME and TTL of each selected column.
  bool with_cell_metadata = false;
  int64_t limit = 0;                // CQL rows in total; 0 = none
  int64_t per_partition_limit = 0;  // 0 = none
  // One row per partition with live data: partition key and static columns.
  bool distinct = false;
  // At most page_size rows per call (0 = no paging); paging_state resumes.
  int32_t page_size = 0;
  std::string paging_state;
  // Expiry and gc_grace are judged at this second.
  int64_t now_sec = 0;
  // Negative disables a threshold.
  int64_t tombstone_warn_threshold = 1000;
  int64_t tombstone_failure_threshold = 100000;
};

// The columns a command returns: its selection, or every column in
// SELECT * order (partition key, clustering, statics then regulars by name).
std::vector<size_t> SelectedColumns(const ReadCommand& cmd);

// A short CQL rendering of the command ("SELECT a, b FROM ks.t WHERE
// token(k) >= ... LIMIT 10") for tombstone warnings and errors.
std::string DescribeReadCommand(const ReadCommand& cmd);

}  // namespace cassette
