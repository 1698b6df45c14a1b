#include "engine/memtable/memtable_partition.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <new>
#include <utility>

#include "engine/memtable/memtable_row_iterator.h"
#include "engine/mutation/clustering_interval.h"
#include "engine/mutation/reconcile.h"

namespace cassette {
namespace {

// A deletion version is the raw struct: nothing to decode, nothing to fail.
std::string_view DeletionBytes(const DeletionTime& d) {
  return {reinterpret_cast<const char*>(&d), sizeof(d)};
}
DeletionTime DeletionFrom(std::string_view bytes) {
  DeletionTime d;
  assert(bytes.size() == sizeof(d));
  std::memcpy(&d, bytes.data(), sizeof(d));
  return d;
}

}  // namespace

MemtablePartition::MemtablePartition(int64_t token, const char* key_data, size_t key_size,
                                     uint64_t created_seq, MemtableArena* arena)
    : token_(token),
      key_data_(key_data),
      key_size_(key_size),
      created_seq_(created_seq),
      rows_(MemtableRowComparator(), arena) {}

MemtablePartition* MemtablePartition::New(int64_t token, std::string_view key, uint64_t created_seq,
                                          MemtableArena* arena) {
  char* key_data = nullptr;
  if (!key.empty()) {
    key_data = arena->Allocate(key.size());
    std::memcpy(key_data, key.data(), key.size());
  }
  char* mem = arena->AllocateAligned(sizeof(MemtablePartition));
  return new (mem) MemtablePartition(token, key_data, key.size(), created_seq, arena);
}

void MemtablePartition::Apply(const PartitionUpdate& update, uint64_t seq, MemtableArena* arena,
                              std::string* scratch) {
  if (!update.partition_deletion.IsLive()) ApplyDeletion(update.partition_deletion, seq, arena);
  if (!update.static_row.IsEmpty()) ApplyStaticRow(update.static_row, seq, arena, scratch);
  for (const RangeTombstone& rt : update.range_tombstones) {
    scratch->clear();
    EncodeRangeTombstone(rt, kMemtableEncodingStats, scratch);
    range_tombstones_.Push(seq, *scratch, arena);
  }
  for (const Row& row : update.rows) ApplyRow(row, seq, arena, scratch);
}

void MemtablePartition::ApplyDeletion(const DeletionTime& deletion, uint64_t seq,
                                      MemtableArena* arena) {
  if (const VersionedList::Version* newest = deletions_.Newest()) {
    // The newest version is visible to every reader that can see this
    // Apply; if it already wins, there is nothing new to say.
    if (!deletion.Supersedes(DeletionFrom(newest->data()))) return;
  }
  deletions_.Push(seq, DeletionBytes(deletion), arena);
}

void MemtablePartition::ApplyStaticRow(const Row& row, uint64_t seq, MemtableArena* arena,
                                       std::string* scratch) {
  scratch->clear();
  if (const VersionedList::Version* newest = static_rows_.Newest()) {
    Row merged;
    Status s = DecodeMemtableRowBody(newest->data(), &merged);
    // The bytes were encoded by this process into memory nobody else
    // writes: failing to decode them is a bug, not bad input.
    assert(s.ok());
    s.IgnoreError();
    MergeRow(&merged, row);
    EncodeRowBody(merged, kMemtableEncodingStats, scratch);
  } else {
    EncodeRowBody(row, kMemtableEncodingStats, scratch);
  }
  static_rows_.Push(seq, *scratch, arena);
}

template <class Encode, class Merge>
void MemtablePartition::InsertRowVersion(std::string_view clustering, uint64_t seq,
                                         MemtableArena* arena, std::string* scratch,
                                         Encode&& encode, Merge&& merge) {
  MemtableRowList::Splice splice;
  const MemtableRowList::Node* next = rows_.Locate(clustering, &splice);
  scratch->clear();
  if (next != nullptr && next->key->clustering() == clustering) {
    // An overwrite: store the merge, so that readers need one version.
    Row merged;
    Status s = next->key->Decode(&merged);
    assert(s.ok());  // our own bytes, as above
    s.IgnoreError();
    merge(&merged);
    EncodeRowBody(merged, kMemtableEncodingStats, scratch);
  } else {
    encode(scratch);
  }
  rows_.InsertAt(splice, MemtableRow::New(seq, clustering, *scratch, arena));
}

void MemtablePartition::ApplyRow(const Row& row, uint64_t seq, MemtableArena* arena,
                                 std::string* scratch) {
  InsertRowVersion(
      row.clustering, seq, arena, scratch,
      [&](std::string* out) { EncodeRowBody(row, kMemtableEncodingStats, out); },
      [&](Row* merged) { MergeRow(merged, row); });
}

void MemtablePartition::ApplyPlainRow(std::string_view clustering, const PlainRow& row,
                                      uint64_t seq, MemtableArena* arena, std::string* scratch) {
  InsertRowVersion(
      clustering, seq, arena, scratch,
      [&](std::string* out) { EncodePlainRowBody(row, kMemtableEncodingStats, out); },
      [&](Row* merged) { MergeRow(merged, row.ToRow(clustering)); });
}

DeletionTime MemtablePartition::PartitionDeletion(uint64_t snapshot) const {
  const VersionedList::Version* v = deletions_.NewestVisible(snapshot);
  return v == nullptr ? DeletionTime::Live() : DeletionFrom(v->data());
}

Status MemtablePartition::StaticRow(uint64_t snapshot, Row* row) const {
  *row = Row{};
  const VersionedList::Version* v = static_rows_.NewestVisible(snapshot);
  return v == nullptr ? Status::OK() : DecodeMemtableRowBody(v->data(), row);
}

Status MemtablePartition::RangeTombstones(uint64_t snapshot, const ClusteringRange& range,
                                          std::vector<RangeTombstone>* out) const {
  out->clear();
  // An unbounded read (flush, full scans) keeps every tombstone, even one
  // whose range holds no clustering, so the memtable's content survives
  // flush unchanged.
  const bool all = range.start.prefix.empty() && range.end.prefix.empty();
  const ClusteringInterval wanted = ClusteringInterval::FromRange(range);
  for (const VersionedList::Version* v = range_tombstones_.NewestVisible(snapshot); v != nullptr;
       v = VersionedList::OlderVisible(v, snapshot)) {
    RangeTombstone rt;
    std::string_view in = v->data();
    CASSETTE_RETURN_IF_ERROR(DecodeRangeTombstone(&in, kMemtableEncodingStats, &rt));
    if (all || ClusteringInterval::FromRange(rt.range).Overlaps(wanted)) {
      out->push_back(std::move(rt));
    }
  }
  // Oldest first: the order they were applied in.
  std::reverse(out->begin(), out->end());
  return Status::OK();
}

PartitionContent MemtablePartition::Read(uint64_t snapshot, const ClusteringRange& range,
                                         bool reversed) const {
  PartitionContent content;
  content.key.token = token_;
  content.key.key.assign(key_data_ == nullptr ? "" : key_data_, key_size_);
  content.partition_deletion = PartitionDeletion(snapshot);
  Status s = StaticRow(snapshot, &content.static_row);
  if (s.ok()) s = RangeTombstones(snapshot, range, &content.range_tombstones);
  if (!s.ok()) {
    content.rows = std::make_unique<MemtableRowIterator>(std::move(s));
  } else {
    content.rows = std::make_unique<MemtableRowIterator>(&rows_, snapshot, range, reversed);
  }
  return content;
}

}  // namespace cassette
