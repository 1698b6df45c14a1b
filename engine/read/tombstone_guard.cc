#include "engine/read/tombstone_guard.h"

namespace cassette {

bool TombstoneGuard::Add(int64_t n) {
  count_ += n;
  return failure_threshold_ < 0 || count_ <= failure_threshold_;
}

std::string TombstoneGuard::Warning(int64_t live_rows, std::string_view query,
                                    int64_t token) const {
  // Cassandra's %1.512s: the query is cut at 512 characters.
  return "Read " + std::to_string(live_rows) + " live rows and " + std::to_string(count_) +
         " tombstone cells for query " + std::string(query.substr(0, 512)) + "; token " +
         std::to_string(token) + " (see tombstone_warn_threshold)";
}

Status TombstoneGuard::Failure(std::string_view query, int64_t token,
                               std::string_view position) const {
  int64_t scanned = failure_threshold_ < 0 ? count_ : failure_threshold_ + 1;
  return Status::ReadFailure(
      "Scanned over " + std::to_string(scanned) + " tombstones during query '" +
      std::string(query) + "' (last scanned row token was " + std::to_string(token) +
      " and partion key was (" + std::string(position) + ")); query aborted");
}

}  // namespace cassette
