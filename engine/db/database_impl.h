// DatabaseImpl: the Database behind include/cassette/db.h. It owns the
// directory lock, the manifest (schema + live SSTables + replay positions),
// the commit log and the tables, and orders the write path:
//
//   convert (validate everything) -> commit log append -> memtable apply
//
// under a shared "write barrier"; a memtable switch takes the barrier
// exclusively for an instant, so every record at or before the commit-log
// position it notes is in the switched memtable, and the position is the
// table's replay point once the flush is in the manifest.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>

#include "cassette/db.h"
#include "cassette/logger.h"
#include "engine/commitlog/commit_log.h"
#include "engine/compaction/compaction_controller.h"
#include "engine/compaction/compaction_output_writer.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/db/manifest.h"
#include "engine/db/table.h"
#include "engine/db/timestamp_generator.h"
#include "engine/env/background_thread.h"
#include "engine/env/counting_file_system.h"
#include "engine/env/durable_directory.h"
#include "engine/env/rate_limiter.h"
#include "engine/sstable/block_cache.h"

namespace cassette {

// commit_failure_policy die: prints the failure on stderr and aborts.
[[noreturn]] void DieOnCommitLogFailure(const std::string& path, const Status& failure);

class DatabaseImpl final : public Database {
 public:
  DatabaseImpl(const Options& options, std::string path);
  ~DatabaseImpl() override;

  // Opens or creates the directory, loads the manifest and SSTables,
  // replays the commit log; logs what it found, or why it failed.
  Status Open();
  // Called by Database::Open once Open() succeeded.
  void MarkOpened() { opened_ = true; }

  Status CreateKeyspace(const KeyspaceSchema& keyspace, bool if_not_exists) override;
  Status DropKeyspace(const std::string& name, bool if_exists) override;
  Status CreateTable(const TableSchema& table, bool if_not_exists,
                     std::vector<std::string>* warnings) override;
  Status DropTable(const std::string& keyspace, const std::string& table, bool if_exists) override;
  Status AlterTableOptions(const std::string& keyspace, const std::string& table,
                           const TableOptions& options,
                           std::vector<std::string>* warnings) override;
  Status AddColumns(const std::string& keyspace, const std::string& table,
                    const std::vector<ColumnDefinition>& columns) override;
  Status DropColumns(const std::string& keyspace, const std::string& table,
                     const std::vector<std::string>& columns, int64_t drop_timestamp) override;
  Status RenameColumns(const std::string& keyspace, const std::string& table,
                       const std::vector<std::pair<std::string, std::string>>& renames) override;
  Status AlterKeyspace(const KeyspaceSchema& keyspace) override;
  Status CreateUserType(const DataType& type, bool if_not_exists) override;
  Status AlterUserType(const DataType& type) override;
  Status DropUserType(const std::string& keyspace, const std::string& name,
                      bool if_exists) override;
  Status Truncate(const std::string& keyspace, const std::string& table) override;
  Result<TableSchema> GetTable(const std::string& keyspace,
                               const std::string& table) const override;
  Result<KeyspaceSchema> GetKeyspace(const std::string& name) const override;
  std::vector<std::string> ListKeyspaces() const override;
  Result<std::vector<std::string>> ListTables(const std::string& keyspace) const override;
  uint64_t SchemaVersion() const override {
    return schema_version_.load(std::memory_order_acquire);
  }

  Status Apply(const Mutation& mutation) override;
  Status ApplyBatch(const std::vector<Mutation>& batch) override;
  Status ApplyInserts(const InsertBatch& batch) override;
  Result<ResultSet> Read(const ReadQuery& query) override;
  Result<ResultSet> ReadEach(const ReadQuery& query, const RowVisitor& visit) override;
  Status Flush() override;
  Status FlushTable(const std::string& keyspace, const std::string& table) override;
  Status Compact(const std::string& keyspace, const std::string& table) override;
  Status CompactMajor(const std::string& keyspace, const std::string& table) override;
  Result<std::vector<CompactionWindow>> ExplainExpiry(const std::string& keyspace,
                                                      const std::string& table) override;
  Result<TableStats> GetTableStats(const std::string& keyspace, const std::string& table) override;
  int64_t NowMicros() const override { return options_.clock->WallMicros(); }
  RecoveryReport GetRecoveryReport() const override { return recovery_; }
  DeviceStats GetDeviceStats() const override;
  const Options& options() const override { return options_; }
  Status Close() override;

