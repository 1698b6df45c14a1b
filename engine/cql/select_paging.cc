#include "engine/cql/select_paging.h"

#include "engine/util/coding.h"

namespace cassette::cql {
namespace {
constexpr char kMagic = static_cast<char>(0xC5);
}  // namespace

Status InvalidPagingState() { return Status::InvalidRequest("Invalid value for the paging state"); }

std::string SelectPagingState::Encode() const {
  std::string out;
  out.push_back(kMagic);
  out.push_back(static_cast<char>(kind));
  if (kind == Kind::kOffset) {
    PutVarint64(&out, offset);
    return out;
  }
  PutVarint64(&out, read_index);
  PutLengthPrefixed(&out, engine_state);
  PutVarint64(&out, static_cast<uint64_t>(rows_returned));
  PutLengthPrefixed(&out, partition);
  PutVarint64(&out, static_cast<uint64_t>(rows_in_partition));
  return out;
}

Result<SelectPagingState> SelectPagingState::Decode(std::string_view in) {
  SelectPagingState state;
  if (in.size() < 2 || in[0] != kMagic) return InvalidPagingState();
  const auto kind = static_cast<uint8_t>(in[1]);
  in.remove_prefix(2);
  if (kind == static_cast<uint8_t>(Kind::kOffset)) {
    state.kind = Kind::kOffset;
    if (!GetVarint64(&in, &state.offset) || !in.empty()) return InvalidPagingState();
    return state;
  }
  if (kind != static_cast<uint8_t>(Kind::kCursor)) return InvalidPagingState();
  std::string_view engine_state, partition;
  uint64_t rows_returned = 0, rows_in_partition = 0;
  if (!GetVarint64(&in, &state.read_index) || !GetLengthPrefixed(&in, &engine_state) ||
      !GetVarint64(&in, &rows_returned) || !GetLengthPrefixed(&in, &partition) ||
      !GetVarint64(&in, &rows_in_partition) || !in.empty() ||
      rows_returned > static_cast<uint64_t>(INT64_MAX) ||
      rows_in_partition > static_cast<uint64_t>(INT64_MAX)) {
    return InvalidPagingState();
  }
  state.engine_state = engine_state;
  state.partition = partition;
  state.rows_returned = static_cast<int64_t>(rows_returned);
  state.rows_in_partition = static_cast<int64_t>(rows_in_partition);
  return state;
}

}  // namespace cassette::cql
