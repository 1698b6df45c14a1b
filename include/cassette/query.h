// ReadQuery and ResultSet: a single-table read and what it returns.
// Plain, thread-compatible values.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cassette/mutation.h"
#include "cassette/value.h"

namespace cassette {

// A range of Murmur3 tokens.
struct TokenRange {
  int64_t start = INT64_MIN;
  bool start_inclusive = true;
  int64_t end = INT64_MAX;
  bool end_inclusive = true;
};

struct ReadQuery {
  std::string keyspace;
  std::string table;

  // Which partitions: the listed keys (read in the order given), else the
  // token range, else every partition (token order).
  std::vector<std::vector<Value>> partition_keys;
  std::optional<TokenRange> token_range;

  // Which rows of each partition: an equality on the leading clustering
  // columns, then at most one slice on the columns after them (the bounds'
  // prefixes start at the column after `clustering_prefix`).
  std::vector<Value> clustering_prefix;
  std::optional<ClusteringBound> slice_start;  // in declared (CQL) order, not storage order
  std::optional<ClusteringBound> slice_end;
  // Reverse of the table's clustering order.
  bool reversed = false;

  // Selected columns, by name; empty means every column in SELECT * order.
  std::vector<std::string> columns;
  // Also return WRITETIME and TTL of each selected regular/static column.
  bool with_cell_metadata = false;

  int64_t limit = 0;                // CQL rows in total; 0 = none
  int64_t per_partition_limit = 0;  // 0 = none
  // Only the static row of each partition (SELECT DISTINCT / static-only).
  bool distinct = false;

  // Paging: at most page_size rows per call (0 = no paging); pass the
  // returned paging_state back to continue.
  int32_t page_size = 0;
  std::string paging_state;
};

struct ReadStats {
  int64_t partitions_read = 0;
  int64_t sstables_read = 0;  // SSTables whose data was consulted
  // Skipped by bloom filter, key range or clustering bounds, or never
  // opened because the read stopped (limit, page) before their bounds.
  int64_t sstables_skipped = 0;
  int64_t memtables_read = 0;
  int64_t live_rows = 0;
  int64_t tombstone_cells = 0;  // counted as Cassandra counts them
  int64_t blocks_read = 0;      // SSTable data chunks read
};

struct ColumnSpec {
  std::string name;
  DataType type;
};

// One live element of a non-frozen collection, as read with cell metadata.
struct ElementCell {
  // The element's cell path: opaque bytes naming the element (a list
  // element's identity, which RowBuilder::SetListElementAt and
  // DeleteListElementAt take; a set element or map key, encoded).
  std::string path;
  int64_t writetime = 0;
  std::optional<int32_t> ttl;  // remaining seconds; nullopt when it never expires
};

struct ResultRow {
  std::vector<Value> values;
  // With with_cell_metadata: per selected column, WRITETIME (micros) and
  // remaining TTL (seconds); nullopt where CQL returns null.
  std::vector<std::optional<int64_t>> writetimes;
  std::vector<std::optional<int32_t>> ttls;
  // With with_cell_metadata: per selected column, the elements of a
  // non-frozen collection in the order of its value (empty for other
  // columns and absent collections).
  std::vector<std::vector<ElementCell>> elements;
};

// One row of a streamed read (Database::ReadEach), borrowed from the
// engine until the visitor returns: the values point into the engine's
// buffers and the next row reuses them. Copy (ValueView::ToValue) what
// must outlive the call.
struct RowView {
  std::span<const ValueView> values;
  // With with_cell_metadata, as ResultRow's; empty otherwise.
  std::span<const std::optional<int64_t>> writetimes;
  std::span<const std::optional<int32_t>> ttls;
  std::span<const std::vector<ElementCell>> elements;
};

// Called once per result row, in result order. A status other than OK
// stops the read, and ReadEach returns it.
using RowVisitor = std::function<Status(const RowView&)>;

struct ResultSet {
  std::vector<ColumnSpec> columns;
  std::vector<ResultRow> rows;
  // Empty when there are no more pages.
  std::string paging_state;
  ReadStats stats;
  std::vector<std::string> warnings;
};

}  // namespace cassette
