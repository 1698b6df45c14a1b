// Options for opening a Database. A plain struct with in-class defaults;
// Validate() reports every problem at once.
#pragma once

#include <cstdint>
#include <memory>

#include "cassette/clock.h"
#include "cassette/file_system.h"
#include "cassette/logger.h"
#include "cassette/scheduler.h"
#include "cassette/status.h"

namespace cassette {

enum class CommitLogSync : uint8_t {
  // Acknowledged at once; fsynced every commitlog_sync_period_ms. A power loss
  // can lose up to one period of acknowledged writes.
  kPeriodic,
  // Acknowledged after the fsync that covers it; fsyncs at most once per
  // commitlog_sync_group_window_ms, shared by every write in the window.
  kGroup,
  // Acknowledged after the fsync that covers it; concurrent writers share fsyncs.
  kBatch,
};

// What the database does about an SSTable that fails its checks: a
// checksum, a bound or a read of the file (Cassandra's
// disk_failure_policy, as an embedded store can apply it; docs/RELIABILITY.md).
enum class DiskFailurePolicy : uint8_t {
  // An SSTable that fails its checks at open refuses Open, with a
  // Corruption naming the file and offset (as Cassandra refuses to start).
  // A read or compaction meeting a damaged block fails with that error;
  // background compaction leaves the file alone until the next open, and
  // nothing is deleted (Cassandra's default, stop).
  kStop,
  // The damaged SSTable is taken out of service, at open or when a read or
  // compaction meets the damage: never read, compacted or deleted again,
  // recorded in the manifest (so it stays out after a reopen) and listed
  // in TableStats::sstable_failures. The read that met it fails; later
  // reads answer from the other SSTables, so data it held, and deletions
  // it held of older data, are missing from them (Cassandra: "you WILL see
  // obsolete data").
  kBestEffort,
  // Open skips the SSTables that fail to load (this time only: the next
  // open tries them again) and reports them; reads and compactions that
  // meet damage fail with the error (Cassandra's "let requests fail").
  kIgnore,
};

// What Open does about damage in the commit log other than a torn final
// write (Cassandra's commit_failure_policy, as applied at replay).
enum class CommitFailurePolicy : uint8_t {
  // Refuse to open, with a Corruption naming the segment, the offset and
  // how many records follow the damage (Cassandra's default, stop). The
  // operator decides: restore the file, or reopen with kIgnore.
  kStop,
  // Replay past the damage (from the next sync marker) and past missing
  // segments, and open; Database::GetRecoveryReport() lists what was
  // skipped and the records known lost.
  kIgnore,
  // Terminate the process (std::abort, after printing the reason on
  // stderr) where kStop would refuse the open, and also when the log
  // fails while running (a failed fsync, or a failed write that could
  // not be cut back), instead of failing every later write: for a
  // process run under a supervisor that restarts it, as Cassandra's die
  // kills the JVM so the node can be replaced or restarted.
  kDie,
};

// How the commit log stores records (Cassandra's commitlog_compression).
// The commit log is most of what an ingest writes to the device, so on
// flash it is most of the wear.
enum class CommitLogCompression : uint8_t {
  // Each record framed on its own (segment format 2).
  kNone,
  // Records written close together (a group commit; in periodic mode, up
  // to commitlog_compression_block_size bytes of them or what arrives
  // before the next sync) are compressed as one zstd block (segment format
  // 3). For time series this shrinks the log to a fraction, since keys,
  // timestamps and values repeat from record to record. The cost in
  // periodic mode: records wait in memory for their block, so a crash of
  // the process can lose what a power loss can (at most one period, never
  // a torn batch); batch and group modes are unchanged.
  kZstd,
};

struct Options {
  std::shared_ptr<FileSystem> file_system = NewPosixFileSystem();
  std::shared_ptr<Clock> clock = SystemClock();
  // Null: an internal pool of background_threads threads.
  std::shared_ptr<Scheduler> scheduler;
  int background_threads = 2;

  bool create_if_missing = true;
  // Open without the write lock and refuse every write (a second view for tools).
  bool read_only = false;

