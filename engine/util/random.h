// Random: a small deterministic pseudo-random generator (splitmix64) for
// tests, the model test and simulations. The same seed always yields the
// same sequence on every platform, so a failing seed can be replayed.
// Not cryptographic. Thread-compatible: one instance per thread.
#pragma once

#include <cstdint>
#include <string>

namespace cassette {

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}

  // The next 64 uniformly distributed bits.
  uint64_t Next() {
    // splitmix64: a Weyl sequence passed through a strong finalizer; every
    // seed (including 0) gives a full-period, well-mixed stream.
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n) {
    // Rejection sampling removes the modulo bias that a plain `% n` has
    // when n does not divide 2^64.
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do {
      v = Next();
    } while (v >= limit);
    return v % n;
  }

  // Uniform in [lo, hi]. REQUIRES: lo <= hi.
  int64_t Range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    const uint64_t off = span == UINT64_MAX ? Next() : Uniform(span + 1);
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + off);
  }

  // True with probability 1/n. REQUIRES: n > 0.
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  // True with probability pct/100.
  bool Percent(int pct) { return static_cast<int>(Uniform(100)) < pct; }

  // Uniform in [0, 1).
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // n random bytes.
  std::string Bytes(size_t n) {
    std::string out(n, '\0');
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(Next() & 0xff);
    return out;
  }

 private:
  uint64_t state_;
};

}  // namespace cassette
