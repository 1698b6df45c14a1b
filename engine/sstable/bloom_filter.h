// BloomFilter over partition keys (Cassandra's Filter.db). Probes come from
// Hash128Of(serialized partition key) = (h1, h2): bit_i = (h1 + i*h2) mod m
// for i in [0, k), 64-bit wrapping arithmetic (Kirsch-Mitzenmacher double
// hashing). Sizing uses the optimal formulas for the target false-positive
// chance p: bits per key = -ln(p) / ln(2)^2 and k = round(bits_per_key *
// ln 2), so p = 0.01 gives 9.6 bits per key and k = 7, p = 0.1 gives 4.8
// and k = 3. p >= 1 means no filter: every key may be present.
//
// The filter is sized for the expected key count given up front (as
// Cassandra sizes it from its key estimate); adding many more keys than
// expected raises the false-positive rate, never causes false negatives.
// Thread-compatible; const methods are safe to call concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cassette {

class BloomFilter {
 public:
  // An empty, disabled filter (MayContain always true).
  BloomFilter() = default;
  static BloomFilter ForKeys(uint64_t expected_keys, double fp_chance);

  void Add(std::string_view key);
  bool MayContain(std::string_view key) const;

  bool enabled() const { return num_probes_ > 0; }
  uint32_t num_probes() const { return num_probes_; }
  uint64_t num_bits() const { return num_bits_; }
  // In-memory (and on-disk) size of the bit array.
  size_t ByteSize() const { return bits_.size(); }

  void EncodeTo(std::string* out) const;
  // False on malformed input (the caller names file and offset).
  static bool DecodeFrom(std::string_view in, BloomFilter* filter);

  static double BitsPerKey(double fp_chance);
  static uint32_t ProbesFor(double bits_per_key);

 private:
  uint32_t num_probes_ = 0;
  uint64_t num_bits_ = 0;
  std::string bits_;
};

}  // namespace cassette
