#include "engine/db/view_read_source.h"

#include <algorithm>

namespace cassette {

std::optional<TokenRange> CoveredRange(const TokenRange& range,
                                       std::optional<int64_t> start_after_token) {
  if (!start_after_token) return range;
  TokenRange covered = range;
  if (covered.start < *start_after_token ||
      (covered.start == *start_after_token && covered.start_inclusive)) {
    covered.start = *start_after_token;
    covered.start_inclusive = false;
  }
  if (covered.end < covered.start || (covered.end == covered.start && !covered.end_inclusive) ||
      (covered.end == covered.start && !covered.start_inclusive)) {
    return std::nullopt;
  }
  return covered;
}

Result<std::vector<PartitionContent>> ViewReadSource::ReadPartition(const DecoratedKey& key,
                                                                    const ClusteringRange& range,
                                                                    bool reversed,
                                                                    ReadStats* stats) {
  std::vector<PartitionContent> contents;
  DeletionTime newest_partition_deletion;
  auto note = [&](PartitionContent content) {
    if (content.partition_deletion.Supersedes(newest_partition_deletion)) {
      newest_partition_deletion = content.partition_deletion;
    }
    contents.push_back(std::move(content));
  };
  for (const auto& memtable : {view_->active, view_->flushing}) {
    if (!memtable) continue;
    ++stats->memtables_read;
    if (auto content = memtable->ReadPartition(key, range, reversed)) note(std::move(*content));
  }

  // Newest SSTables first, so a partition deletion found early lets older
  // files be skipped without reading them.
  std::vector<const Table::LiveSSTable*> candidates;
  for (const auto& sstable : view_->sstables) candidates.push_back(&sstable);
  std::sort(candidates.begin(), candidates.end(), [](const auto* a, const auto* b) {
    return a->reader->stats().max_timestamp > b->reader->stats().max_timestamp;
  });
  for (const Table::LiveSSTable* sstable : candidates) {
    const SSTableStats& s = sstable->reader->stats();
    if (!sstable->Covers(key.token) || !sstable->reader->MayContainKey(key) ||
        newest_partition_deletion.Deletes(s.max_timestamp)) {
      ++stats->sstables_skipped;
      continue;
    }
    // Clustering bounds exclude the file only when it has no partition-level
    // data that could matter (static rows and deletions are outside them).
    if (s.row_count > 0 && !s.has_partition_deletions && s.range_tombstone_count == 0 &&
        s.static_row_count == 0 && !range.Intersects(s.min_clustering, s.max_clustering)) {
      ++stats->sstables_skipped;
      continue;
    }
    ++stats->sstables_read;
    CASSETTE_ASSIGN_OR_RETURN(std::optional<PartitionContent> content,
                              sstable->reader->ReadPartition(key, range, reversed, stats));
    if (content) note(std::move(*content));
  }
  return contents;
}

Result<std::vector<std::unique_ptr<PartitionIterator>>> ViewReadSource::ScanPartitions(
    const TokenRange& range, ReadStats* stats) {
  std::vector<std::unique_ptr<PartitionIterator>> iterators;
  for (const auto& memtable : {view_->active, view_->flushing}) {
    if (memtable) iterators.push_back(memtable->NewIterator(range));
  }
  for (const auto& sstable : view_->sstables) {
    std::optional<TokenRange> covered = CoveredRange(range, sstable.start_after_token);
    if (covered) iterators.push_back(sstable.reader->NewScanner(*covered, stats));
  }
  return iterators;
}

}  // namespace cassette
