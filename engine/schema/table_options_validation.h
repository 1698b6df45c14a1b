// Range checks of table options (WITH default_time_to_live = ..., ...),
// with Cassandra's ConfigurationException messages. The compaction map is
// only required to name a class: each strategy validates its own options.
#pragma once

#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/schema/ttl_limit.h"

namespace cassette {

Status ValidateTableOptions(const TableOptions& options);

// The compression map alone. cassette compresses with zstd only:
// ZstdCompressor (or 'zstd'), or no compression ('enabled': false, an empty
// map, or class 'none'/'NoopCompressor').
Status ValidateCompressionOptions(const std::map<std::string, std::string>& compression);

}  // namespace cassette
