// TokenInterval: the partitions a memtable or SSTable scan visits, as a
// closed interval [first, last] of Murmur3 tokens. The public TokenRange
// (include/cassette/query.h) has inclusive or exclusive ends; the read path
// and compaction turn it into this once (Of), so the sources compare each
// token with two plain comparisons and know nothing of queries.
#pragma once

#include <cstdint>
#include <optional>

namespace cassette {

struct TokenInterval {
  int64_t first = INT64_MIN;
  int64_t last = INT64_MAX;

  // Every token.
  static TokenInterval All() { return {}; }
  // The tokens between `start` and `end` with the given ends; nullopt when
  // there are none.
  static std::optional<TokenInterval> Of(int64_t start, bool start_inclusive, int64_t end,
                                         bool end_inclusive) {
    if (!start_inclusive) {
      if (start == INT64_MAX) return std::nullopt;
      ++start;
    }
    if (!end_inclusive) {
      if (end == INT64_MIN) return std::nullopt;
      --end;
    }
    if (start > end) return std::nullopt;
    return TokenInterval{start, end};
  }

  bool Contains(int64_t token) const { return first <= token && token <= last; }
  friend bool operator==(const TokenInterval&, const TokenInterval&) = default;
};

}  // namespace cassette