 private:
  // Read and ReadEach: `visit` null collects the rows.
  Result<ResultSet> RunRead(const ReadQuery& query, const RowVisitor* visit);
  // Apply and ApplyBatch: the mutations validated whole, then one commit-log
  // record, then the memtables (Apply passes its one mutation without a copy).
  Status ApplyMutations(std::span<const Mutation> batch);
  // A table a batch writes, looked up once per batch, with its writes.
  struct BatchTable {
    std::shared_ptr<Table> table;
    std::shared_ptr<const TableSchema> schema;
    std::vector<Table::Write> writes;
    uint64_t bytes = 0;  // of the commit-log record: the user bytes
  };
  // Encodes `write` at the end of `record` and adds it to `table`'s writes;
  // InvalidRequest when it exceeds Options::max_mutation_size.
  Status AppendWrite(const Table::Write& write, BatchTable* table, std::string* record) const;
  // Makes the batch's record durable as the sync mode says, then applies
  // every table's writes to its memtable.
  Status CommitWrites(std::span<BatchTable> tables, const std::string& record);
  static constexpr char kLockFileName[] = "LOCK";
  static constexpr char kSSTableSuffix[] = ".sst";
  std::string TableDir(const TableSchema& schema, uint64_t id) const;
  std::string SSTablePath(const std::string& table_dir, uint64_t generation) const;
  std::string CommitLogDir() const { return path_ + "/commitlog"; }

  // Open's steps (Open logs their outcome).
  Status OpenSteps();
  Status CheckWritable() const;
  // Applies `change` to a copy of the table's schema, validates it and
  // makes it durable, then visible (ALTER TABLE ADD / DROP).
  Status AlterTableSchema(const std::string& keyspace, const std::string& table,
                          const std::function<Status(TableSchema&)>& change);
  Result<std::shared_ptr<Table>> FindTable(const std::string& keyspace,
                                           const std::string& table) const;
  // Recovery (database_recovery.cc), in the order Open runs it.
  // Without a MANIFEST: Corruption when the directory holds SSTables or
  // commit-log segments (a new, empty database must not replace them).
  Status CheckNothingToLose() const;
  Status LoadTables();
  // Deletes what the verified manifest accounts for as garbage (outputs of
  // interrupted flushes and compactions, dropped tables' files) and lists
  // everything else it does not know in recovery_.unknown_files.
  Status RemoveOrphanFiles();
  // Replays the log into the memtables, then seals its last segment.
  // *next_segment_id: the id the new active segment must take (past every
  // segment present and every one the manifest names).
  Status ReplayCommitLog(uint64_t* next_segment_id, bool* replayed,
                         std::vector<CommitLogSegmentFile>* segments);
  // DiscardObsoleteCommitLog's before_delete: records in the manifest that
  // the log now starts at `first_kept`.
  Status RecordCommitLogStart(uint64_t first_kept);
  Status ApplyUpdates(const std::vector<PartitionUpdate>& updates, const std::string& record);

