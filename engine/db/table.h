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
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/query.h"
#include "cassette/schema.h"
#include "engine/commitlog/commit_log_position.h"
#include "engine/db/background_retry.h"
#include "engine/db/manifest.h"
#include "engine/db/obsolete_file_deleter.h"
#include "engine/db/table_compaction_state.h"
#include "engine/db/table_flush_state.h"
#include "engine/memtable/memtable.h"
#include "engine/read/execute_read.h"
#include "engine/sstable/sstable_reader.h"

namespace cassette {

class Table {
 public:
  struct LiveSSTable {
    uint64_t generation = 0;
    uint32_t level = 0;  // leveled strategies
    std::shared_ptr<SSTableReader> reader;
    // Deletes the file when it is obsolete and no View holds it.
    std::shared_ptr<ObsoleteFileDeleter> deleter;
    // Partitions with a token <= this were moved to a compaction's outputs
    // (incremental release): this file no longer answers for them.
    std::optional<int64_t> start_after_token;
    bool Covers(int64_t token) const { return !start_after_token || token > *start_after_token; }
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
  TableSchema schema() const { return *shared_schema(); }
  // The current schema without a copy (a write or read holds it while it
  // runs; an ALTER installs a new one rather than changing this one).
  std::shared_ptr<const TableSchema> shared_schema() const;
  void set_schema(TableSchema schema);
  std::shared_ptr<const View> view() const;

  // REQUIRES: the caller holds the database's write barrier (shared).
  void Apply(const PartitionUpdate& update);
  // One write of a batch: a whole update, or a plain row described without
  // building one (exactly one of the two is set).
  struct Write {
    const PartitionUpdate* update = nullptr;
    const PlainRowWrite* plain = nullptr;
  };
  // A batch's writes of this table, in order, into one memtable (the view
  // is taken once, not once per write).
  void Apply(std::span<const Write> writes);
  // The active and the flushing memtable together: what
  // Options::memtable_flush_threshold bounds.
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
  // Publishes the SSTables written from the flushing memtable (none when
  // the memtable held nothing to write).
  void CompleteFlush(std::vector<LiveSSTable> sstables, uint64_t bytes_flushed);

  // Publishes a compaction's result: `removed` leave the view (and are
  // marked obsolete: their files go once no reader holds them), `added`
  // join it. REQUIRES: the manifest already records the change.
  // `start_bounds` moves the start of inputs that stay live (partially
  // consumed by an incremental compaction).
  void ReplaceSSTables(const std::vector<uint64_t>& removed, std::vector<LiveSSTable> added,
                       uint64_t bytes_compacted,
                       const std::map<uint64_t, int64_t>& start_bounds = {});
  uint64_t bytes_compacted() const { return bytes_compacted_; }
  // TRUNCATE: publishes an empty view (a new memtable, no flushing one, no
  // SSTables) and marks every SSTable obsolete. REQUIRES: the manifest
  // already records the truncation, the write barrier is held exclusively
  // and flushes are serialized.
  void Truncate();
  // Records new levels for SSTables that move without a rewrite.
  void SetLevels(const std::map<uint64_t, uint32_t>& levels);

  // Compaction bookkeeping (strategy, running tasks, statistics).
  TableCompactionState& compaction() { return compaction_; }

  // TWCS late-write accounting: the newest write timestamp seen.
  void NoteWriteTimestamp(int64_t timestamp);
  int64_t max_write_timestamp() const { return max_write_timestamp_; }

  Result<ResultSet> Read(const ReadCommand& command);
  Result<ResultSet> ReadEach(const ReadCommand& command, const RowVisitor& visit);

  // Lifetime statistics, as the manifest stores them.
  TableCounters Counters() const;
  void RestoreCounters(const TableCounters& counters);

  // Per-table counters for stats.
  void AddUserBytes(uint64_t n) { bytes_written_by_users_ += n; }
  uint64_t bytes_written_by_users() const { return bytes_written_by_users_; }
  uint64_t bytes_flushed() const { return bytes_flushed_; }

  // The table's flush job: queued, running or neither (one at a time).
  TableFlushState& flush_state() { return flush_state_; }
  // Its background flushes and compactions that failed, and their retries.
  TableBackgroundState& background() { return background_; }

  // Damaged SSTables (Options::disk_failure_policy), one entry per
  // generation (the latest failure), for GetTableStats.
  void NoteSSTableFailure(SSTableFailure failure);
  std::vector<SSTableFailure> SSTableFailures() const;
  // Failed in a compaction and still in the view (kStop, kIgnore):
  // background compactions leave it out until the next open.
  bool FailedInCompaction(uint64_t generation) const;
  // Some of the table's data is in no SSTable of the view (one out of
  // service, or not loaded at open): compactions then purge no deletion
  // and drop no expired file, since what they shadow may be in it.
  bool HasSSTablesOutOfView() const { return sstables_out_of_view_; }
  // The second before which compactions purge deletions and expired
  // cells at `now_micros` (now - gc_grace_seconds of `schema`), or
  // INT64_MIN when data is out of the view.
  int64_t CompactionGcBefore(const TableSchema& schema, int64_t now_micros) const;
  // kBestEffort: removes the SSTable from the view without marking it
  // obsolete (its file stays). False when the view no longer holds it.
  bool TakeOutOfService(uint64_t generation);

 private:
  void Publish(std::shared_ptr<const View> view);

  const uint64_t id_;
  const std::string dir_;
  mutable std::mutex mutex_;  // guards schema_ and view_ (the pointers)
  std::shared_ptr<const TableSchema> schema_;
  std::shared_ptr<const View> view_;
  std::atomic<uint64_t> bytes_written_by_users_{0};
  std::atomic<uint64_t> bytes_flushed_{0};
  std::atomic<uint64_t> bytes_compacted_{0};
  std::atomic<int64_t> max_write_timestamp_{std::numeric_limits<int64_t>::min()};
  TableCompactionState compaction_;
  TableFlushState flush_state_;
  TableBackgroundState background_;
  mutable std::mutex failures_mutex_;
  std::map<uint64_t, SSTableFailure> failures_;  // GUARDED_BY(failures_mutex_)
  std::set<uint64_t> failed_in_compaction_;      // GUARDED_BY(failures_mutex_)
  std::atomic<bool> sstables_out_of_view_{false};
};

}  // namespace cassette
