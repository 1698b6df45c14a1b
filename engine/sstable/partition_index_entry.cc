#include "engine/sstable/partition_index_entry.h"

#include "engine/util/coding.h"

namespace cassette {

namespace {
constexpr uint64_t kSignBit = uint64_t{1} << 63;
}  // namespace

void EncodePartitionIndexEntry(const PartitionIndexEntry& e, std::string* out) {
  PutLengthPrefixed(out, e.sort_key);
  PutVarint64(out, e.data_position);
  PutVarint64(out, e.partition_length);
  PutLengthPrefixed(out, e.row_index);
}

bool DecodePartitionIndexEntry(std::string_view* in, PartitionIndexEntry* e) {
  std::string_view copy = *in;
  if (!GetLengthPrefixed(&copy, &e->sort_key) || e->sort_key.size() < 8 ||
      !GetVarint64(&copy, &e->data_position) || !GetVarint64(&copy, &e->partition_length) ||
      !GetLengthPrefixed(&copy, &e->row_index)) {
    return false;
  }
  *in = copy;
  return true;
}

bool SortKeyToken(std::string_view sort_key, int64_t* token) {
  if (sort_key.size() < 8) return false;
  *token = static_cast<int64_t>(DecodeBigEndian64(sort_key.data()) ^ kSignBit);
  return true;
}

std::string TokenSortKeyPrefix(int64_t token) {
  std::string out;
  PutBigEndian64(&out, static_cast<uint64_t>(token) ^ kSignBit);
  return out;
}

}  // namespace cassette
