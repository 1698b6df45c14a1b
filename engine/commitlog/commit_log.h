// CommitLog: the write-ahead log of record batches, split into segment files
// (see FORMAT.md). The database encodes each batch of partition updates into
// one opaque record and appends it before applying it to memtables; after a
// crash, ReplayCommitLog (commit_log_replay.h) hands the records back.
//
// Durability per CommitLogSync mode (rules in commit_log_sync_policy.h):
// - periodic: Append returns once the record is in the OS (WritableFile::
//   Flush). An fsync happens on an Append that finds sync_period_ms elapsed
//   since the last one (injected Clock), on Sync()/Close(), at each segment
//   switch, and, with background_sync, from a thread every period.
// - batch: Append returns only after an fsync covering its record.
//   Concurrent appenders share fsyncs (group commit: the writer at the head
//   of the queue writes and syncs for everyone queued behind it).
// - group: as batch, but while writers keep arriving fsyncs happen at most
//   once per group_window_ms.
//
// Failure: a write that fails (a full disk) fails the Appends it carried,
// and the segment is cut back to the records written before it
// (CommitLogSegmentWriter::Rewind), so the log takes records again once
// there is room. Once an fsync fails, or the cut itself fails, the log
// stops accepting records and every later Append/Sync returns that first
// error: after a failed fsync the kernel may have dropped the dirty pages,
// so retrying could acknowledge data that is not on disk; the database
// must reopen and replay instead.
//
// Thread safety: safe for concurrent access from multiple threads without
// any external synchronization. Records are appended in one total order and
// the returned positions increase in that order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/clock.h"
#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_options.h"
#include "engine/commitlog/commit_log_position.h"
// The recovery half of the API (ReplayCommitLog, ListCommitLogSegments,
// SealCommitLogTail), which every user of CommitLog also needs.
#include "engine/commitlog/commit_log_replay.h"  // IWYU pragma: export

namespace cassette {

class BackgroundThread;
class CommitLogSegmentWriter;
struct CommitLogSegmentLayout;

class CommitLog {
 public:
  // Creates options.dir if needed and a new, durable active segment with id
  // first_segment_id (the database passes 1 + the highest id listed after
  // replay and repair). Existing segments are left alone: the database
  // replays them and hands them over with AdoptSegments.
  // InvalidArgument for bad options, first_segment_id == 0, or when that
  // segment's file exists. `fs` and `clock` must outlive the log.
  static Result<std::unique_ptr<CommitLog>> Open(FileSystem* fs, Clock* clock,
                                                 CommitLogOptions options,
                                                 uint64_t first_segment_id);
  // Close(), ignoring its status.
  ~CommitLog();

  CommitLog(const CommitLog&) = delete;
  CommitLog& operator=(const CommitLog&) = delete;

  // Appends one record and returns the position just past it, once the
  // record is as durable as the sync mode promises. InvalidArgument when
  // record.size() > options.MaxRecordSize() (nothing is written) or after
  // Close(); otherwise an error means the record may or may not be in the
  // log and the log is failed (see above).
  Result<CommitLogPosition> Append(std::string_view record);

  // Makes every record appended so far durable.
  Status Sync();

  // The position just past the last record written (the end of the active
  // segment's header before the first record).
  CommitLogPosition CurrentPosition() const;

  // Deletes every segment other than the active one whose records all end
  // at or before `pos` (every table has flushed past it), then fsyncs the
  // directory. A segment already missing counts as deleted. When it is
  // about to delete something it first calls before_delete (if set) with
  // the lowest id that will remain, and deletes nothing if that fails: the
  // database records that bound durably, so that a missing segment at
  // or after it is known to be a loss (ReplayOptions::first_required_segment).
  Status DiscardSegmentsBefore(CommitLogPosition pos,
                               const std::function<Status(uint64_t)>& before_delete = {});

