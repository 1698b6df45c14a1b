// Table: one table's storage (Cassandra's ColumnFamilyStore): its active
// memtable, the memtable being flushed, and its live SSTables, published as
// an immutable View so readers never block writers or flushes. The Database
// owns the commit log and the manifest and drives flushes; a Table only
// holds data and answers reads.
//
// Thread-safe: Apply may run concurrently with reads and with a flush.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cassette/query.h"
#include "cassette/schema.h"
#include "engine/commitlog/commit_log_position.h"
#include "engine/memtable/memtable.h"
#include "engine/read/execute_read.h"
#include "engine/sstable/sstable_reader.h"

namespace cassette {

class Table {
 public:
  struct LiveSSTable {
    uint64_t generation = 0;
    std::shared_ptr<SSTableReader> reader;
  };
  // A consistent set of sources. Immutable once published.
  struct View {
    std::shared_ptr<Memtable> active;
    std::shared_ptr<Memtable> flushing;  // null when no flush is running
    // Commit-log position noted when `flushing` was switched out: every
    // record at or before it is in `flushing` or older sources.
    CommitLogPosition flushing_position;
    std::vector<LiveSSTable> sstables;  // oldest first
  };

  Table(uint64_t id, TableSchema schema, std::string dir, std::vector<LiveSSTable> sstables);

  uint64_t id() const { return id_; }
  const std::string& dir() const { return dir_; }
  TableSchema schema() const;
  void set_schema(TableSchema schema);
  std::shared_ptr<const View> view() const;

  // REQUIRES: the caller holds the database's write barrier (shared).
  void Apply(const PartitionUpdate& update);
  size_t MemtableBytes() const;
  bool HasUnflushedData() const;

  // Moves the active memtable to `flushing` and starts a new one; returns
  // the memtable to flush, or null when there is nothing to flush. After a
  // failed flush the memtable stays in `flushing` (still readable) and is
  // returned again, so the next flush retries it. REQUIRES: the write
  // barrier held exclusively and flushes of this table serialized.
  struct FlushJob {
    std::shared_ptr<Memtable> memtable;
    CommitLogPosition position;
  };
  FlushJob SwitchMemtable(CommitLogPosition position);
  // Publishes the SSTable written from the flushing memtable (reader may be
  // null when the memtable held nothing to write).
  void CompleteFlush(LiveSSTable sstable, uint64_t bytes_flushed);

  Result<ResultSet> Read(const ReadCommand& command);

  // Per-table counters for stats.
  void AddUserBytes(uint64_t n) { bytes_written_by_users_ += n; }
  uint64_t bytes_written_by_users() const { return bytes_written_by_users_; }
  uint64_t bytes_flushed() const { return bytes_flushed_; }

  // A flush job is queued or running (so at most one is scheduled).
  std::atomic<bool> flush_scheduled{false};

 private:
  void Publish(std::shared_ptr<const View> view);

  const uint64_t id_;
  const std::string dir_;
  mutable std::mutex mutex_;  // guards schema_ and view_ (the pointer)
  TableSchema schema_;
  std::shared_ptr<const View> view_;
  std::atomic<uint64_t> bytes_written_by_users_{0};
  std::atomic<uint64_t> bytes_flushed_{0};
};

}  // namespace cassette
