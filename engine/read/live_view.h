// The live view of one merged row: what a read at `now` returns of it, and
// how many tombstones the read scanned to get there, counted as Cassandra's
// ReadCommand counts them:
//   - shadowed data (by the partition deletion, a covering range tombstone,
//     the row's own deletion or a collection's deletion) is dropped first,
//     as Cassandra's merge drops it; it is not a tombstone;
//   - deletions purgeable at gc_before (local deletion time < gc_before,
//     overlaps ignored) are then discarded uncounted; an expired cell is
//     dated at its write second for this, an expired marker at its expiry;
//   - each remaining dead cell (tombstone or expired) counts 1;
//   - a row without live data, without dead cells, that still carries a
//     row deletion, a collection deletion or an expired marker counts 1.
// The row is visible iff its marker is live or it keeps a live cell.
#pragma once

#include <cstdint>

#include "engine/mutation/deletion_time.h"
#include "engine/mutation/row.h"

namespace cassette {

struct RowLiveness {
  bool live = false;       // the row has live data at now_sec
  int64_t tombstones = 0;  // tombstones scanned in this row
};

// Rewrites *row to its live content at now_sec: the marker only if live,
// live cells only; row deletion and collection deletions cleared, columns
// left without cells removed. `covering` is the strongest deletion over the
// row from outside it (partition deletion or covering range tombstone).
RowLiveness ApplyLiveView(const DeletionTime& covering, int64_t now_sec, int64_t gc_before,
                          Row* row);

// True when `row` already is its own live view at now_sec under `covering`:
// no deletion over or in it, no dead marker, cell or empty column, so
// ApplyLiveView would change nothing and count no tombstone (the row is
// then live iff !row.IsEmpty()). Lets a read use a merged row in place
// instead of copying it to rewrite it: the common row of a read.
bool IsOwnLiveView(const DeletionTime& covering, int64_t now_sec, const Row& row);

}  // namespace cassette
