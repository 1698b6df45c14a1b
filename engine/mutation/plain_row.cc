#include "engine/mutation/plain_row.h"

#include <string>

namespace cassette {

Row PlainRow::ToRow(std::string_view clustering) const {
  Row row;
  row.clustering.assign(clustering);
  const bool expiring = ttl > 0;
  if (has_marker) {
    row.marker = LivenessInfo{timestamp, ttl, expiring ? expiry : kNoDeletionTime};
  }
  row.columns.reserve(columns.size());
  for (const PlainColumn& column : columns) {
    ColumnData& data = row.columns.emplace_back();
    data.column_id = column.id;
    data.cells.push_back(expiring ? Cell{timestamp, ttl, expiry, std::string(column.value), {}}
                                  : Cell::Live(timestamp, std::string(column.value)));
  }
  return row;
}

}  // namespace cassette
