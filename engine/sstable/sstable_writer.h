// SSTableWriter: writes one SSTable file from partitions given in
// partition order (token, then key bytes), rows in clustering order.
// Layout: FORMAT.md. The file is complete and durable only after Finish()
// returns OK; until then (and after any error) it is a partial file that
// Abandon() (or the destructor) deletes.
//
// Not thread-safe. After an I/O error every call returns that error.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"
#include "engine/sstable/block_appender.h"
#include "engine/sstable/bloom_filter.h"
#include "engine/sstable/data_stream_writer.h"
#include "engine/sstable/partition_index_writer.h"
#include "engine/sstable/row_index.h"
#include "engine/sstable/sstable_stats.h"
#include "engine/sstable/sstable_stats_collector.h"
#include "engine/sstable/sstable_writer_options.h"

namespace cassette {

class SSTableWriter {
 public:
  // Creates (truncates) `path`. `fs` must outlive the writer.
  static Result<std::unique_ptr<SSTableWriter>> Create(FileSystem* fs, std::string path,
                                                       SSTableWriterOptions options);
  // Abandons the file unless Finish() succeeded.
  ~SSTableWriter();
  SSTableWriter(const SSTableWriter&) = delete;
  SSTableWriter& operator=(const SSTableWriter&) = delete;

  // Starts a partition. InvalidArgument unless `key` sorts strictly after
  // the previous partition's key, or while a partition is open.
  Status BeginPartition(const DecoratedKey& key, const DeletionTime& partition_deletion,
                        const Row& static_row, const std::vector<RangeTombstone>& range_tombstones);
  // InvalidArgument unless a partition is open and row.clustering sorts
  // strictly after (memcmp) the previous row's.
  Status AddRow(const Row& row);
  // The same for a row still encoded (an input SSTable's, passing through
  // a compaction unchanged): its body is copied, re-based when its
  // encoding bases differ from this file's, not decoded and re-encoded.
  Status AddEncodedRow(const std::string& clustering, const EncodedRow& row);
  Status EndPartition();
  // BeginPartition, AddRow for each row, EndPartition.
  Status Add(const PartitionUpdate& partition);

  // Bytes the file would have if finished now (approximate: the open
  // chunk is counted at the compression ratio so far).
  uint64_t EstimatedFileSize() const;
  uint64_t partitions_written() const { return collector_.stats().partition_count; }

  // Writes the index, filter and statistics sections and the footer,
  // syncs and closes the file. InvalidArgument while a partition is open.
  Result<SSTableStats> Finish();
  // Closes and deletes the partial file. Safe to call more than once.
  void Abandon();

 private:
  SSTableWriter(FileSystem* fs, std::string path, SSTableWriterOptions options,
                std::unique_ptr<WritableFile> file);

  // Records a sticky error.
  Status Fail(Status s);
  Status CheckUsable() const;
  Status CloseRowBlock();
  // The checks AddRow and AddEncodedRow share, and closing a full block.
  Status BeforeRow(const std::string& clustering);
  // Room for `max` bytes at the end of the open block's rows, valid until
  // the next call.
  char* ReserveRow(size_t max) {
    if (block_rows_.size() - block_rows_used_ < max) block_rows_.resize(block_rows_used_ + max);
    return block_rows_.data() + block_rows_used_;
  }
  // Keeps the entry encoded at ReserveRow() (`length` bytes, its body
  // against `bases`) and records the row.
  void AfterRow(const std::string& clustering, const EncodingStats& bases, size_t length);
  // What the next row entry is encoded against: the previous row of the
  // block, or nothing and the file's stats at a block's start.
  std::string_view PreviousClustering() const {
    return block_has_rows_ ? std::string_view(prev_clustering_) : std::string_view();
  }
  const EncodingStats& PreviousBases() const {
    return block_has_rows_ ? prev_bases_ : options_.encoding_stats;
  }
  Result<BlockHandle> WriteRawBlock(std::string_view payload);
  Status WriteSection(SectionType type, std::string_view bytes, size_t slot, Footer* footer);

  FileSystem* fs_;
  std::string path_;
  SSTableWriterOptions options_;
  std::unique_ptr<WritableFile> file_;
  BlockAppender appender_;
  DataStreamWriter data_;
  PartitionIndexWriter index_;
  BloomFilter bloom_;
  StatsCollector collector_;
  Status error_;
  bool finished_ = false;
  bool abandoned_ = false;

  // The open partition.
  bool in_partition_ = false;
  bool has_last_key_ = false;
  DecoratedKey last_key_;
  std::string last_sort_key_;
  uint64_t partition_start_ = 0;
  bool partition_has_rows_ = false;
  std::string prev_clustering_;  // previous row of the partition
  EncodingStats prev_bases_;     // its bases
  // The open row-index block: its rows are held until it closes, since
  // its timestamp steps go first (FORMAT.md, version 3).
  uint64_t block_start_ = 0;
  bool block_has_rows_ = false;
  std::string timestamp_steps_;
  std::string block_rows_;  // [0, block_rows_used_) are the entries
  size_t block_rows_used_ = 0;
  std::string block_first_;
  std::vector<RowIndexEntry> row_blocks_;
  std::string scratch_;
  Row decoded_;  // an encoded row decoded, when its stats need it
  std::string node_scratch_;
};

}  // namespace cassette
