// Row: the cells of one clustering (or the static row), its marker and its
// row deletion. Columns are sorted by column id; a non-frozen collection
// column holds one cell per element sorted by path, plus the deletion that
// a whole-collection overwrite or delete writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/mutation/cell.h"
#include "engine/mutation/deletion_time.h"
#include "engine/mutation/liveness_info.h"
#include "engine/util/small_vector.h"

namespace cassette {

// A simple column has exactly one cell, and rows are built and dropped at
// the write rate: the cell lives inside the column, without a heap block.
using CellVector = SmallVector<Cell, 1>;

struct ColumnData {
  uint32_t column_id = 0;
  // Collection columns (non-frozen) may hold many cells and a complex deletion.
  bool is_complex = false;
  DeletionTime complex_deletion;
  CellVector cells;  // simple: exactly one cell with an empty path

  friend bool operator==(const ColumnData&, const ColumnData&) = default;
};

struct Row {
  // Comparable encoding of the clustering values (types/comparable.h); empty
  // for the static row. memcmp order is clustering order.
  std::string clustering;
  LivenessInfo marker;
  DeletionTime deletion;
  std::vector<ColumnData> columns;

  bool IsEmpty() const { return marker.IsEmpty() && deletion.IsLive() && columns.empty(); }
  // True when the row holds only live data at now_sec: no row or
  // collection deletion, no expired marker, no tombstone or expired cell,
  // no collection column left without a cell (an empty row qualifies).
  // Such a row is its own live view, so a read uses it in place
  // (read/live_view.h IsOwnLiveView), and compacting it under no covering
  // deletion changes nothing, so compaction passes it through unless it is
  // empty (compaction_iterator.cc). docs/ARCHITECTURE.md, fast paths.
  // Inline: both ask it of nearly every row they pass.
  bool HoldsOnlyLiveData(int64_t now_sec) const {
    if (!deletion.IsLive()) return false;
    if (!marker.IsEmpty() && !marker.IsLive(now_sec)) return false;
    for (const ColumnData& column : columns) {
      if (!column.complex_deletion.IsLive() || column.cells.empty()) return false;
      for (const Cell& cell : column.cells) {
        if (!cell.IsLive(now_sec)) return false;
      }
    }
    return true;
  }
  // Finds a column's data, or nullptr.
  const ColumnData* Find(uint32_t column_id) const;
  ColumnData* Find(uint32_t column_id);
  friend bool operator==(const Row&, const Row&) = default;
};

}  // namespace cassette
