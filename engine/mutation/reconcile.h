// The one place that decides which data wins. The memtable's apply, the
// read path's merge and compaction all call these functions.
#pragma once

#include "engine/mutation/cell.h"
#include "engine/mutation/liveness_info.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/row.h"

namespace cassette {

// Cassandra's Cells.resolveRegular: higher timestamp; at equal timestamps an
// expiring-or-tombstone cell beats a live one; a tombstone beats an expiring
// cell; then the larger local deletion time; then the larger value (unsigned
// bytes). Commutative. Returns true when `a` wins over `b`.
bool CellWins(const Cell& a, const Cell& b);
const Cell& Reconcile(const Cell& a, const Cell& b);

// Marker merge (LivenessInfo.supersedes): higher timestamp; at a tie an
// expiring marker beats a non-expiring one; two of a kind -> larger expiry.
bool LivenessSupersedes(const LivenessInfo& a, const LivenessInfo& b);

// Merges `from` into `into` (same clustering): marker, row deletion and
// every column, cell by cell. Does not remove shadowed data; see Purge*.
void MergeRow(Row* into, const Row& from);
void MergeRow(Row* into, Row&& from);

// Merges `from` into `into` (same key): partition deletion, static row,
// range tombstones (appended) and rows (sorted merge).
void MergePartition(PartitionUpdate* into, const PartitionUpdate& from);

// Drops from `row` everything shadowed by `deletion` (a partition deletion,
// a covering range tombstone, or the row's own deletion, whichever is the
// latest), and collection cells shadowed by their complex deletion.
// Keeps tombstones themselves. Returns true when the row is left empty.
bool RemoveShadowed(Row* row, const DeletionTime& deletion);

}  // namespace cassette
