#include "engine/mutation/partition_update.h"

#include <algorithm>
#include <limits>

namespace cassette {
namespace {

// Calls fn(timestamp) for every write timestamp the update carries: cells,
// markers and every kind of deletion (live ones carry none).
template <class Fn>
void ForEachTimestamp(const PartitionUpdate& u, Fn&& fn) {
  auto deletion = [&](const DeletionTime& d) {
    if (!d.IsLive()) fn(d.marked_for_delete_at);
  };
  auto row = [&](const Row& r) {
    if (!r.marker.IsEmpty()) fn(r.marker.timestamp);
    deletion(r.deletion);
    for (const ColumnData& col : r.columns) {
      deletion(col.complex_deletion);
      for (const Cell& c : col.cells) fn(c.timestamp);
    }
  };
  deletion(u.partition_deletion);
  row(u.static_row);
  for (const RangeTombstone& rt : u.range_tombstones) deletion(rt.deletion);
  for (const Row& r : u.rows) row(r);
}

size_t RowSize(const Row& r) {
  size_t size = sizeof(Row) + r.clustering.size();
  for (const ColumnData& col : r.columns) {
    size += sizeof(ColumnData);
    for (const Cell& c : col.cells) size += sizeof(Cell) + c.value.size() + c.path.size();
  }
  return size;
}

}  // namespace

int64_t PartitionUpdate::MinTimestamp() const {
  int64_t min = std::numeric_limits<int64_t>::max();
  ForEachTimestamp(*this, [&](int64_t ts) { min = std::min(min, ts); });
  return min;
}

int64_t PartitionUpdate::MaxTimestamp() const {
  int64_t max = kNoTimestamp;
  ForEachTimestamp(*this, [&](int64_t ts) { max = std::max(max, ts); });
  return max;
}

size_t PartitionUpdate::ApproximateSize() const {
  size_t size = sizeof(PartitionUpdate) + key.key.size() + RowSize(static_row) +
                range_tombstones.size() * sizeof(RangeTombstone);
  for (const RangeTombstone& rt : range_tombstones) {
    size += rt.range.start.prefix.size() + rt.range.end.prefix.size();
  }
  for (const Row& r : rows) size += RowSize(r);
  return size;
}

}  // namespace cassette