  // Options::disk_failure_policy (database_disk_failure.cc).
  // LoadTables' answer to an SSTable of `state` that did not open: the
  // error that stops Open (kStop), or OK with the SSTable left out of the
  // view: out of service (kBestEffort, moved in `state`) or skipped this
  // time (kIgnore). `failure` is filled for the report either way.
  Status HandleSSTableOpenFailure(TableState& state, const SSTableEntry& entry,
                                  const std::string& path, const Status& error,
                                  SSTableFailure* failure);
  // The status a read or compaction of `table` that failed with `error`
  // returns. When the error names one of the table's live SSTables, it is
  // reported and, under kBestEffort, taken out of service (manifest first,
  // then the view; the file stays).
  Status HandleSSTableFailure(const std::shared_ptr<Table>& table, const Status& error,
                              const char* found_by);
  Status TakeSSTableOutOfService(const std::shared_ptr<Table>& table,
                                 const SSTableFailure& failure);
  // Memtable budget (Options::memtable_flush_threshold) per table, over
  // the active and the flushing memtable together. A flush is queued once
  // they reach half of it: flushes run one at a time (flush_mutex_), so the
  // memtable being flushed and the one filling meanwhile each get half, as
  // Cassandra's memtable_cleanup_threshold (1 / (1 + flush writers)) and
  // RocksDB's two write buffers split theirs. A writer finding the whole
  // budget spent waits for the running flush, or runs the flush itself
  // when none is running (WaitForMemtableSpace).
  uint64_t FlushTriggerBytes() const { return options_.memtable_flush_threshold / 2; }
  void MaybeScheduleFlush(const std::shared_ptr<Table>& table);
  // Before a write of `table` (no lock held): returns once the table's
  // memtables hold less than the budget. WriteFailure when a flush it had
  // to run failed.
  Status WaitForMemtableSpace(const std::shared_ptr<Table>& table);
  // Runs the flush the caller started in the table's TableFlushState, then
  // marks it finished.
  // `background`: run by the scheduler, not for a caller waiting on it.
  Status RunStartedFlush(const std::shared_ptr<Table>& table, bool background = false);
  // Flushes and records the outcome (database_background.cc): a success
  // ends a run of failures; a failure of a background flush, or of any
  // flush while they fail, is logged and retried later.
  Status FlushTableLocked(const std::shared_ptr<Table>& table, bool background = false);
  // Writes the table's flushing (or else active) memtable to SSTables.
  Status FlushMemtable(const std::shared_ptr<Table>& table);
  Status DiscardObsoleteCommitLog();
  SSTableWriterOptions WriterOptionsFor(const TableSchema& schema) const;
  // Allocates a generation and returns it with its file path.
  std::pair<uint64_t, std::string> NewSSTablePath(const Table& table);
  // Opens freshly written, synced SSTables as live ones.
  Result<std::vector<Table::LiveSSTable>> OpenOutputs(const Table& table,
                                                      const std::vector<CompactionOutput>& outputs,
                                                      uint32_t level);

  // Compaction (database_compaction.cc).
  // REQUIRES: table.compaction().mutex held.
  Status EnsureStrategy(Table& table, const TableSchema& schema);
  // `include_failed`: SSTables a compaction failed to read are candidates
  // (otherwise they count as compacting).
  CompactionSnapshot SnapshotForCompaction(const Table& table, const Table::View& view,
                                           const std::set<uint64_t>& compacting,
                                           const TableSchema& schema,
                                           bool include_failed = false) const;
  // Runs the strategy's next task (or the major task); false when there was
  // nothing to do or the task was postponed.
  Result<bool> RunOneCompaction(const std::shared_ptr<Table>& table, bool major);
  Result<bool> ExecuteCompaction(const std::shared_ptr<Table>& table,
                                 std::shared_ptr<const Table::View> view, const TableSchema& schema,
                                 const CompactionTask& task, const std::string& strategy_name,
                                 bool major);
  // For a compaction's purge checks: the minimum timestamp, over the
  // table's memtables at the time of the call and its SSTables not among
  // `known_generations` (sorted: the compaction's snapshot), of those that
  // may hold the key.
  static CompactionController::MemtableMinTimestamp NewerSourcesMinTimestamp(
      std::shared_ptr<Table> table, std::vector<uint64_t> known_generations);
  // Merges `inputs` over `range` into new SSTables (opened, not yet live).
  Result<std::vector<Table::LiveSSTable>> WriteCompactionOutputs(
      const std::shared_ptr<Table>& table,
      const CompactionController::MemtableMinTimestamp& newer_sources, const TableSchema& schema,
      const CompactionTask& task, const TokenInterval& range,
      const std::vector<Table::LiveSSTable>& inputs,
      const std::vector<std::shared_ptr<const SSTableReader>>& others, CompactionRecord* record);
  // Swaps `removed` for `outputs` and moves the start of partially consumed
  // inputs, in the manifest (atomically) and then in the table's view.
  // False when the table was dropped meanwhile (the outputs are discarded).
  // A move_only task: the inputs change level, no file is written.
  Result<bool> MoveSSTables(const std::shared_ptr<Table>& table, const CompactionTask& task,
                            CompactionRecord record, int64_t started_nanos);
  Result<bool> InstallCompactionStep(const std::shared_ptr<Table>& table,
                                     const std::vector<uint64_t>& removed,
                                     const std::vector<Table::LiveSSTable>& outputs,
                                     const std::map<uint64_t, int64_t>& start_bounds);
  Status CompactTableLocked(const std::shared_ptr<Table>& table);
  // While the table's compactions fail, only a due retry (`retry`) starts one.
  void MaybeScheduleCompaction(const std::shared_ptr<Table>& table, bool retry = false);
  void CompactionTimerTick();
  void NoteLateWrite(Table& table, int64_t timestamp);
  Status PersistManifestLocked();

