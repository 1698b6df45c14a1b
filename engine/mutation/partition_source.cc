#include "engine/mutation/partition_source.h"

#include <algorithm>
#include <utility>

namespace cassette {

VectorRowIterator::VectorRowIterator(std::vector<Row> rows, bool reversed)
    : rows_(std::move(rows)), reversed_(reversed) {}

Result<PartitionUpdate> Materialize(PartitionContent& content) {
  PartitionUpdate update;
  update.key = content.key;
  update.partition_deletion = content.partition_deletion;
  update.static_row = content.static_row;
  update.range_tombstones = content.range_tombstones;
  if (content.rows != nullptr) {
    RowIterator& it = *content.rows;
    for (; it.Valid(); it.Next()) update.rows.push_back(it.row());
    CASSETTE_RETURN_IF_ERROR(it.status());
  }
  // A reversed source yields descending clusterings; the update holds them
  // in storage order.
  std::vector<Row>& rows = update.rows;
  if (rows.size() > 1 && rows.front().clustering > rows.back().clustering) {
    std::reverse(rows.begin(), rows.end());
  }
  for (size_t i = 1; i < rows.size(); ++i) {
    if (!(rows[i - 1].clustering < rows[i].clustering)) {
      return Status::Corruption("partition source: rows out of clustering order at row " +
                                std::to_string(i));
    }
  }
  return update;
}

}  // namespace cassette
