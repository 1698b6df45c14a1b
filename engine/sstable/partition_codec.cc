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

char* PutVarintAt(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

}  // namespace

EncodingStats RowEncodingBases(const RowDefaults& d, const EncodingStats& previous) {
  EncodingStats bases = previous;
  if (d.present) {
    bases.min_timestamp = d.timestamp;
    if (d.ttl > 0) {
      bases.min_ttl = d.ttl;
      bases.min_local_deletion_time = d.local_deletion_time;
    }
  }
  return bases;
}

EncodingStats RowEncodingBases(const Row& row, const EncodingStats& previous) {
  return RowEncodingBases(RowDefaultsOf(row), previous);
}

EncodingStats RowEncodingBases(const RowBodyScan& scan, const EncodingStats& previous) {
  return RowEncodingBases(scan.defaults, previous);
}

bool AddClusteringDelta(std::string* clustering, uint64_t delta) {
  const size_t k = std::min<size_t>(kMaxClusteringDeltaBytes, clustering->size());
  char* tail = clustering->data() + clustering->size() - k;
  uint64_t v = 0;
  if (k == 8) {
    std::memcpy(&v, tail, 8);
    if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
    if (delta > ~uint64_t{0} - v) return false;
    v += delta;
    if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
    std::memcpy(tail, &v, 8);
    return true;
  }
  for (size_t i = 0; i < k; ++i) v = (v << 8) | static_cast<uint8_t>(tail[i]);
  if (delta > ((uint64_t{1} << (8 * k)) - 1) - v) return false;
  v += delta;
  for (size_t i = k; i-- > 0;) {
    tail[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  return true;
}

// Six varints: shared + 1 (or 0), unshared (or the delta), three bases,
// the body length.
size_t MaxRowEntryHeadSize(std::string_view clustering) { return 6 * 10 + clustering.size(); }

size_t MaxRowEntrySize(const Row& row) {
  return MaxRowEntryHeadSize(row.clustering) + MaxEncodedRowBodySize(row);
}

namespace {

size_t SharedPrefix(std::string_view a, std::string_view b) {
  const size_t limit = std::min(a.size(), b.size());
  size_t shared = 0;
  // Eight bytes at a time: clusterings of neighbouring rows (a timestamp,
  // a counter) share most of their bytes, and the first that differs is
  // found from the words' difference.
  while (shared + 8 <= limit) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + shared, 8);
    std::memcpy(&y, b.data() + shared, 8);
    if (x == y) {
      shared += 8;
    } else if constexpr (std::endian::native == std::endian::little) {
      return shared + static_cast<size_t>(std::countr_zero(x ^ y)) / 8;
    } else {
      break;
    }
  }
  while (shared < limit && a[shared] == b[shared]) ++shared;
  return shared;
}

uint64_t BigEndianTail(std::string_view s, size_t k) {
  uint64_t v = 0;
  for (size_t i = s.size() - k; i < s.size(); ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
  return v;
}

}  // namespace

char* EncodeRowEntryHead(std::string_view prev_clustering, std::string_view clustering,
                         const EncodingStats& prev_bases, const EncodingStats& bases,
                         size_t body_bound, char* p, std::string* timestamp_steps) {
  const size_t shared = SharedPrefix(prev_clustering, clustering);
  const size_t unshared = clustering.size() - shared;
  const size_t k = std::min<size_t>(kMaxClusteringDeltaBytes, clustering.size());
  // Rows ascend, so a clustering of the same length that differs only in
  // its last k bytes is the previous one plus a positive number there.
  bool as_delta = false;
  uint64_t delta = 0;
  if (!prev_clustering.empty() && prev_clustering.size() == clustering.size() && unshared > 0 &&
      shared >= clustering.size() - k) {
    delta = BigEndianTail(clustering, k) - BigEndianTail(prev_clustering, k);
    as_delta = delta > 0 && VarintLength(delta) <=
                                VarintLength(shared + 1) + VarintLength(unshared) + unshared - 1;
  }
  if (as_delta) {
    p = PutVarintAt(p, 0);
    p = PutVarintAt(p, delta);
  } else {
    p = PutVarintAt(p, shared + 1);
    p = PutVarintAt(p, unshared);
    if (unshared > 0) std::memcpy(p, clustering.data() + shared, unshared);
    p += unshared;
  }
  const uint64_t timestamp_step =
      ZigZagEncode(WrappingSub(bases.min_timestamp, prev_bases.min_timestamp));
  if (timestamp_steps != nullptr) {
    PutVarint64(timestamp_steps, timestamp_step);
  } else {
    p = PutVarintAt(p, timestamp_step);
  }
  p = PutVarintAt(p, ZigZagEncode(WrappingSub(bases.min_local_deletion_time,
                                              prev_bases.min_local_deletion_time)));
  p = PutVarintAt(p, ZigZagEncode(static_cast<int64_t>(bases.min_ttl) - prev_bases.min_ttl));
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

char* EncodeRowEntryTo(std::string_view prev_clustering, const EncodingStats& prev_bases,
                       const Row& row, const EncodingStats& bases, char* p,
                       std::string* timestamp_steps) {
  const size_t body_bound = MaxEncodedRowBodySize(row);
  char* body = EncodeRowEntryHead(prev_clustering, row.clustering, prev_bases, bases, body_bound, p,
                                  timestamp_steps);
  return FinishRowEntry(body, body_bound, EncodeRowBodyTo(row, bases, body));
}

}  // namespace cassette
