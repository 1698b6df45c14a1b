#include "engine/memtable/memtable_stats.h"

#include <algorithm>

namespace cassette {
namespace {

// Accumulates one update; published to the atomics once per Add.
struct Collector {
  int64_t min_ts = std::numeric_limits<int64_t>::max();
  int64_t max_ts = std::numeric_limits<int64_t>::min();
  int64_t min_ldt = std::numeric_limits<int64_t>::max();
  int32_t min_ttl = std::numeric_limits<int32_t>::max();

  void Timestamp(int64_t ts) {
    min_ts = std::min(min_ts, ts);
    max_ts = std::max(max_ts, ts);
  }
  void LocalDeletionTime(int64_t ldt) {
    if (ldt != kNoDeletionTime) min_ldt = std::min(min_ldt, ldt);
  }
  void Ttl(int32_t ttl) {
    if (ttl > 0) min_ttl = std::min(min_ttl, ttl);
  }
  void Deletion(const DeletionTime& d) {
    if (d.IsLive()) return;
    Timestamp(d.marked_for_delete_at);
    LocalDeletionTime(d.local_deletion_time);
  }
  void Add(const Row& row) {
    if (!row.marker.IsEmpty()) {
      Timestamp(row.marker.timestamp);
      Ttl(row.marker.ttl);
      LocalDeletionTime(row.marker.local_expiration_time);
    }
    Deletion(row.deletion);
    for (const ColumnData& col : row.columns) {
      Deletion(col.complex_deletion);
      for (const Cell& c : col.cells) {
        Timestamp(c.timestamp);
        Ttl(c.ttl);
        LocalDeletionTime(c.local_deletion_time);
      }
    }
  }
};

template <class T>
void StoreMin(std::atomic<T>& field, T v) {
  if (v < field.load(std::memory_order_relaxed)) field.store(v, std::memory_order_relaxed);
}
template <class T>
void StoreMax(std::atomic<T>& field, T v) {
  if (v > field.load(std::memory_order_relaxed)) field.store(v, std::memory_order_relaxed);
}

}  // namespace

void MemtableStats::Add(const PartitionUpdate& update) {
  Collector c;
  c.Deletion(update.partition_deletion);
  c.Add(update.static_row);
  for (const RangeTombstone& rt : update.range_tombstones) c.Deletion(rt.deletion);
  for (const Row& row : update.rows) c.Add(row);
  StoreMin(min_timestamp_, c.min_ts);
  StoreMax(max_timestamp_, c.max_ts);
  StoreMin(min_local_deletion_time_, c.min_ldt);
  StoreMin(min_ttl_, c.min_ttl);
}

void MemtableStats::Add(const PlainRow& row) {
  // The marker and every cell carry the row's timestamp, TTL and expiry.
  Collector c;
  c.Timestamp(row.timestamp);
  if (row.ttl > 0) {
    c.Ttl(row.ttl);
    c.LocalDeletionTime(row.expiry);
  }
  StoreMin(min_timestamp_, c.min_ts);
  StoreMax(max_timestamp_, c.max_ts);
  StoreMin(min_local_deletion_time_, c.min_ldt);
  StoreMin(min_ttl_, c.min_ttl);
}

EncodingStats MemtableStats::encoding_stats() const {
  EncodingStats stats;
  int64_t ts = MinTimestamp();
  int64_t ldt = min_local_deletion_time_.load(std::memory_order_relaxed);
  int32_t ttl = min_ttl_.load(std::memory_order_relaxed);
  stats.min_timestamp = ts == std::numeric_limits<int64_t>::max() ? 0 : ts;
  stats.min_local_deletion_time = ldt == std::numeric_limits<int64_t>::max() ? 0 : ldt;
  stats.min_ttl = ttl == std::numeric_limits<int32_t>::max() ? 0 : ttl;
  return stats;
}

}  // namespace cassette
