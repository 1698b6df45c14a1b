#include "engine/schema/ttl_limit.h"

#include <string>

namespace cassette {

Status CheckTtl(int64_t ttl) {
  if (ttl < 0) {
    return Status::InvalidRequest("A TTL must be greater or equal to 0, but was " +
                                  std::to_string(ttl));
  }
  if (ttl > kMaxTtlSeconds) {
    return Status::InvalidRequest("ttl is too large. requested (" + std::to_string(ttl) +
                                  ") maximum (" + std::to_string(kMaxTtlSeconds) + ")");
  }
  return Status::OK();
}

}  // namespace cassette
