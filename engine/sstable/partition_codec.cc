#include "engine/sstable/partition_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>

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

namespace {

size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

char* PutVarintAt(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

}  // namespace

size_t MaxRowEntryHeadSize(std::string_view clustering) { return 3 * 10 + clustering.size(); }

size_t MaxRowEntrySize(const Row& row) {
  return MaxRowEntryHeadSize(row.clustering) + MaxEncodedRowBodySize(row);
}

char* EncodeRowEntryHead(std::string_view prev_clustering, std::string_view clustering,
                         size_t body_bound, char* p) {
  const size_t limit = std::min(prev_clustering.size(), clustering.size());
  size_t shared = 0;
  // Eight bytes at a time: clusterings of neighbouring rows (a timestamp,
  // a counter) share most of their bytes, and the first that differs is
  // found from the words' difference.
  bool differs = false;
  while (shared + 8 <= limit && !differs) {
    uint64_t a, b;
    std::memcpy(&a, prev_clustering.data() + shared, 8);
    std::memcpy(&b, clustering.data() + shared, 8);
    if (a == b) {
      shared += 8;
    } else if constexpr (std::endian::native == std::endian::little) {
      shared += static_cast<size_t>(std::countr_zero(a ^ b)) / 8;
      differs = true;
    } else {
      break;
    }
  }
  while (!differs && shared < limit && prev_clustering[shared] == clustering[shared]) ++shared;
  const size_t unshared = clustering.size() - shared;
  p = PutVarintAt(p, shared + 1);
  p = PutVarintAt(p, unshared);
  if (unshared > 0) std::memcpy(p, clustering.data() + shared, unshared);
  p += unshared;
  // Room for the varint of the body's bound: the body is written after it.
  return p + VarintLength(body_bound);
}

char* FinishRowEntry(char* body, size_t body_bound, char* body_end) {
  // The body length goes before the body, which moves down in the (usual)
  // case the length takes fewer bytes than the bound's.
  const size_t body_length = static_cast<size_t>(body_end - body);
  char* p = PutVarintAt(body - VarintLength(body_bound), body_length);
  if (p != body) std::memmove(p, body, body_length);
  return p + body_length;
}

char* EncodeRowEntryTo(std::string_view prev_clustering, const Row& row, const EncodingStats& stats,
                       char* p) {
  const size_t body_bound = MaxEncodedRowBodySize(row);
  char* body = EncodeRowEntryHead(prev_clustering, row.clustering, body_bound, p);
  return FinishRowEntry(body, body_bound, EncodeRowBodyTo(row, stats, body));
}

void EncodeRowEntry(std::string_view prev_clustering, const Row& row, const EncodingStats& stats,
                    std::string* out) {
  const size_t old = out->size();
  out->resize(old + MaxRowEntrySize(row));
  char* end = EncodeRowEntryTo(prev_clustering, row, stats, out->data() + old);
  out->resize(static_cast<size_t>(end - out->data()));
}

}  // namespace cassette
