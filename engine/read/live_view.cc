#include "engine/read/live_view.h"

#include <algorithm>

#include "engine/mutation/expiry.h"
#include "engine/mutation/reconcile.h"

namespace cassette {

RowLiveness ApplyLiveView(const DeletionTime& covering, int64_t now_sec, int64_t gc_before,
                          Row* row) {
  RowLiveness result;
  // The merge's shadowing comes first: shadowed tombstones are not scanned.
  if (RemoveShadowed(row, covering)) return result;

  bool has_deletion =
      !row->deletion.IsLive() && !CanPurge(row->deletion.local_deletion_time, gc_before);
  if (!row->marker.IsEmpty()) {
    if (row->marker.IsLive(now_sec)) {
      result.live = true;
    } else {
      if (!CanPurge(row->marker.local_expiration_time, gc_before)) has_deletion = true;
      row->marker = LivenessInfo{};
    }
  }
  row->deletion = DeletionTime::Live();

  bool has_dead_cells = false;
  for (ColumnData& column : row->columns) {
    if (!column.complex_deletion.IsLive()) {
      if (!CanPurge(column.complex_deletion.local_deletion_time, gc_before)) has_deletion = true;
      column.complex_deletion = DeletionTime::Live();
    }
    erase_if(column.cells, [&](const Cell& cell) {
      if (cell.IsLive(now_sec)) {
        result.live = true;
        return false;
      }
      // An expired cell purges as a tombstone written at its write second.
      const int64_t ldt = cell.IsExpiring()
                              ? DeletionTimeOfExpired(cell.local_deletion_time, cell.ttl)
                              : cell.local_deletion_time;
      if (!CanPurge(ldt, gc_before)) {
        ++result.tombstones;
        has_dead_cells = true;
      }
      return true;
    });
  }
  std::erase_if(row->columns, [](const ColumnData& c) { return c.cells.empty(); });

  if (!result.live && !has_dead_cells && has_deletion) ++result.tombstones;
  return result;
}

bool IsOwnLiveView(const DeletionTime& covering, int64_t now_sec, const Row& row) {
  return covering.IsLive() && row.HoldsOnlyLiveData(now_sec);
}

}  // namespace cassette
