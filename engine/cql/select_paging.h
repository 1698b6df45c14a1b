// SelectPagingState: where a paged SELECT stopped, handed to the client as
// an opaque string. Two shapes:
//   - a cursor, for queries whose rows stream from the engine: the engine
//     read (one per clustering IN combination) in progress, that read's own
//     paging state, and the row counts LIMIT and PER PARTITION LIMIT need;
//   - an offset, for queries computed whole before paging (aggregates,
//     GROUP BY): the number of result rows already returned.
//
// Encoding: u8 magic 0xC5 | u8 kind (1 cursor, 2 offset) | then
//   cursor: varint read | length-prefixed engine state | varint rows_returned
//           | length-prefixed partition | varint rows_in_partition
//   offset: varint offset
// Decoding never trusts the bytes: anything malformed is InvalidRequest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette::cql {

struct SelectPagingState {
  enum class Kind : uint8_t { kCursor = 1, kOffset = 2 };
  Kind kind = Kind::kCursor;

  uint64_t read_index = 0;
  std::string engine_state;
  int64_t rows_returned = 0;
  // The partition key (encoded) the last returned row came from.
  std::string partition;
  int64_t rows_in_partition = 0;

  uint64_t offset = 0;

  std::string Encode() const;
  static Result<SelectPagingState> Decode(std::string_view encoded);
};

Status InvalidPagingState();

}  // namespace cassette::cql
