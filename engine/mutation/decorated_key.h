// DecoratedKey: a partition key's serialized bytes (Cassandra's form, as
// hashed by Murmur3) with its token. Partitions are ordered by signed token,
// then by unsigned bytes of the key, as Cassandra orders them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cassette {

struct DecoratedKey {
  int64_t token = 0;
  std::string key;

  // Computes the token with Cassandra's Murmur3 partitioner.
  static DecoratedKey FromKey(std::string key);

  // token (8 bytes big-endian with the sign bit flipped) followed by key:
  // memcmp order of sort keys is partition order.
  std::string SortKey() const;
  // REQUIRES: sort_key came from SortKey(). A shorter input than 8 bytes
  // reads its missing token bytes as zero and yields an empty key.
  static DecoratedKey FromSortKey(std::string_view sort_key);

  friend bool operator==(const DecoratedKey&, const DecoratedKey&) = default;
  friend bool operator<(const DecoratedKey& a, const DecoratedKey& b) {
    return a.token != b.token ? a.token < b.token : a.key < b.key;  // std::string: unsigned bytes
  }
};

}  // namespace cassette
