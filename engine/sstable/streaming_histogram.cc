#include "engine/sstable/streaming_histogram.h"

#include <algorithm>
#include <limits>

#include "engine/util/coding.h"

namespace cassette {

namespace {

// Largest sane histogram; anything bigger in a file is corruption.
constexpr uint32_t kMaxDecodedBins = 100000;

}  // namespace

int64_t StreamingHistogram::RoundUp(int64_t point, int64_t unit) {
  if (unit <= 1) return point;
  const int64_t rem = ((point % unit) + unit) % unit;
  if (rem == 0) return point;
  const int64_t up = unit - rem;
  if (point > std::numeric_limits<int64_t>::max() - up) return std::numeric_limits<int64_t>::max();
  return point + up;
}

StreamingHistogram::StreamingHistogram(uint32_t max_bins, int64_t round_seconds)
    : max_bins_(std::max<uint32_t>(max_bins, 1)), round_seconds_(round_seconds) {}

void StreamingHistogram::UpdateSlow(int64_t point, uint64_t count) {
  if (count == 0) return;
  const int64_t rounded = RoundUp(point, round_seconds_);
  AddBin(rounded, count);
  SetHint(rounded);
}

void StreamingHistogram::SetHint(int64_t rounded) {
  auto it = std::lower_bound(bins_.begin(), bins_.end(), rounded,
                             [](const auto& bin, int64_t p) { return bin.first < p; });
  if (it == bins_.end() || it->first != rounded) {
    hint_index_ = SIZE_MAX;  // merged into a neighbour
    return;
  }
  hint_index_ = static_cast<size_t>(it - bins_.begin());
  hint_hi_ = rounded;
  // Every point of (rounded - unit, rounded] rounds up to a multiple
  // `rounded` of the unit; otherwise (no rounding, or a saturated point)
  // only `rounded` itself is known to.
  const int64_t unit = round_seconds_;
  hint_lo_ = rounded;
  if (unit > 1 && rounded % unit == 0 && rounded >= std::numeric_limits<int64_t>::min() + unit) {
    hint_lo_ = rounded - unit + 1;
  }
}

void StreamingHistogram::Merge(const StreamingHistogram& other) {
  for (const auto& [point, count] : other.bins_) AddBin(point, count);
}

void StreamingHistogram::AddBin(int64_t point, uint64_t count) {
  auto it = std::lower_bound(bins_.begin(), bins_.end(), point,
                             [](const auto& bin, int64_t p) { return bin.first < p; });
  if (it != bins_.end() && it->first == point) {
    it->second += count;
    return;
  }
  bins_.insert(it, {point, count});
  if (bins_.size() <= max_bins_) return;
  // Merge the two adjacent bins with the smallest gap (the first such pair).
  size_t best = 0;
  unsigned __int128 best_gap = ~static_cast<unsigned __int128>(0);
  for (size_t i = 0; i + 1 < bins_.size(); ++i) {
    const auto gap = static_cast<unsigned __int128>(static_cast<__int128>(bins_[i + 1].first) -
                                                    static_cast<__int128>(bins_[i].first));
    if (gap < best_gap) {
      best_gap = gap;
      best = i;
    }
  }
  auto& a = bins_[best];
  const auto& b = bins_[best + 1];
  const __int128 total = static_cast<__int128>(a.second) + b.second;
  const __int128 weighted =
      static_cast<__int128>(a.first) * a.second + static_cast<__int128>(b.first) * b.second;
  // The mean lies between the two points, so it fits in int64.
  a.first = static_cast<int64_t>(weighted / total);
  a.second += b.second;
  bins_.erase(bins_.begin() + static_cast<std::ptrdiff_t>(best + 1));
}

double StreamingHistogram::Sum(int64_t b) const {
  auto next = std::upper_bound(bins_.begin(), bins_.end(), b,
                               [](int64_t p, const auto& bin) { return p < bin.first; });
  if (next == bins_.end()) return static_cast<double>(TotalCount());
  if (next == bins_.begin()) return 0;
  auto floor = next - 1;
  double sum = 0;
  for (auto it = bins_.begin(); it != floor; ++it) sum += static_cast<double>(it->second);
  const double pi = static_cast<double>(floor->first);
  const double mi = static_cast<double>(floor->second);
  const double weight = (static_cast<double>(b) - pi) / (static_cast<double>(next->first) - pi);
  const double mb = mi + (static_cast<double>(next->second) - mi) * weight;
  sum += (mi + mb) * weight / 2;
  sum += mi / 2;
  return sum;
}

uint64_t StreamingHistogram::TotalCount() const {
  uint64_t n = 0;
  for (const auto& bin : bins_) n += bin.second;
  return n;
}

void StreamingHistogram::EncodeTo(std::string* out) const {
  PutVarint32(out, max_bins_);
  PutSignedVarint64(out, round_seconds_);
  PutVarint64(out, bins_.size());
  int64_t prev = 0;
  for (const auto& [point, count] : bins_) {
    PutSignedVarint64(out, WrappingSub(point, prev));
    PutVarint64(out, count);
    prev = point;
  }
}

bool StreamingHistogram::DecodeFrom(std::string_view* in, StreamingHistogram* h) {
  uint32_t max_bins;
  int64_t round;
  uint64_t n;
  if (!GetVarint32(in, &max_bins) || !GetSignedVarint64(in, &round) || !GetVarint64(in, &n)) {
    return false;
  }
  if (max_bins == 0 || max_bins > kMaxDecodedBins || n > max_bins) return false;
  StreamingHistogram result(max_bins, round);
  int64_t prev = 0;
  for (uint64_t i = 0; i < n; ++i) {
    int64_t delta;
    uint64_t count;
    if (!GetSignedVarint64(in, &delta) || !GetVarint64(in, &count)) return false;
    const int64_t point = WrappingAdd(prev, delta);
    if (count == 0 || (i > 0 && point <= prev)) return false;  // points strictly increase
    result.bins_.emplace_back(point, count);
    prev = point;
  }
  *h = std::move(result);
  return true;
}

}  // namespace cassette
