// CqlDuration: the value of a CQL duration (months, days, nanoseconds kept
// apart because their lengths vary), its serialized form (three zigzag
// vints in Cassandra's VIntCoding: the count of leading one bits of the
// first byte is the number of extra bytes, big-endian), its literal syntax
// and its text rendering.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette {

struct CqlDuration {
  int64_t months = 0;
  int64_t days = 0;
  int64_t nanos = 0;
};

// Cassandra's unsigned vint (VIntCoding), 1 to 9 bytes.
void PutCassandraVint(std::string* out, uint64_t v);
bool GetCassandraVint(std::string_view* in, uint64_t* v);

std::string SerializeDuration(int32_t months, int32_t days, int64_t nanos);
// InvalidRequest with Cassandra's message when the bytes are not a duration.
Status DeserializeDuration(std::string_view bytes, CqlDuration* out);

// "1h30m", "-2d", "1y2mo3w4d5h6m7s8ms9us10ns", "P1Y2M3DT4H5M6S", "P2W",
// "P0001-02-03T04:05:06". InvalidRequest on anything else.
Result<CqlDuration> ParseDurationText(std::string_view text);

// "1y2mo3d4h5m6s7ms8us9ns" with a leading '-' when negative; the empty
// string for a zero duration (as Cassandra and cqlsh print it).
std::string FormatDuration(const CqlDuration& d);

}  // namespace cassette
