// StreamingHistogram: a bounded-size histogram of int64 points (Ben-Haim &
// Tom-Tov's streaming histogram, as Cassandra keeps its tombstone drop-time
// histogram): points are rounded up to a multiple of `round_seconds`; when a
// new point would exceed `max_bins`, the two closest bins merge into one at
// their count-weighted mean point. Compaction estimates droppable
// tombstones with Sum(gc_before). Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cassette {

class StreamingHistogram {
 public:
  static constexpr uint32_t kDefaultMaxBins = 100;
  static constexpr int64_t kDefaultRoundSeconds = 60;

  explicit StreamingHistogram(uint32_t max_bins = kDefaultMaxBins,
                              int64_t round_seconds = kDefaultRoundSeconds);

  void Update(int64_t point, uint64_t count = 1) {
    if (point >= hint_lo_ && point <= hint_hi_ && hint_index_ < bins_.size() &&
        bins_[hint_index_].first == hint_hi_) {
      bins_[hint_index_].second += count;
      return;
    }
    UpdateSlow(point, count);
  }
  // The same as `times` calls of Update(point): the bins come out equal.
  void UpdateTimes(int64_t point, uint64_t times) {
    for (; times > 0; --times) {
      Update(point);
      if (times > 1 && point >= hint_lo_ && point <= hint_hi_ && hint_index_ < bins_.size() &&
          bins_[hint_index_].first == hint_hi_) {
        // The point's bin exists: the remaining calls would add to it.
        bins_[hint_index_].second += times - 1;
        return;
      }
    }
  }
  // Adds every bin of `other` (its points are already rounded).
  void Merge(const StreamingHistogram& other);

  // Estimated number of points <= b, interpolating inside the bin
  // straddling b (the "sum" procedure of the paper; exact at bin points
  // up to half of that bin).
  double Sum(int64_t b) const;
  uint64_t TotalCount() const;
  bool empty() const { return bins_.empty(); }

  // (point, count), sorted by point, unique points.
  const std::vector<std::pair<int64_t, uint64_t>>& bins() const { return bins_; }
  uint32_t max_bins() const { return max_bins_; }
  int64_t round_seconds() const { return round_seconds_; }

  void EncodeTo(std::string* out) const;
  // Consumes one histogram from the front of *in; false on malformed input.
  static bool DecodeFrom(std::string_view* in, StreamingHistogram* h);

  // The bins and parameters (not the lookup hint).
  friend bool operator==(const StreamingHistogram& a, const StreamingHistogram& b) {
    return a.max_bins_ == b.max_bins_ && a.round_seconds_ == b.round_seconds_ && a.bins_ == b.bins_;
  }

 private:
  friend class StreamingHistogramBuilder;

  // `point` rounded up to a multiple of `unit` (saturating at INT64_MAX).
  static int64_t RoundUp(int64_t point, int64_t unit);
  void UpdateSlow(int64_t point, uint64_t count);
  void AddBin(int64_t point, uint64_t count);
  // Remembers the bin the points in [hint_lo_, hint_hi_] round up to.
  void SetHint(int64_t rounded);

  uint32_t max_bins_;
  int64_t round_seconds_;
  std::vector<std::pair<int64_t, uint64_t>> bins_;
  // Points arrive in runs that round to one bin (the cells of a row share
  // an expiry; rows written in the same minute too): Update adds to
  // bins_[hint_index_] without rounding or searching while the point falls
  // in [hint_lo_, hint_hi_] and that bin is still the one at hint_hi_. Adding
  // to an existing bin is all AddBin would do, so the bins are the same.
  int64_t hint_lo_ = 0;
  int64_t hint_hi_ = 0;
  size_t hint_index_ = SIZE_MAX;
};

}  // namespace cassette
