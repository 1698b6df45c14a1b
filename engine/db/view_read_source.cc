#include "engine/db/view_read_source.h"

#include <algorithm>
#include <atomic>

#include "engine/mutation/deferred_row_iterator.h"

namespace cassette {

std::optional<TokenInterval> CoveredRange(const TokenInterval& tokens,
                                          std::optional<int64_t> start_after_token) {
  if (!start_after_token) return tokens;
  if (*start_after_token == INT64_MAX) return std::nullopt;
  TokenInterval covered = tokens;
  covered.first = std::max(covered.first, *start_after_token + 1);
  if (covered.first > covered.last) return std::nullopt;
  return covered;
}

namespace {

std::atomic<bool> skips_enabled{true};

// A merge opens at once the deferred files whose start comes first (at or
// before every opened source's first row). Opening them here instead lets
// the rows of a partition one file holds go to the read straight from that
// file, and drops the files that turn out not to hold the key (a bloom
// filter's false positive), so that no content means no partition.
Status OpenLeadingDeferred(bool reversed, std::vector<PartitionContent>* contents) {
  auto before = [reversed](const std::string& a, const std::string& b) {
    return reversed ? a > b : a < b;
  };
  for (;;) {
    const std::string* first_row = nullptr;
    DeferredRowIterator* leading = nullptr;
    size_t leading_index = 0;
    for (size_t i = 0; i < contents->size(); ++i) {
      RowIterator* rows = (*contents)[i].rows.get();
      if (rows == nullptr) continue;
      if (DeferredRowIterator* deferred = rows->AsDeferred()) {
        if (leading == nullptr || before(deferred->start(), leading->start())) {
          leading = deferred;
          leading_index = i;
        }
      } else if (rows->Valid() &&
                 (first_row == nullptr || before(rows->clustering(), *first_row))) {
        first_row = &rows->clustering();
      }
    }
    if (leading == nullptr || (first_row != nullptr && before(*first_row, leading->start()))) {
      return Status::OK();
    }
    CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<RowIterator> rows, leading->Open());
    if (rows == nullptr) {
      contents->erase(contents->begin() + static_cast<std::ptrdiff_t>(leading_index));
    } else {
      (*contents)[leading_index].rows = std::move(rows);
    }
  }
}

}  // namespace

void SetSSTableSkipsForTesting(bool enabled) {
  skips_enabled.store(enabled, std::memory_order_relaxed);
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
  const bool skips = skips_enabled.load(std::memory_order_relaxed);
  for (const Table::LiveSSTable* sstable : candidates) {
    const SSTableStats& s = sstable->reader->stats();
    if (!skips) {
      // Covers is no skip: the tokens it excludes are in newer files.
      if (!sstable->Covers(key.token)) continue;
      ++stats->sstables_read;
      CASSETTE_ASSIGN_OR_RETURN(
          std::optional<PartitionContent> content,
          sstable->reader->ReadPartition(key, range, reversed, &stats->blocks_read));
      if (content) note(std::move(*content));
      continue;
    }
    if (!sstable->Covers(key.token) || !sstable->reader->MayContainKey(key) ||
        newest_partition_deletion.Deletes(s.max_timestamp)) {
      ++stats->sstables_skipped;
      continue;
    }
    // Clustering bounds speak for the file only when it has no
    // partition-level data that could matter (static rows and deletions are
    // outside them).
    const bool rows_only = s.row_count > 0 && !s.has_partition_deletions &&
                           s.range_tombstone_count == 0 && s.static_row_count == 0;
    if (rows_only && !range.Intersects(s.min_clustering, s.max_clustering)) {
      ++stats->sstables_skipped;
      continue;
    }
    if (rows_only) {
      // Its rows can wait until the merge reaches its first clustering: a
      // read that reaches its limit before then never opens it. Counted
      // as skipped until it is opened.
      ++stats->sstables_skipped;
      PartitionContent deferred;
      deferred.key = key;
      deferred.rows = std::make_unique<DeferredRowIterator>(
          reversed ? s.max_clustering : s.min_clustering,
          [reader = sstable->reader, key, range, reversed,
           stats]() -> Result<std::unique_ptr<RowIterator>> {
            --stats->sstables_skipped;
            ++stats->sstables_read;
            CASSETTE_ASSIGN_OR_RETURN(
                std::optional<PartitionContent> content,
                reader->ReadPartition(key, range, reversed, &stats->blocks_read));
            if (!content) return std::unique_ptr<RowIterator>();
            if (!content->partition_deletion.IsLive() || !content->static_row.IsEmpty() ||
                !content->range_tombstones.empty()) {
              return Status::Corruption(reader->path() +
                                        ": partition-level data in a file whose statistics "
                                        "record none");
            }
            return std::move(content->rows);
          });
      contents.push_back(std::move(deferred));
      continue;
    }
    ++stats->sstables_read;
    CASSETTE_ASSIGN_OR_RETURN(
        std::optional<PartitionContent> content,
        sstable->reader->ReadPartition(key, range, reversed, &stats->blocks_read));
    if (content) note(std::move(*content));
  }
  CASSETTE_RETURN_IF_ERROR(OpenLeadingDeferred(reversed, &contents));
  return contents;
}

Result<std::vector<std::unique_ptr<PartitionIterator>>> ViewReadSource::ScanPartitions(
    const TokenInterval& tokens, ReadStats* stats) {
  std::vector<std::unique_ptr<PartitionIterator>> iterators;
  for (const auto& memtable : {view_->active, view_->flushing}) {
    if (memtable) iterators.push_back(memtable->NewIterator(tokens));
  }
  for (const auto& sstable : view_->sstables) {
    std::optional<TokenInterval> covered = CoveredRange(tokens, sstable.start_after_token);
    if (covered) iterators.push_back(sstable.reader->NewScanner(*covered, &stats->blocks_read));
  }
  return iterators;
}

}  // namespace cassette
