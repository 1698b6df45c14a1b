// CommitLogSegmentWriter: appends records to one segment file, with a sync
// marker before each fsync and a seal marker at the end (FORMAT.md).
// Version 2 frames each record; version 3 collects records into compressed
// blocks (commit_log_block.h).
//
// Records go in two steps: Add() takes a record and tells its position;
// Write() puts what was added into the file and pushes it to the OS. In
// version 3 Write() leaves records in the open block until it holds
// block_size bytes, unless told to finish it; Sync() and Seal() always
// finish it first. Acknowledge() marks the records added so far as
// acknowledged: Rewind() after a failure keeps them (in the file, or in
// the open block to be written by the next Write()) and drops only the
// ones added after.
//
// Create() makes the segment durable before returning (header fsynced, the
// directory entry fsynced), so a record that a later fsync covers can never
// be lost with its file. Thread-compatible: the commit log's group-commit
// leader is the only caller at any time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/commitlog/commit_log_block.h"
#include "engine/commitlog/commit_log_format.h"

namespace cassette {

struct CommitLogSegmentLayout {
  // kCommitLogFormatVersion, or kCompressedCommitLogFormatVersion.
  uint32_t version = kCommitLogFormatVersion;
  // Version 3: the zstd level, and the record bytes after which an open
  // block is written out by Write().
  int compression_level = 1;
  uint64_t block_size = 64 << 10;
};

class CommitLogSegmentWriter {
 public:
  // Creates `dir`/CommitLog-<version>-<id>.log; fails with InvalidArgument
  // when a file of that name exists (segments are never overwritten).
  // Every byte appended to the file is added to *bytes_written (if set),
  // which must outlive the writer.
  static Result<std::unique_ptr<CommitLogSegmentWriter>> Create(
      FileSystem* fs, const std::string& dir, uint64_t segment_id,
      const CommitLogSegmentLayout& layout, std::atomic<uint64_t>* bytes_written = nullptr);

  // Takes a record for the next Write() and returns its position offset
  // (FORMAT.md, "Positions").
  uint64_t Add(std::string_view payload);
  // Appends what Add() took to the file and pushes it to the OS. Version 3
  // writes the open block only once it is full, or when `finish_block`.
  Status Write(bool finish_block);
  // The records added so far were acknowledged: Rewind() keeps them.
  void Acknowledge();
  // Whether a record of `payload_size` bytes, added now, still leaves room
  // in a segment of `segment_size` bytes for the sync marker and the seal.
  bool Fits(uint64_t payload_size, uint64_t segment_size) const;

  // Once `interval` or more bytes were flushed since the last hint, asks
  // the OS to start writing them out (WritableFile::StartWriteback), so
  // the fsync that seals the segment, or the periodic one, waits for
  // little: a hint, the bytes are durable only after Sync.
  Status StartWritebackEvery(uint64_t interval);
  // Finishes the open block, then, when anything is unsynced, appends a
  // sync marker and fsyncs. *synced tells whether an fsync happened.
  Status Sync(bool* synced);
  // Finishes the open block, appends the seal marker and fsyncs: the
  // segment's last frame, written before the log moves on to the next
  // segment. More frames may still be appended after it (when the next
  // segment could not be created); the segment is then sealed again
  // before the log moves on.
  Status Seal();
  // Closes the file (without syncing).
  Status Close();

  // After a failed Write, Sync or Seal whose fsync was not what failed
  // (sync_failed()): cuts the file back to the end of the last write that
  // reached the OS, so the segment is a run of intact frames again and can
  // take more, and forgets the records added since Acknowledge(). A full
  // disk must not fail the log for good: the records that failed were not
  // acknowledged; the ones before are kept. An error means the file's end
  // is unknown.
  Status Rewind();
  // An fsync failed: the kernel may have dropped the dirty pages, so what
  // the file holds is unknown and nothing may be acknowledged after it.
  bool sync_failed() const { return sync_failed_; }

  uint64_t id() const { return id_; }
  uint32_t version() const { return layout_.version; }
  const std::string& path() const { return path_; }
  // Bytes in the file so far, header included: the offset of the next frame.
  uint64_t size() const { return size_; }
  // The position offset just past the last record added: no record of
  // this segment ends after it.
  uint64_t records_end() const { return added_.records_end; }
  bool has_records() const { return added_.records > 0; }
  bool unsynced() const { return synced_size_ < size_ || !pending_.empty() || !block_.empty(); }

 private:
  // The records taken so far: how many, and where the last one ends.
  struct Records {
    uint64_t records = 0;
    uint64_t records_end = 0;
  };

  CommitLogSegmentWriter(uint64_t id, std::string path, std::unique_ptr<WritableFile> file,
                         const CommitLogSegmentLayout& layout,
                         std::atomic<uint64_t>* bytes_written);
  bool compressed() const { return layout_.version >= kCompressedCommitLogFormatVersion; }
  // Appends bytes to the file and pushes them to the OS.
  Status AppendAndFlush(std::string_view bytes);
  Status AppendMarker(CommitLogMarkerKind kind);
  // Flushes and fsyncs what is appended; sets sync_failed_ when the fsync
  // itself fails.
  Status FlushAndSync();

  const uint64_t id_;
  const std::string path_;
  std::unique_ptr<WritableFile> file_;
  const CommitLogSegmentLayout layout_;
  std::atomic<uint64_t>* const bytes_written_;
  // Version 2: frames added and not yet written. Version 3: the open block.
  std::string pending_;
  CommitLogBlockBuilder block_;
  std::string frame_;
  Records added_;         // every record taken
  Records acknowledged_;  // as of the last Acknowledge()
  uint64_t acknowledged_block_records_ = 0;
  uint64_t acknowledged_block_bytes_ = 0;
  uint64_t size_ = 0;  // bytes in the file (all reached the OS)
  uint64_t synced_size_ = 0;
  uint64_t writeback_size_ = 0;
  bool sync_failed_ = false;
  bool closed_ = false;
};

}  // namespace cassette