  bool commitlog_enabled = true;
  CommitLogSync commitlog_sync = CommitLogSync::kPeriodic;
  int64_t commitlog_sync_period_ms = 10000;
  int64_t commitlog_sync_group_window_ms = 1000;
  CommitFailurePolicy commit_failure_policy = CommitFailurePolicy::kStop;
  DiskFailurePolicy disk_failure_policy = DiskFailurePolicy::kStop;
  uint64_t commitlog_segment_size = 32ull << 20;
  CommitLogCompression commitlog_compression = CommitLogCompression::kNone;
  // zstd level (1..19) and the record bytes a block collects in periodic mode.
  int commitlog_compression_level = 1;
  uint64_t commitlog_compression_block_size = 64ull << 10;
  // Largest mutation accepted (Cassandra: half a segment).
  uint64_t max_mutation_size = 16ull << 20;

  // Memory budget of each table's memtables: the active memtable and the
  // one being flushed together (as Cassandra's memtable space covers both).
  // A flush starts once they hold half of it, so the memtable being
  // written to an SSTable and the one filling meanwhile share the budget;
  // when the whole budget is in use, writes to the table wait for the
  // running flush (or run it themselves when it has not started, as under
  // a ManualScheduler, where a full memtable is flushed inline). May be
  // passed by the writes in flight when the budget fills (each is
  // admitted while under it). Flushed SSTables are therefore about half
  // this size. TableStats::memtable_write_stalls counts the waits.
  uint64_t memtable_flush_threshold = 64ull << 20;
  // Decompressed SSTable chunks kept in memory, shared by every table.
  uint64_t block_cache_size = 32ull << 20;

  // Compaction. Threads that run compactions: 0 runs them inline on the
  // thread that triggered them (a flush, Compact()), deterministically.
  // An injected `scheduler` runs them instead when set.
  int compaction_threads = 1;
  // How far below the process's CPU priority the compaction threads run
  // (Linux niceness, 0..19; 0 = the same). A compaction can wait; a write
  // or a read waiting for a CPU is latency a caller sees. On a small
  // machine under a steady ingest, the writers then get a busy core first
  // and compaction takes what they leave, as ScyllaDB's scheduler gives
  // compaction fewer shares than statements. Flushes keep full priority:
  // a flush that falls behind stalls the writers (memtable_flush_threshold).
  int compaction_thread_nice = 10;
  // Background compactions start by themselves after flushes and on the
  // strategy's timer. Off: only Compact()/CompactMajor() run them (the
  // shell's behaviour under a manual clock).
  bool auto_compaction = true;
  // Cassandra's compaction_throughput (MiB/s of compaction output); 0 =
  // unthrottled. Never waits under a manual clock.
  uint64_t compaction_throughput_mib_per_sec = 64;
  // TWCS: a write is counted as late when its timestamp falls before the
  // start of the table's newest window by more than this.
  int64_t late_write_tolerance_seconds = 0;

  int64_t tombstone_warn_threshold = 1000;
  int64_t tombstone_failure_threshold = 100000;

  // CQL limits, with cassandra.yaml's names and defaults. The largest
  // statement text CqlSession takes (a request frame's size bound); the
  // largest value a literal or bound value may have; a BATCH over several
  // partitions warns past the first threshold and is refused past the
  // second (sizes of the data written, as Cassandra's IMutation.dataSize).
  uint64_t native_transport_max_frame_size = 16ull << 20;
  uint64_t max_value_size = 256ull << 20;
  uint64_t batch_size_warn_threshold = 5ull << 10;
  uint64_t batch_size_fail_threshold = 50ull << 10;

  // The info log (cassette/logger.h): open and close, flushes,
  // compactions, write stalls, warnings and every background error. Null:
  // the default logger, which writes LOG in the data directory (a
  // read_only view writes nothing). A logger given here replaces it, and
  // the log_file_* knobs then do nothing.
  std::shared_ptr<Logger> logger;
  // The default logger: false writes no LOG file (messages go nowhere).
  bool log_file_enabled = true;
  // Messages below this level are left out of LOG.
  LogLevel log_file_level = LogLevel::kInfo;
  // LOG becomes LOG.1 (LOG.1 becomes LOG.2, ...) at every open and once a
  // line would take it past log_file_max_size; of the old files, the
  // newest log_file_keep are kept and the oldest is deleted.
  uint64_t log_file_max_size = 1ull << 20;
  int log_file_keep = 4;

  // A background flush or compaction that failed is tried again after
  // background_retry_initial_ms, then after twice as long after each
  // further failure, at most background_retry_max_ms apart
  // (docs/RELIABILITY.md, "Background failures").
  int64_t background_retry_initial_ms = 1000;
  int64_t background_retry_max_ms = 60000;

  Status Validate() const;
};

}  // namespace cassette
