// CommitLogSegmentWriter: appends framed records to one segment file, with
// a sync marker before each fsync and a seal marker at the end (FORMAT.md).
//
// Create() makes the segment durable before returning (header fsynced, the
// directory entry fsynced), so a record that a later fsync covers can never
// be lost with its file. Thread-compatible: the commit log's group-commit
// leader is the only caller at any time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/commitlog/commit_log_format.h"

namespace cassette {

class CommitLogSegmentWriter {
 public:
  // Creates `dir`/CommitLog-1-<id>.log; fails with InvalidArgument when a
  // file of that name exists (segments are never overwritten).
  static Result<std::unique_ptr<CommitLogSegmentWriter>> Create(FileSystem* fs,
                                                                const std::string& dir,
                                                                uint64_t segment_id);

  // Appends already framed records, `records` of them (not yet pushed to
  // the OS).
  Status Append(std::string_view framed, uint64_t records);
  // Pushes appended bytes to the OS.
  Status Flush();
  // Once `interval` or more bytes were flushed since the last hint, asks
  // the OS to start writing them out (WritableFile::StartWriteback), so
  // the fsync that seals the segment, or the periodic one, waits for
  // little: a hint, the bytes are durable only after Sync.
  Status StartWritebackEvery(uint64_t interval);
  // Flushes, then, when anything is unsynced, appends a sync marker and
  // fsyncs. *synced tells whether an fsync happened.
  Status Sync(bool* synced);
  // Appends the seal marker and fsyncs: the segment's last frame, written
  // before the log moves on to the next segment. More frames may still be
  // appended after it (when the next segment could not be created); the
  // segment is then sealed again before the log moves on.
  Status Seal();
  // Closes the file (without syncing).
  Status Close();

  // After a failed Append, Flush, Sync or Seal whose fsync was not what
  // failed (sync_failed()): cuts the file back to the end of the last
  // Flush that succeeded, so the segment is a run of intact frames again
  // and can take more. A full disk must not fail the log for good: the
  // writes that failed were not acknowledged, the ones before are kept.
  // An error means the file's end is unknown.
  Status Rewind();
  // An fsync failed: the kernel may have dropped the dirty pages, so what
  // the file holds is unknown and nothing may be acknowledged after it.
  bool sync_failed() const { return sync_failed_; }

  uint64_t id() const { return id_; }
  const std::string& path() const { return path_; }
  // Bytes in the file so far, header included: the offset of the next frame.
  uint64_t size() const { return pending_.size; }
  // The offset just past the last record (markers excluded): no record of
  // this segment ends after it.
  uint64_t records_end() const { return pending_.records_end; }
  bool has_records() const { return pending_.records > 0; }
  bool unsynced() const { return synced_size_ < pending_.size; }

 private:
  // Where the file ends and what it holds up to there.
  struct Extent {
    uint64_t size = 0;
    uint64_t records = 0;
    uint64_t records_end = 0;
  };

  CommitLogSegmentWriter(uint64_t id, std::string path, std::unique_ptr<WritableFile> file);
  Status AppendMarker(CommitLogMarkerKind kind);
  // Flushes and fsyncs what is appended; sets sync_failed_ when the fsync
  // itself fails.
  Status FlushAndSync();

  const uint64_t id_;
  const std::string path_;
  std::unique_ptr<WritableFile> file_;
  Extent pending_;  // everything appended
  Extent flushed_;  // as of the last Flush that succeeded
  uint64_t synced_size_ = 0;
  uint64_t writeback_size_ = 0;
  bool sync_failed_ = false;
  bool closed_ = false;
};

}  // namespace cassette
