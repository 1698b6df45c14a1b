// PagingState: where a paged read stopped, handed to the client as an
// opaque string and handed back to continue. It names the last partition a
// row came from (its position in the command's key list for keyed reads)
// and the last regular row returned, plus the row counts LIMIT and PER
// PARTITION LIMIT need, so the pages of a read concatenate to its unpaged
// result.
//
// Encoding (version 1), all integers varints unless noted:
//   u8 version | u8 flags (bit 0: partition done, bit 1: has clustering)
//   key_index | fixed64 token | key (length-prefixed)
//   [clustering (length-prefixed)] | rows_returned | rows_in_partition
// Decoding never trusts the bytes: malformed input is InvalidRequest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cassette/status.h"
#include "engine/mutation/decorated_key.h"

namespace cassette {

struct PagingState {
  // Index in ReadCommand::keys of `partition` (0 for scans).
  uint64_t key_index = 0;
  DecoratedKey partition;
  // Storage encoding of the last regular row returned; nullopt when the
  // partition's last row returned was a static-only or DISTINCT row.
  std::optional<std::string> last_clustering;
  // Nothing more is due from `partition` (its static-only or DISTINCT row
  // was returned, or it reached its per-partition limit).
  bool partition_done = false;
  // CQL rows returned by every page so far.
  int64_t rows_returned = 0;
  // CQL rows returned from `partition` so far.
  int64_t rows_in_partition = 0;

  std::string Encode() const;
  static Result<PagingState> Decode(std::string_view encoded);

  friend bool operator==(const PagingState&, const PagingState&) = default;
};

}  // namespace cassette
