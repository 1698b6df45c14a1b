// PartitionUpdate: everything one mutation (or one source, merged) holds for
// one partition. Used by the commit log, the memtable's apply, the SSTable
// writer's input and the read path's merge.
#pragma once

#include <vector>

#include "engine/mutation/decorated_key.h"
#include "engine/mutation/range_tombstone.h"
#include "engine/mutation/row.h"

namespace cassette {

struct PartitionUpdate {
  uint64_t table_id = 0;  // the table's id in the schema
  DecoratedKey key;
  DeletionTime partition_deletion;
  Row static_row;  // clustering empty
  std::vector<RangeTombstone> range_tombstones;
  std::vector<Row> rows;  // sorted by clustering, unique

  // Lowest and highest write timestamp of anything in the update: cells,
  // markers, and row, range, partition and complex deletions. An update that
  // holds none returns the identities of min/max (INT64_MAX, INT64_MIN), so
  // folding them over many updates needs no special case.
  int64_t MinTimestamp() const;
  int64_t MaxTimestamp() const;
  // Approximate in-memory size, for memtable accounting and size limits.
  size_t ApproximateSize() const;
  friend bool operator==(const PartitionUpdate&, const PartitionUpdate&) = default;
};

}  // namespace cassette
