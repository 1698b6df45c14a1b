// CommitLogSegmentWriter: appends framed records to one segment file.
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

namespace cassette {

class CommitLogSegmentWriter {
 public:
  // Creates `dir`/CommitLog-1-<id>.log; fails with InvalidArgument when a
  // file of that name exists (segments are never overwritten).
  static Result<std::unique_ptr<CommitLogSegmentWriter>> Create(FileSystem* fs,
                                                                const std::string& dir,
                                                                uint64_t segment_id);

  // Appends already framed bytes (not yet pushed to the OS).
  Status Append(std::string_view framed);
  // Pushes appended bytes to the OS.
  Status Flush();
  // Once `interval` or more bytes were flushed since the last hint, asks
  // the OS to start writing them out (WritableFile::StartWriteback), so
  // the fsync that seals the segment, or the periodic one, waits for
  // little: a hint, the bytes are durable only after Sync.
  Status StartWritebackEvery(uint64_t interval);
  // Flushes, then fsyncs when anything is unsynced. *synced tells whether an
  // fsync happened.
  Status Sync(bool* synced);
  // Closes the file (without syncing).
  Status Close();

  uint64_t id() const { return id_; }
  const std::string& path() const { return path_; }
  // Bytes in the file so far, header included: the offset of the next record.
  uint64_t size() const { return size_; }
  bool unsynced() const { return synced_size_ < size_; }

 private:
  CommitLogSegmentWriter(uint64_t id, std::string path, std::unique_ptr<WritableFile> file);

  const uint64_t id_;
  const std::string path_;
  std::unique_ptr<WritableFile> file_;
  uint64_t size_ = 0;
  uint64_t synced_size_ = 0;
  uint64_t writeback_size_ = 0;
  bool closed_ = false;
};

}  // namespace cassette
