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
  // Finds a column's data, or nullptr.
  const ColumnData* Find(uint32_t column_id) const;
  ColumnData* Find(uint32_t column_id);
  friend bool operator==(const Row&, const Row&) = default;
};

}  // namespace cassette
