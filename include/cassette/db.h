// Database: an embedded cassette store in one data directory.
//
//   Options options;                       // POSIX files, system clock
//   auto db = Database::Open(options, "./data");
//   if (!db.ok()) ...                      // db.status().ToString()
//   (*db)->CreateKeyspace({.name = "iot"});
//   (*db)->CreateTable(TableSchema("iot", "readings")...);
//   Mutation m("iot", "readings", {Value::Text("s1")});
//   m.Insert({Value::Timestamp(t)}).Set("v", Value::Double(1.5));
//   Status s = (*db)->Apply(m);
//
// Ownership: Open returns the only owner. Injected services (file system,
// clock, scheduler) are shared with the caller. string_view arguments are
// only used during the call.
//
// A Database is safe for concurrent access from multiple threads without any
// external synchronization. Each Mutation is applied atomically: a reader
// sees all of it or none of it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cassette/insert_batch.h"
#include "cassette/mutation.h"
#include "cassette/options.h"
#include "cassette/query.h"
#include "cassette/schema.h"
#include "cassette/status.h"

namespace cassette {

// One finished compaction (nodetool compactionhistory), or a running one
// (compactionstats) with the totals so far.
struct CompactionRecord {
  std::string strategy;  // e.g. "TimeWindowCompactionStrategy"
  std::string reason;    // why the strategy chose it
  bool major = false;    // nodetool compact
  bool tombstone_compaction = false;
  std::vector<uint64_t> inputs;   // generations rewritten
  std::vector<uint64_t> expired;  // generations dropped whole, never rewritten
  std::vector<uint64_t> outputs;
  uint64_t bytes_read = 0;  // on-disk size of the rewritten inputs
  uint64_t bytes_written = 0;
  uint64_t bytes_dropped = 0;  // on-disk size of the expired files dropped
  uint64_t partitions_in = 0;  // partitions read, counted once per input holding them
  uint64_t partitions_out = 0;
  uint64_t rows_in = 0;
  uint64_t rows_out = 0;
  uint64_t tombstones_purged = 0;  // deletions and expired cells dropped for good
  // Data past its TTL (or deletion) + gc_grace that this compaction took
  // off disk, dropped whole or purged from what it rewrote: bytes (of the
  // files, estimated from their drop-time histograms) by how many seconds
  // they had been purgeable. How long expired data waits on disk.
  std::map<int64_t, uint64_t> purged_bytes_by_lag;
  int64_t started_micros = 0;   // database clock
  int64_t duration_micros = 0;  // monotonic, real time spent
};

// A time window of a TWCS table and what keeps its data on disk (the
// answer to "when will this be gone, and if not, why").
struct CompactionWindow {
  int64_t start_micros = 0;
  std::vector<uint64_t> sstables;
  int64_t live_bytes = 0;       // files that cannot be dropped yet
  int64_t droppable_bytes = 0;  // fully expired files the next check drops
  // When every file of the window is past TTL + gc_grace; absent when a
  // file holds data without a TTL (it never expires by itself).
  std::optional<int64_t> droppable_at_micros;
  // Files outside the window holding older data that overlaps: they keep
  // the window's expired files alive (Cassandra's overlap check).
  std::vector<uint64_t> blocked_by;
  bool blocked_by_memtable = false;
};

// An SSTable that failed its checks (Options::disk_failure_policy).
struct SSTableFailure {
  std::string path;
  uint64_t generation = 0;
  // The Corruption or IOError met, naming the file and the offset.
  std::string error;
  std::string found_by;  // "open", "read" or "compaction"
  // kBestEffort: out of service for good (recorded in the manifest), never
  // read, compacted or deleted. Otherwise the file is still the table's:
  // not loaded this time (found by "open", kIgnore) or still read (reads
  // that meet the damage fail), and left out of background compactions
  // until the next open.
  bool out_of_service = false;
};

struct TableStats {
  std::string keyspace;
  std::string table;
  int64_t sstable_count = 0;
  // The active memtable and the one being flushed, together: what
  // Options::memtable_flush_threshold bounds.
  int64_t memtable_bytes = 0;
  // Write calls (since open) that found memtable_bytes at the budget and
  // waited for a flush, or ran it (RocksDB's write stall, Cassandra's
  // writes blocked on memtable allocation).
  int64_t memtable_write_stalls = 0;
  // The same over the table's life, kept in its HISTORY file across
  // restarts (written after flushes and at close, so a crash may lose the
  // stalls since the last flush): the count, the time writers spent
  // stalled (monotonic clock, microseconds) and when the last stall began
  // (database clock; 0 when none ever did).
  int64_t memtable_write_stalls_total = 0;
  int64_t memtable_write_stall_micros_total = 0;
  int64_t last_memtable_write_stall_micros = 0;
  int64_t live_bytes = 0;     // uncompressed data bytes in live SSTables
  int64_t bytes_on_disk = 0;  // size of live SSTable files
  int64_t bytes_written_by_users = 0;
  int64_t bytes_flushed = 0;
  int64_t bytes_compacted = 0;
  double write_amplification = 0;  // (flushed + compacted) / written by users
  int64_t partition_count = 0;     // summed over SSTables (upper bound)
  int64_t partition_size_p50 = 0;
  int64_t partition_size_p99 = 0;
  int64_t partition_size_max = 0;
  int64_t tombstone_cells = 0;
  // Data in the live SSTables past its TTL (or deletion) + gc_grace, which
  // a compaction may purge: bytes (of the files, estimated from their
  // drop-time histograms) by how many seconds it has been purgeable.
  std::map<int64_t, uint64_t> purgeable_bytes_by_lag;
  // TWCS tables: window start (ISO-8601) -> SSTable count.
  std::map<std::string, int64_t> sstables_per_window;
  // Leveled tables: SSTables per level (index = level).
  std::vector<int64_t> sstables_per_level;

