#include "engine/sstable/bloom_filter.h"

#include <algorithm>
#include <cmath>

#include "engine/util/checksum.h"
#include "engine/util/coding.h"

namespace cassette {

namespace {

// Beyond this the filter would not fit a sane memory budget (2 GiB).
constexpr uint64_t kMaxBits = uint64_t{1} << 34;
constexpr uint32_t kMaxProbes = 30;

}  // namespace

double BloomFilter::BitsPerKey(double fp_chance) {
  const double ln2 = std::log(2.0);
  return -std::log(fp_chance) / (ln2 * ln2);
}

uint32_t BloomFilter::ProbesFor(double bits_per_key) {
  const double k = std::round(bits_per_key * std::log(2.0));
  return static_cast<uint32_t>(std::clamp(k, 1.0, static_cast<double>(kMaxProbes)));
}

BloomFilter BloomFilter::ForKeys(uint64_t expected_keys, double fp_chance) {
  BloomFilter f;
  if (!(fp_chance < 1.0) || !(fp_chance > 0.0)) return f;  // also rejects NaN
  const double bpk = BitsPerKey(fp_chance);
  const double wanted = std::ceil(static_cast<double>(std::max<uint64_t>(expected_keys, 1)) * bpk);
  uint64_t bits =
      wanted >= static_cast<double>(kMaxBits) ? kMaxBits : static_cast<uint64_t>(wanted);
  bits = std::max<uint64_t>(64, (bits + 63) / 64 * 64);
  f.num_probes_ = ProbesFor(bpk);
  f.num_bits_ = bits;
  f.bits_.assign(bits / 8, '\0');
  return f;
}

void BloomFilter::Add(std::string_view key) {
  if (!enabled()) return;
  const Hash128 h = Hash128Of(key);
  for (uint32_t i = 0; i < num_probes_; ++i) {
    const uint64_t bit = (h.low + i * h.high) % num_bits_;
    bits_[bit / 8] = static_cast<char>(static_cast<uint8_t>(bits_[bit / 8]) | (1u << (bit % 8)));
  }
}

bool BloomFilter::MayContain(std::string_view key) const {
  if (!enabled()) return true;
  const Hash128 h = Hash128Of(key);
  for (uint32_t i = 0; i < num_probes_; ++i) {
    const uint64_t bit = (h.low + i * h.high) % num_bits_;
    if ((static_cast<uint8_t>(bits_[bit / 8]) & (1u << (bit % 8))) == 0) return false;
  }
  return true;
}

void BloomFilter::EncodeTo(std::string* out) const {
  PutVarint32(out, num_probes_);
  PutVarint64(out, num_bits_);
  out->append(bits_);
}

bool BloomFilter::DecodeFrom(std::string_view in, BloomFilter* filter) {
  uint32_t k;
  uint64_t m;
  if (!GetVarint32(&in, &k) || !GetVarint64(&in, &m)) return false;
  if (k > kMaxProbes || m % 64 != 0 || m > kMaxBits || (k == 0) != (m == 0) || in.size() != m / 8) {
    return false;
  }
  filter->num_probes_ = k;
  filter->num_bits_ = m;
  filter->bits_.assign(in);
  return true;
}

}  // namespace cassette
