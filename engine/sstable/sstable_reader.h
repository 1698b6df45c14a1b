// SSTableReader: an open, immutable SSTable. Open() checks the footer and
// every metadata section and loads the index summary, bloom filter and
// statistics in memory; partitions are then found with one index block
// read, and rows are read chunk by chunk, only those a read needs.
//
// Safe for concurrent access from multiple threads without any external
// synchronization. The iterators it returns are not thread-safe; each
// keeps the reader alive.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/token_interval.h"
#include "engine/sstable/block_cache.h"
#include "engine/sstable/block_fetcher.h"
#include "engine/sstable/bloom_filter.h"
#include "engine/sstable/index_summary.h"
#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/sstable_format.h"
#include "engine/sstable/sstable_stats.h"

namespace cassette {

class DataCursor;

class SSTableReader : public std::enable_shared_from_this<SSTableReader> {
 public:
  // `fs` and `cache` (may be null) must outlive the reader. Corruption
  // naming the path when the file is not a valid SSTable.
  static Result<std::shared_ptr<SSTableReader>> Open(FileSystem* fs, std::string path,
                                                     BlockCache* cache = nullptr);

  const SSTableStats& stats() const { return stats_; }
  uint64_t file_size() const { return file_size_; }
  const std::string& path() const { return path_; }

  // False when the key is outside [first, last] or the bloom filter rules
  // it out; true means the key may be present.
  bool MayContainKey(const DecoratedKey& key) const;

  // The partition's content restricted to `range`, or nullopt when the
  // SSTable does not hold the key. Range tombstones are those overlapping
  // `range`. The row iterator reads data chunks lazily, only those
  // holding rows of the range, in clustering order or reversed. Each data
  // chunk the read loads (from the block cache or the file) counts once in
  // *blocks_read; index blocks and row index nodes do not (their count per
  // read is bounded by the tree depth). `blocks_read` (may be null) must
  // outlive the returned row iterator.
  Result<std::optional<PartitionContent>> ReadPartition(const DecoratedKey& key,
                                                        const ClusteringRange& range, bool reversed,
                                                        int64_t* blocks_read) const;

  // Every partition whose token is in `tokens`, in partition order, each
  // with its whole content forward; rows are decoded only when iterated.
  // `blocks_read` (may be null) must outlive the scanner.
  std::unique_ptr<PartitionIterator> NewScanner(const TokenInterval& tokens,
                                                int64_t* blocks_read) const;

  // Re-reads and checks every section, index block, row index node and
  // data chunk (bypassing the cache).
  Status VerifyChecksums() const;

  // Human-readable metadata (format, sections, statistics).
  std::string Describe() const;

  // Internal, for the scanner: the partition described by `entry` (whose
  // bytes lie in `index_block`, kept alive by the row iterator), read
  // through `cursor`.
  Result<PartitionContent> ReadContent(const PartitionIndexEntry& entry,
                                       const BlockRef& index_block, const ClusteringRange& range,
                                       bool reversed,
                                       const std::shared_ptr<DataCursor>& cursor) const;
  const BlockFetcher& fetcher() const { return *fetcher_; }
  const Footer& footer() const { return footer_; }
  const IndexSummary& summary() const { return summary_; }

 private:
  SSTableReader() = default;

  Status LoadSections(const Footer& footer);
  // Finds the index entry of `sort_key`; *block keeps its index block alive.
  Result<bool> FindEntry(const std::string& sort_key, BlockRef* block,
                         PartitionIndexEntry* entry) const;

  std::string path_;
  uint64_t file_size_ = 0;
  Footer footer_;
  std::unique_ptr<BlockFetcher> fetcher_;
  IndexSummary summary_;
  BloomFilter bloom_;
  SSTableStats stats_;
  std::string first_sort_key_;
  std::string last_sort_key_;
};

}  // namespace cassette