  std::string compaction_strategy;
  int64_t compactions_completed = 0;
  int64_t compactions_running = 0;
  // Compactions not started because their worst-case output did not fit
  // in the free space of the disk (they are retried later).
  int64_t compactions_postponed_for_space = 0;
  int64_t expired_sstables_dropped = 0;
  int64_t tombstones_purged = 0;
  // Writes landing in a window older than the newest one by more than
  // Options::late_write_tolerance_seconds (TWCS tables only).
  int64_t late_writes = 0;
  // The most recent finished compactions, oldest first (at most 100, of
  // the last 7 days), earlier processes' included: the table's HISTORY
  // file keeps them (nodetool compactionhistory, system.compaction_history).
  std::vector<CompactionRecord> recent_compactions;
  // What went wrong with the HISTORY file: damage met reading it (the file
  // and the offset; records from there on were not loaded) or a write
  // that failed (the compaction itself stood). Never fatal.
  std::vector<std::string> history_warnings;
  // SSTables out of service, and those that failed since the open.
  std::vector<SSTableFailure> sstable_failures;
  // Background flushes and compactions of the table that failed since the
  // open (each is logged and retried; docs/RELIABILITY.md, "Background
  // failures").
  int64_t background_errors = 0;
};

// What Open found in the data directory and did about it (Cassandra logs
// these at startup; an embedded store hands them to its application).
struct RecoveryReport {
  uint64_t commitlog_segments_read = 0;
  // Records applied to memtables because their data was not yet in SSTables.
  uint64_t commitlog_records_replayed = 0;
  // The last segment ended in a write cut short by a crash (never an
  // acknowledged one in batch and group modes): the bytes dropped.
  uint64_t commitlog_torn_bytes_dropped = 0;
  // CommitFailurePolicy::kIgnore: each damaged stretch or missing segment
  // replayed past, and the records the log's markers say were lost with it.
  std::vector<std::string> commitlog_damage_skipped;
  uint64_t commitlog_records_lost = 0;
  // Leftovers of flushes and compactions cut short, and files of dropped
  // tables, that Open deleted (each named by the manifest's bookkeeping).
  std::vector<std::string> removed_files;
  // Entries of the data directory that are not cassette's, or that this
  // manifest cannot account for: reported and left alone, never deleted.
  std::vector<std::string> unknown_files;
  // SSTables that did not load (kBestEffort, kIgnore), and those that an
  // earlier run took out of service.
  std::vector<SSTableFailure> sstable_failures;
};

// What the database has written to its storage device since it was created
// (kept across restarts in the manifest; a crash loses the counts since the
// last flush, compaction or schema change). Flash wears by the bytes
// written, so this is the figure to hold against a device's rated
// endurance (TBW).
struct DeviceStats {
  // Every byte appended to the database's files: commit log, SSTables
  // (flushes and compactions), manifests.
  uint64_t bytes_written = 0;
  // The commit log's share (segment headers, records or compressed
  // blocks, markers).
  uint64_t commitlog_bytes_written = 0;
  // fsyncs of files and directories.
  uint64_t syncs = 0;
};

class Database {
 public:
  // Opens (creating when allowed) the store in `path`, replaying the commit
  // log. Busy when another process holds the directory.
  static Result<std::unique_ptr<Database>> Open(const Options& options, const std::string& path);