  // Seals the active segment and starts a new, empty one (as a full segment
  // does: the old one fsynced, the new header and directory entry durable)
  // if the active segment holds at least one record and none ends past
  // `pos`. The database calls it with the CurrentPosition() it saw when
  // every table had flushed everything: the active segment is then dead
  // weight that DiscardSegmentsBefore(pos) can delete only once it is no
  // longer the active one. A record appended since `pos` means a table has
  // unflushed data again, so the segment stays (the next flush retries).
  // Queued with the appenders, so the check and the roll see one point in
  // the log's total order. True when it rolled; an error is handled as a
  // failed Append's (the segment stays active, sealed).
  Result<bool> RollIfOnlyBefore(CommitLogPosition pos);

  // Syncs and closes the active segment and stops the background thread.
  // Idempotent: later calls return the first call's status.
  Status Close();

  // Bytes appended to segment files (headers, records or compressed
  // blocks, markers): the commit log's share of the bytes written to the
  // device.
  uint64_t bytes_written() const { return bytes_written_.load(std::memory_order_relaxed); }
  // fsyncs that made records durable (segment creation syncs excluded).
  uint64_t sync_count() const { return sync_count_.load(std::memory_order_relaxed); }

  // Ids of the segments this log manages, ascending: the active one, the
  // ones it filled, and the ones passed to AdoptSegments, less discarded ones.
  std::vector<uint64_t> SegmentIds() const;
  // Older segments found on disk (already replayed and sealed), so that
  // DiscardSegmentsBefore deletes them once the tables have flushed past them.
  void AdoptSegments(const std::vector<CommitLogSegmentFile>& files);

  // Writers waiting in (or leading) the group-commit queue.
  size_t TEST_QueuedWriters() const;

 private:
  struct Writer;

  CommitLog(FileSystem* fs, Clock* clock, CommitLogOptions options);
  // The segment format and block settings the options ask for.
  CommitLogSegmentLayout Layout() const;

  // Queues w and waits until a leader has handled it, or leads itself.
  Status Submit(Writer* w);
  // REQUIRES: mu_ held through *l; writers_.front() is the caller's writer.
  void Lead(std::unique_lock<std::mutex>* l);
  // REQUIRES: mu_ held; closed_ or !error_.ok(). Answers everyone queued.
  void FailQueued();
  // Leader-only, without mu_: frame and write the records of `batch`, and
  // roll for its RollIfOnlyBefore writers, in queue order.
  Status WriteRecords(const std::vector<Writer*>& batch);
  // Leader-only, without mu_: seal the active segment and start the next.
  Status Roll();
  // Leader-only, without mu_: after a failed write, whether the active
  // segment could be cut back to its last good frame (the log stays usable).
  bool Recovered();
  // Leader-only, without mu_: fsync the active segment if anything is unsynced.
  Status SyncActive();
  void BackgroundSync();
  std::string SegmentPath(uint64_t id, uint32_t version) const;

  FileSystem* const fs_;
  Clock* const clock_;
  const CommitLogOptions options_;

  mutable std::mutex mu_;
  std::deque<Writer*> writers_;      // GUARDED_BY(mu_)
  Status error_;                     // GUARDED_BY(mu_): first write/sync failure
  bool closed_ = false;              // GUARDED_BY(mu_)
  Status close_status_;              // GUARDED_BY(mu_)
  CommitLogPosition last_position_;  // GUARDED_BY(mu_)
  uint64_t active_id_;               // GUARDED_BY(mu_)
  struct SegmentInfo {
    uint32_t version = kCommitLogFormatVersion;  // adopted ones may be older
    // Where its last record ends, once sealed (nullopt: active, or adopted
    // and not yet looked at).
    std::optional<uint64_t> records_end;
  };
  std::map<uint64_t, SegmentInfo> segments_;  // GUARDED_BY(mu_)

  // Owned by the group-commit leader (the thread whose writer is at the
  // front of writers_), so used without mu_; the mutex hand-over between
  // leaders orders the accesses.
  std::unique_ptr<CommitLogSegmentWriter> active_;
  int64_t last_sync_nanos_;

  std::atomic<uint64_t> bytes_written_{0};
  std::atomic<uint64_t> sync_count_{0};
  std::unique_ptr<BackgroundThread> background_;
};

}  // namespace cassette
