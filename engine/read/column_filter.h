// ColumnFilter: maps a row's column ids to the table's current columns and
// drops the data of columns the schema no longer has (ALTER TABLE DROP):
// their cells must neither be returned nor keep a row alive nor count as
// tombstones, as Cassandra filters dropped columns when it reads.
//
// Thread-compatible; borrows the schema.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cassette/schema.h"
#include "engine/mutation/row.h"

namespace cassette {

class ColumnFilter {
 public:
  explicit ColumnFilter(const TableSchema& schema);

  // Index into schema.columns() of a column id, or -1 when the table has no
  // such column.
  int64_t IndexOf(uint32_t column_id) const {
    return column_id < index_by_id_.size() ? index_by_id_[column_id] : -1;
  }
  // Removes columns the table no longer has, and cells a drop shadows.
  void Apply(Row* row) const;
  // True when Apply would leave `row` unchanged: every column is one the
  // table has and has never dropped (so a read can skip copying the row).
  bool KeepsAll(const Row& row) const {
    for (const ColumnData& column : row.columns) {
      if (!Keeps(column.column_id)) return false;
    }
    return true;
  }
  // The same for one column: the table has it and has never dropped it.
  bool Keeps(uint32_t column_id) const {
    return column_id < plain_by_id_.size() && plain_by_id_[column_id];
  }

 private:
  const TableSchema& schema_;
  std::vector<int64_t> index_by_id_;
  // Per column id: the table has the column and no drop of that id.
  std::vector<uint8_t> plain_by_id_;
};

}  // namespace cassette
