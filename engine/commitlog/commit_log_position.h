// CommitLogPosition: a point in the commit log (segment id, byte offset).
// Positions order by segment, then offset; the position of a record is the
// offset just past it.
#pragma once

#include <compare>
#include <cstdint>

namespace cassette {

struct CommitLogPosition {
  uint64_t segment_id = 0;
  uint64_t offset = 0;

  friend auto operator<=>(const CommitLogPosition&, const CommitLogPosition&) = default;
  friend bool operator==(const CommitLogPosition&, const CommitLogPosition&) = default;
};

}  // namespace cassette
