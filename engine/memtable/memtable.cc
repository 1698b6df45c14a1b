#include "engine/memtable/memtable.h"

#include "engine/memtable/memtable_partition_iterator.h"

namespace cassette {
namespace {

// Heap bytes per by_token_ entry: node (key, value, next, cached hash) plus
// its bucket pointer, as libstdc++ lays them out.
constexpr size_t kIndexBytesPerPartition = 48;

bool HasContent(const PartitionUpdate& u) {
  return !u.partition_deletion.IsLive() || !u.static_row.IsEmpty() || !u.range_tombstones.empty() ||
         !u.rows.empty();
}

}  // namespace

Memtable::Memtable() : partitions_(MemtablePartitionComparator(), &arena_) {}

void Memtable::Apply(const PartitionUpdate& update) {
  if (!HasContent(update)) return;
  std::lock_guard<std::mutex> lock(write_mu_);
  const uint64_t seq = last_seq_ + 1;
  MemtablePartition* partition = FindOrCreate(update.key.token, update.key.key, seq);
  partition->Apply(update, seq, &arena_, &scratch_);
  stats_.Add(update);
  Publish(partition, seq);
}

void Memtable::Apply(const PlainRowWrite& write) {
  // A plain row always has content: a marker or a cell.
  std::lock_guard<std::mutex> lock(write_mu_);
  const uint64_t seq = last_seq_ + 1;
  MemtablePartition* partition = FindOrCreate(write.token, write.key, seq);
  partition->ApplyPlainRow(write.clustering, write.row, seq, &arena_, &scratch_);
  stats_.Add(write.row);
  Publish(partition, seq);
}

void Memtable::Publish(const MemtablePartition* partition, uint64_t seq) {
  last_seq_ = seq;
  // Everything the Apply linked becomes visible to new snapshots at once.
  published_seq_.store(seq, std::memory_order_release);
  if (partition->created_seq() == seq) partition_count_.fetch_add(1, std::memory_order_relaxed);
}

MemtablePartition* Memtable::FindOrCreate(int64_t token, std::string_view key, uint64_t seq) {
  auto [it, new_token] = by_token_.try_emplace(token, nullptr);
  if (!new_token && it->second->key() == key) return it->second;
  const PartitionLookup lookup{token, key};
  MemtablePartitionList::Splice splice;
  MemtablePartitionList::Node* next = partitions_.Locate(lookup, &splice);
  if (!new_token && next != nullptr && MemtablePartitionComparator()(next->key, lookup) == 0) {
    return next->key;  // a second key with the same token
  }
  MemtablePartition* partition = MemtablePartition::New(token, key, seq, &arena_);
  partitions_.InsertAt(splice, partition);
  if (new_token) it->second = partition;
  return partition;
}

const MemtablePartition* Memtable::FindVisible(const DecoratedKey& key, uint64_t snapshot) const {
  const PartitionLookup lookup{key.token, key.key};
  MemtablePartitionList::Iterator it(&partitions_);
  it.Seek(lookup);
  if (!it.Valid() || MemtablePartitionComparator()(it.key(), lookup) != 0) return nullptr;
  const MemtablePartition* partition = it.key();
  return partition->created_seq() <= snapshot ? partition : nullptr;
}

size_t Memtable::ApproximateMemoryUsage() const {
  return arena_.MemoryUsage() + partition_count() * kIndexBytesPerPartition;
}

bool Memtable::ContainsPartition(const DecoratedKey& key) const {
  return FindVisible(key, Snapshot()) != nullptr;
}

std::optional<PartitionContent> Memtable::ReadPartition(const DecoratedKey& key,
                                                        const ClusteringRange& range,
                                                        bool reversed) const {
  const uint64_t snapshot = Snapshot();
  const MemtablePartition* partition = FindVisible(key, snapshot);
  if (partition == nullptr) return std::nullopt;
  return partition->Read(snapshot, range, reversed);
}

std::unique_ptr<PartitionIterator> Memtable::NewIterator(const TokenInterval& tokens) const {
  return std::make_unique<MemtablePartitionIterator>(&partitions_, Snapshot(), tokens);
}

std::unique_ptr<PartitionIterator> Memtable::NewIterator() const {
  return NewIterator(TokenInterval::All());
}

}  // namespace cassette
