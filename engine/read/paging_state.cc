#include "engine/read/paging_state.h"

#include "engine/util/coding.h"

namespace cassette {
namespace {

constexpr uint8_t kVersion = 1;
constexpr uint8_t kPartitionDone = 1;
constexpr uint8_t kHasClustering = 2;

Status Invalid() { return Status::InvalidRequest("Invalid value for the paging state"); }

}  // namespace

std::string PagingState::Encode() const {
  std::string out;
  out.push_back(static_cast<char>(kVersion));
  uint8_t flags = (partition_done ? kPartitionDone : 0) | (last_clustering ? kHasClustering : 0);
  out.push_back(static_cast<char>(flags));
  PutVarint64(&out, key_index);
  PutFixed64(&out, static_cast<uint64_t>(partition.token));
  PutLengthPrefixed(&out, partition.key);
  if (last_clustering) PutLengthPrefixed(&out, *last_clustering);
  PutVarint64(&out, static_cast<uint64_t>(rows_returned));
  PutVarint64(&out, static_cast<uint64_t>(rows_in_partition));
  return out;
}

Result<PagingState> PagingState::Decode(std::string_view in) {
  if (in.size() < 2 || static_cast<uint8_t>(in[0]) != kVersion) return Invalid();
  uint8_t flags = static_cast<uint8_t>(in[1]);
  if ((flags & ~(kPartitionDone | kHasClustering)) != 0) return Invalid();
  in.remove_prefix(2);
  PagingState state;
  state.partition_done = (flags & kPartitionDone) != 0;
  uint64_t token = 0, rows_returned = 0, rows_in_partition = 0;
  std::string_view key;
  if (!GetVarint64(&in, &state.key_index) || !GetFixed64(&in, &token) ||
      !GetLengthPrefixed(&in, &key)) {
    return Invalid();
  }
  state.partition.token = static_cast<int64_t>(token);
  state.partition.key.assign(key);
  if ((flags & kHasClustering) != 0) {
    std::string_view clustering;
    if (!GetLengthPrefixed(&in, &clustering)) return Invalid();
    state.last_clustering.emplace(clustering);
  }
  if (!GetVarint64(&in, &rows_returned) || !GetVarint64(&in, &rows_in_partition) || !in.empty() ||
      rows_returned > INT64_MAX || rows_in_partition > rows_returned) {
    return Invalid();
  }
  state.rows_returned = static_cast<int64_t>(rows_returned);
  state.rows_in_partition = static_cast<int64_t>(rows_in_partition);
  return state;
}

}  // namespace cassette
