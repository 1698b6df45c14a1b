// Cassandra's Murmur3Partitioner token: the first half of MurmurHash3
// x64_128 (seed 0) over the serialized partition key, with Cassandra's
// sign-extension of tail bytes. Bit-for-bit equal to Cassandra's token().
#pragma once

#include <cstdint>
#include <string_view>

namespace cassette {

// Token of a serialized partition key. An empty key gets INT64_MIN (the
// minimum token); a hash equal to INT64_MIN maps to INT64_MAX.
int64_t Murmur3Token(std::string_view key);

}  // namespace cassette