  virtual ~Database() = default;

  // Schema. Errors: AlreadyExists / InvalidRequest / ConfigurationException
  // with Cassandra's messages. Each change is durable and atomic.
  virtual Status CreateKeyspace(const KeyspaceSchema& keyspace, bool if_not_exists = false) = 0;
  virtual Status DropKeyspace(const std::string& name, bool if_exists = false) = 0;
  // `warnings` (may be null) receives Cassandra-style client warnings, e.g.
  // a TWCS table whose TTL spans too many windows.
  virtual Status CreateTable(const TableSchema& table, bool if_not_exists = false,
                             std::vector<std::string>* warnings = nullptr) = 0;
  virtual Status DropTable(const std::string& keyspace, const std::string& table,
                           bool if_exists = false) = 0;
  // Replaces a table's options (ALTER TABLE ... WITH); existing data is not rewritten.
  // A new compaction strategy applies to the compactions that start after.
  virtual Status AlterTableOptions(const std::string& keyspace, const std::string& table,
                                   const TableOptions& options,
                                   std::vector<std::string>* warnings = nullptr) = 0;
  // ALTER TABLE ... ADD / DROP: the columns are added (ids assigned) or
  // dropped (their cells with a timestamp <= drop_timestamp are ignored)
  // all or none, with Cassandra's messages.
  virtual Status AddColumns(const std::string& keyspace, const std::string& table,
                            const std::vector<ColumnDefinition>& columns) = 0;
  virtual Status DropColumns(const std::string& keyspace, const std::string& table,
                             const std::vector<std::string>& columns, int64_t drop_timestamp) = 0;
  // ALTER TABLE ... RENAME a TO b: renames primary-key columns (cells
  // refer to column ids, so no data is rewritten). InvalidRequest with
  // Cassandra's messages for a missing, non-key or clashing column.
  virtual Status RenameColumns(const std::string& keyspace, const std::string& table,
                               const std::vector<std::pair<std::string, std::string>>& renames) = 0;
  // ALTER KEYSPACE: replaces the replication map and durable_writes (the
  // keyspace's user types stay as they are).
  virtual Status AlterKeyspace(const KeyspaceSchema& keyspace) = 0;
  // CREATE TYPE: `type` (a DataType::UserType) joins its keyspace's user
  // types. InvalidRequest with Cassandra's messages for a missing keyspace,
  // an existing type (unless if_not_exists), duplicate field names, or a
  // field type naming a user type the keyspace lacks.
  virtual Status CreateUserType(const DataType& type, bool if_not_exists = false) = 0;
  // ALTER TYPE: replaces the user type of that keyspace and name with
  // `type`, which keeps its fields' types and order (fields may be renamed
  // or added at the end), in every column and user type that uses it.
  virtual Status AlterUserType(const DataType& type) = 0;
  // DROP TYPE: refused while a table or another user type uses it.
  virtual Status DropUserType(const std::string& keyspace, const std::string& name,
                              bool if_exists = false) = 0;
  // TRUNCATE: removes every row of the table (memtables and SSTables),
  // durably. The manifest rewrite is the commit point: once it returns,
  // no crash or commit-log replay brings the removed data back.
  virtual Status Truncate(const std::string& keyspace, const std::string& table) = 0;
  virtual Result<TableSchema> GetTable(const std::string& keyspace,
                                       const std::string& table) const = 0;
  virtual Result<KeyspaceSchema> GetKeyspace(const std::string& name) const = 0;
  virtual std::vector<std::string> ListKeyspaces() const = 0;
  virtual Result<std::vector<std::string>> ListTables(const std::string& keyspace) const = 0;
  // A number that changes whenever the schema does: every successful
  // CREATE / ALTER / DROP of a keyspace or table (ALTER TABLE ADD / DROP /
  // RENAME / WITH included) gives it a new value, strictly greater than the
  // one before, before the call returns. Data changes (writes, TRUNCATE,
  // flushes, compactions) leave it alone. Values come from one counter for
  // the whole process, so two Database objects never show the same value:
  // a caller that cached something derived from GetTable / GetKeyspace
  // while SchemaVersion() was V (read before the lookup) may keep using it
  // for as long as SchemaVersion() still returns V. One atomic load.
  virtual uint64_t SchemaVersion() const = 0;

