#include "engine/sstable/partition_codec.h"

#include <algorithm>

#include "engine/util/coding.h"

namespace cassette {

void EncodePartitionHeader(const DecoratedKey& key, const DeletionTime& partition_deletion,
                           const Row& static_row,
                           const std::vector<RangeTombstone>& range_tombstones,
                           const EncodingStats& stats, std::string* out) {
  std::string header;
  PutFixed64(&header, static_cast<uint64_t>(key.token));
  PutLengthPrefixed(&header, key.key);
  uint8_t flags = 0;
  if (!partition_deletion.IsLive()) flags |= kHasPartitionDeletion;
  if (!static_row.IsEmpty()) flags |= kHasStaticRow;
  if (!range_tombstones.empty()) flags |= kHasRangeTombstones;
  header.push_back(static_cast<char>(flags));
  if (flags & kHasPartitionDeletion) EncodeDeletionTime(partition_deletion, stats, &header);
  if (flags & kHasStaticRow) EncodeRowBody(static_row, stats, &header);
  if (flags & kHasRangeTombstones) {
    PutVarint64(&header, range_tombstones.size());
    for (const RangeTombstone& rt : range_tombstones) EncodeRangeTombstone(rt, stats, &header);
  }
  PutLengthPrefixed(out, header);
}

Status DecodePartitionHeader(std::string_view in, const EncodingStats& stats,
                             PartitionHeader* header) {
  uint64_t token;
  std::string_view key;
  if (!GetFixed64(&in, &token) || !GetLengthPrefixed(&in, &key) || in.empty()) {
    return Status::Corruption("malformed partition header");
  }
  header->key.token = static_cast<int64_t>(token);
  header->key.key.assign(key);
  const auto flags = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if (flags & ~(kHasPartitionDeletion | kHasStaticRow | kHasRangeTombstones)) {
    return Status::Corruption("unknown partition header flags " + std::to_string(flags));
  }
  header->partition_deletion = DeletionTime::Live();
  header->static_row = Row{};
  header->range_tombstones.clear();
  if (flags & kHasPartitionDeletion) {
    CASSETTE_RETURN_IF_ERROR(DecodeDeletionTime(&in, stats, &header->partition_deletion));
  }
  if (flags & kHasStaticRow) {
    CASSETTE_RETURN_IF_ERROR(DecodeRowBody(&in, stats, &header->static_row));
  }
  if (flags & kHasRangeTombstones) {
    uint64_t count;
    // A range tombstone takes at least two bytes, which bounds the allocation.
    if (!GetVarint64(&in, &count) || count > in.size() / 2) {
      return Status::Corruption("malformed range tombstone count");
    }
    header->range_tombstones.resize(count);
    for (RangeTombstone& rt : header->range_tombstones) {
      CASSETTE_RETURN_IF_ERROR(DecodeRangeTombstone(&in, stats, &rt));
    }
  }
  if (!in.empty()) return Status::Corruption("trailing bytes after partition header");
  return Status::OK();
}

void EncodeRowEntry(std::string_view prev_clustering, const Row& row, const EncodingStats& stats,
                    std::string* scratch, std::string* out) {
  const std::string& c = row.clustering;
  const size_t limit = std::min(prev_clustering.size(), c.size());
  size_t shared = 0;
  while (shared < limit && prev_clustering[shared] == c[shared]) ++shared;
  PutVarint64(out, shared + 1);
  PutLengthPrefixed(out, std::string_view(c).substr(shared));
  scratch->clear();
  EncodeRowBody(row, stats, scratch);
  PutLengthPrefixed(out, *scratch);
}

}  // namespace cassette
