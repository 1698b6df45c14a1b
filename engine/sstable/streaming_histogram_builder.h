// StreamingHistogramBuilder: gathers points for a StreamingHistogram
// through a spool of exact counts, as Cassandra's
// StreamingTombstoneHistogramBuilder does. A writer's drop times repeat
// (a row's cells share an expiry, rows written in one minute round to one
// point), but they arrive in key order, not time order, so consecutive
// points jump between minutes: added to the bins one by one, nearly every
// new minute of a merged histogram would insert a bin and search the
// whole histogram for the pair to merge. The spool counts each rounded
// point exactly until it holds `spool_capacity` distinct points, then
// empties into the bins in point order; Build() empties it the same way.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "engine/sstable/streaming_histogram.h"

namespace cassette {

class StreamingHistogramBuilder {
 public:
  // Cassandra's spool (tombstone_histogram_spool_size) holds 100 000 points.
  static constexpr size_t kDefaultSpoolCapacity = 100000;

  explicit StreamingHistogramBuilder(
      uint32_t max_bins = StreamingHistogram::kDefaultMaxBins,
      int64_t round_seconds = StreamingHistogram::kDefaultRoundSeconds,
      size_t spool_capacity = kDefaultSpoolCapacity);

  void Update(int64_t point, uint64_t count = 1) {
    if (point >= hint_lo_ && point <= hint_hi_ && hint_count_ != nullptr) {
      *hint_count_ += count;
      return;
    }
    UpdateSlow(point, count);
  }

  // The histogram of every point so far: the spool empties into the bins
  // first. Later updates go on from there.
  const StreamingHistogram& Build();

 private:
  void UpdateSlow(int64_t point, uint64_t count);
  void DrainSpool();

  StreamingHistogram histogram_;
  size_t spool_capacity_;
  std::unordered_map<int64_t, uint64_t> spool_;  // rounded point -> count
  // The spool entry the points in [hint_lo_, hint_hi_] round up to
  // (unordered_map entries keep their address until erased).
  uint64_t* hint_count_ = nullptr;
  int64_t hint_lo_ = 0;
  int64_t hint_hi_ = 0;
};

}  // namespace cassette
