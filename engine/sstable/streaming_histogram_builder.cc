#include "engine/sstable/streaming_histogram_builder.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace cassette {

StreamingHistogramBuilder::StreamingHistogramBuilder(uint32_t max_bins, int64_t round_seconds,
                                                     size_t spool_capacity)
    : histogram_(max_bins, round_seconds), spool_capacity_(std::max<size_t>(spool_capacity, 1)) {}

void StreamingHistogramBuilder::UpdateSlow(int64_t point, uint64_t count) {
  if (count == 0) return;
  const int64_t unit = histogram_.round_seconds();
  const int64_t rounded = StreamingHistogram::RoundUp(point, unit);
  auto it = spool_.find(rounded);
  if (it == spool_.end()) {
    if (spool_.size() >= spool_capacity_) DrainSpool();
    it = spool_.emplace(rounded, 0).first;
  }
  it->second += count;
  hint_count_ = &it->second;
  hint_hi_ = rounded;
  // Every point of (rounded - unit, rounded] rounds up to `rounded` when it
  // is a multiple of the unit; otherwise (no rounding, or a saturated
  // point) only `rounded` itself is known to.
  hint_lo_ = rounded;
  if (unit > 1 && rounded % unit == 0 && rounded >= std::numeric_limits<int64_t>::min() + unit) {
    hint_lo_ = rounded - unit + 1;
  }
}

void StreamingHistogramBuilder::DrainSpool() {
  std::vector<std::pair<int64_t, uint64_t>> points(spool_.begin(), spool_.end());
  std::sort(points.begin(), points.end());
  for (const auto& [point, count] : points) histogram_.AddBin(point, count);
  spool_.clear();
  hint_count_ = nullptr;
}

const StreamingHistogram& StreamingHistogramBuilder::Build() {
  if (!spool_.empty()) DrainSpool();
  return histogram_;
}

}  // namespace cassette
