// The TTL limit: Cassandra's MAX_TTL (20 years) and the check every write
// path applies to a TTL before building expiring data. It lives in schema/,
// the lowest layer with Status, because a table option (default_time_to_live,
// table_options_validation.h) is bounded by it as well as every write
// (db/ converters, cql/ USING TTL); mutation/ sits above schema/ and takes
// it from here. docs/SEMANTICS.md §2.
#pragma once

#include <cstdint>

#include "cassette/status.h"

namespace cassette {

// Cassandra's Attributes.MAX_TTL: 20 years, in seconds.
inline constexpr int32_t kMaxTtlSeconds = 630720000;

// 0 (no expiry) through kMaxTtlSeconds.
constexpr bool TtlInRange(int64_t ttl) { return ttl >= 0 && ttl <= kMaxTtlSeconds; }

// InvalidRequest unless TtlInRange(ttl), with the messages of Cassandra's
// Attributes.getTimeToLive ("A TTL must be greater or equal to 0, but was
// -1", "ttl is too large. requested (630720001) maximum (630720000)").
Status CheckTtl(int64_t ttl);

}  // namespace cassette