  // Writes. A mutation is validated whole before anything is applied.
  virtual Status Apply(const Mutation& mutation) = 0;
  // Applies every mutation of the batch or none (one commit-log record).
  virtual Status ApplyBatch(const std::vector<Mutation>& batch) = 0;
  // Rows INSERTed with the same columns (insert_batch.h): exactly what
  // ApplyBatch of one Mutation per row does, without building them.
  virtual Status ApplyInserts(const InsertBatch& batch) = 0;

  virtual Result<ResultSet> Read(const ReadQuery& query) = 0;
  // The same read with its rows streamed to `visit` instead of collected:
  // no result row is built, so a large slice costs no allocation per row.
  // Returns what Read returns, with `rows` empty.
  virtual Result<ResultSet> ReadEach(const ReadQuery& query, const RowVisitor& visit) = 0;

  // Writes every non-empty memtable (or one table's) to SSTables.
  virtual Status Flush() = 0;
  virtual Status FlushTable(const std::string& keyspace, const std::string& table) = 0;

  // Runs the table's strategy until it proposes nothing more (what the
  // compaction threads would do if time stood still): the shell's COMPACT.
  // Background compactions running meanwhile are waited for, so nothing
  // is still compacting the table when it returns.
  virtual Status Compact(const std::string& keyspace, const std::string& table) = 0;
  // nodetool compact: every SSTable of the table into one compaction
  // (fully expired files are dropped without being rewritten), after the
  // background compactions running at the time finish.
  virtual Status CompactMajor(const std::string& keyspace, const std::string& table) = 0;
  // TWCS tables: every window with its SSTables, what may be dropped, when,
  // and what blocks it. InvalidRequest for other strategies.
  virtual Result<std::vector<CompactionWindow>> ExplainExpiry(const std::string& keyspace,
                                                              const std::string& table) = 0;

  virtual Result<TableStats> GetTableStats(const std::string& keyspace,
                                           const std::string& table) = 0;

  // The database's current time (from its clock), microseconds.
  virtual int64_t NowMicros() const = 0;
  // The options the database was opened with (the CQL layer reads its
  // limits there: statement and value sizes, batch thresholds).
  virtual const Options& options() const = 0;

  // What Open found and did (replay, torn tail, damage skipped, files
  // removed or left alone).
  virtual RecoveryReport GetRecoveryReport() const = 0;

  // Bytes written to the device over the database's life.
  virtual DeviceStats GetDeviceStats() const = 0;

  // Syncs the commit log and releases the directory. Further calls fail.
  virtual Status Close() = 0;
};

}  // namespace cassette