  // The info log and background failures (database_background.cc).
  void Log(LogLevel level, const std::string& message) const {
    if (logger_) logger_->Log(level, message);
  }
  static std::string TableName(const Table& table);
  // What Open found, once it succeeded.
  void LogOpened(int64_t started_nanos) const;
  void LogFlush(const Table& table, size_t partitions, uint64_t memtable_bytes,
                const std::vector<Table::LiveSSTable>& outputs, uint64_t bytes_written,
                int64_t started_nanos) const;
  void LogCompaction(const Table& table, const CompactionRecord& record) const;
  // A background flush or compaction of `table` failed (`counted`: it was
  // background work; a caller's flush failing meanwhile only renews the
  // wait): logs it and sets when the retry is due.
  void NoteBackgroundFailure(const Table& table, BackgroundRetry& retry, const char* what,
                             const Status& error, bool counted);
  // Ends a run of failures, if there was one.
  void NoteBackgroundSuccess(const Table& table, BackgroundRetry& retry, const char* what);
  // Queues the background flush job; false when one is queued or running.
  bool ScheduleFlushJob(const std::shared_ptr<Table>& table);
  // Starts the retries that are due on the clock.
  void ScheduleDueRetries();
  // Under disk_failure_policy stop, a table whose flush fails refuses
  // writes (WriteFailure) until a flush of it succeeds.
  Status RefuseWriteWhileFlushFails(Table& table);

  // The lifetime device counters now: those the manifest held at open plus
  // what this process has written since.
  DeviceCounters CurrentDeviceCounters() const;

  const Options options_;
  const std::string path_;
  // Every file access goes through it, so the device counters see it all.
  const std::shared_ptr<CountingFileSystem> counting_fs_;
  FileSystem* const fs_;
  DeviceCounters device_at_open_;
  std::shared_ptr<Scheduler> scheduler_;
  // Null: compactions run inline (compaction_threads == 0).
  std::shared_ptr<Scheduler> compaction_scheduler_;
  std::unique_ptr<RateLimiter> compaction_limiter_;
  // Real clock only: wakes the strategies' timers (TWCS expiry checks).
  std::unique_ptr<BackgroundThread> compaction_timer_;
  // Options::logger, or the default LOG file; null: nothing is logged.
  std::shared_ptr<Logger> logger_;
  // BackgroundRetry objects currently failing, over every table.
  std::atomic<int> background_failing_{0};
  // Real clock only, started at the first background failure: starts the
  // retries when they are due even if no call comes.
  std::mutex retry_timer_mutex_;
  std::unique_ptr<BackgroundThread> retry_timer_;  // GUARDED_BY(retry_timer_mutex_)
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<BlockCache> block_cache_;
  std::unique_ptr<CommitLog> commit_log_;
  TimestampGenerator timestamps_;

  // Gives schema_version_ a new value, from the process-wide counter.
  // REQUIRES: state_mutex_ held exclusively, after the change is visible.
  void BumpSchemaVersion();

  // Guards state_ and tables_ (schema and manifest). Writers of data take it
  // shared to look tables up; schema changes and manifest updates exclusive.
  mutable std::shared_mutex state_mutex_;
  ManifestState state_;
  std::map<uint64_t, std::shared_ptr<Table>> tables_;
  // SchemaVersion(): set at construction and by BumpSchemaVersion().
  std::atomic<uint64_t> schema_version_;

  // The write barrier: shared for (commit log append + memtable apply),
  // exclusive for a memtable switch.
  std::shared_mutex write_barrier_;
  // Serializes flushes (one at a time keeps replay positions simple).
  std::mutex flush_mutex_;
  std::atomic<bool> closed_{false};
  // ConversionContext::list_sequence: starts at the clock's microseconds
  // when the database opens, so numbers rise across restarts too.
  std::atomic<uint64_t> list_sequence_{0};
  // Open() succeeded: only then does Close() write the manifest.
  bool opened_ = false;
  RecoveryReport recovery_;  // written by Open only
};

}  // namespace cassette
