#include "engine/read/column_filter.h"

#include <algorithm>
#include <utility>

namespace cassette {

ColumnFilter::ColumnFilter(const TableSchema& schema) : schema_(schema) {
  const std::vector<ColumnDefinition>& columns = schema.columns();
  for (size_t i = 0; i < columns.size(); ++i) {
    uint32_t id = columns[i].id;
    if (id >= index_by_id_.size()) index_by_id_.resize(size_t{id} + 1, -1);
    index_by_id_[id] = static_cast<int64_t>(i);
  }
  plain_by_id_.resize(index_by_id_.size());
  for (size_t id = 0; id < index_by_id_.size(); ++id) {
    plain_by_id_[id] =
        index_by_id_[id] >= 0 && !schema.dropped_columns().contains(static_cast<uint32_t>(id));
  }
}

void ColumnFilter::Apply(Row* row) const {
  const auto& dropped = schema_.dropped_columns();
  auto out = row->columns.begin();
  for (auto column = row->columns.begin(); column != row->columns.end(); ++column) {
    if (IndexOf(column->column_id) < 0) continue;
    auto drop = dropped.find(column->column_id);
    if (drop != dropped.end()) {
      // A column dropped but kept under the same id: what was written up to
      // the drop is gone, later writes stay.
      erase_if(column->cells, [&](const Cell& c) { return c.timestamp <= drop->second; });
      if (column->complex_deletion.marked_for_delete_at <= drop->second) {
        column->complex_deletion = DeletionTime::Live();
      }
      if (column->cells.empty() && column->complex_deletion.IsLive()) continue;
    }
    if (out != column) *out = std::move(*column);
    ++out;
  }
  row->columns.erase(out, row->columns.end());
}

}  // namespace cassette
