#include "engine/mutation/row.h"

#include <algorithm>

namespace cassette {
namespace {

// Columns are kept sorted by id, so a lookup is a binary search; rows of
// wide tables hold dozens of columns and the read path looks each one up.
template <class Columns>
auto FindIn(Columns& columns, uint32_t column_id) -> decltype(&columns[0]) {
  auto it = std::lower_bound(columns.begin(), columns.end(), column_id,
                             [](const ColumnData& c, uint32_t id) { return c.column_id < id; });
  if (it == columns.end() || it->column_id != column_id) return nullptr;
  return &*it;
}

}  // namespace

const ColumnData* Row::Find(uint32_t column_id) const { return FindIn(columns, column_id); }

ColumnData* Row::Find(uint32_t column_id) { return FindIn(columns, column_id); }

}  // namespace cassette
