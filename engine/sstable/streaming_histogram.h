// StreamingHistogram: a bounded-size histogram of int64 points (Ben-Haim &
// Tom-Tov's streaming histogram, as Cassandra keeps its tombstone drop-time
// histogram): points are rounded up to a multiple of `round_seconds`; when a
// new point would exceed `max_bins`, the two closest bins merge into one at
// their count-weighted mean point. Compaction estimates droppable
// tombstones with Sum(gc_before). Thread-compatible.
#pragma once

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

  void Update(int64_t point, uint64_t count = 1);
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

  friend bool operator==(const StreamingHistogram&, const StreamingHistogram&) = default;

 private:
  void AddBin(int64_t point, uint64_t count);

  uint32_t max_bins_;
  int64_t round_seconds_;
  std::vector<std::pair<int64_t, uint64_t>> bins_;
};

}  // namespace cassette
