// TombstoneGuard: counts the tombstones a read scans and applies
// Cassandra's two thresholds: past tombstone_warn_threshold the
// read succeeds with a client warning; past tombstone_failure_threshold it
// aborts at once with a ReadFailure. A negative threshold is disabled.
//
// Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette {

class TombstoneGuard {
 public:
  TombstoneGuard(int64_t warn_threshold, int64_t failure_threshold)
      : warn_threshold_(warn_threshold), failure_threshold_(failure_threshold) {}

  // Adds n scanned tombstones. Returns false once the count exceeds the
  // failure threshold: the read must stop and return Failure().
  bool Add(int64_t n);
  int64_t count() const { return count_; }
  bool ShouldWarn() const { return warn_threshold_ >= 0 && count_ > warn_threshold_; }

  // "Read %d live rows and %d tombstone cells for query %1.512s; token %s
  // (see tombstone_warn_threshold)".
  std::string Warning(int64_t live_rows, std::string_view query, int64_t token) const;
  // ReadFailure: "Scanned over %d tombstones during query '%s' (last scanned
  // row token was %s and partion key was (%s)); query aborted". Cassandra
  // aborts at the first tombstone over the threshold, so that is the count
  // reported. `position` is the partition key values, then the clustering.
  Status Failure(std::string_view query, int64_t token, std::string_view position) const;

 private:
  int64_t warn_threshold_;
  int64_t failure_threshold_;
  int64_t count_ = 0;
};

}  // namespace cassette
