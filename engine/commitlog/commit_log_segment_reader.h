// CommitLogSegmentReader: reads the frames of one segment file in order
// (the records of a version-3 block one by one),
// stopping at the first frame that is truncated, fails a checksum or is a
// marker out of place. It only reports what it found; whether damage is a
// torn write or corruption depends on the segment's place in the log and
// on the markers after it, and is decided by ReplayCommitLog.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/commitlog/commit_log_format.h"

namespace cassette {

class CommitLogSegmentReader {
 public:
  static Result<std::unique_ptr<CommitLogSegmentReader>> Open(FileSystem* fs, std::string path);

  // Reads the header. OK with header_damaged() set when it is truncated,
  // foreign or fails its checksum; NotSupported for a format version this
  // build does not read; Corruption when it is intact but names a segment
  // other than `expected_id`; IOError when the file cannot be read.
  Status ReadHeader(uint64_t expected_id);
  bool header_damaged() const { return !damage_.empty() && offset_ == 0; }
  // The header's format version (after ReadHeader without damage).
  uint32_t version() const { return version_; }

  enum class FrameKind : uint8_t { kEnd, kRecord, kMarker };
  struct Frame {
    FrameKind kind = FrameKind::kEnd;
    std::string_view payload;  // kRecord: valid until the next call
    CommitLogMarker marker;    // kMarker
    // kRecord: its position offset (FORMAT.md, "Positions": versions 1
    // and 2, the end of its frame; version 3, its ordinal). kMarker: the
    // end of its frame.
    uint64_t end_offset = 0;
    // Where the frame holding it starts (version 3: its block's frame).
    uint64_t frame_offset = 0;
  };

  // The next frame; kEnd at the end of the intact frames, with damaged()
  // telling whether bytes remain that do not form one. A marker is intact
  // only where it stands at its own offset after exactly the records it
  // counts. A non-OK status is an I/O failure.
  // REQUIRES: ReadHeader succeeded without header_damaged().
  Result<Frame> Next();

  // The first intact marker that starts after `from` (an offset where
  // damage was found), searching to the end of the file. Reading resumes
  // after it: the records between the damage and it are lost, and
  // records_read() becomes the marker's count. nullopt when there is none.
  Result<std::optional<CommitLogMarker>> ResyncAfter(uint64_t from);

  bool damaged() const { return !damage_.empty(); }
  // What is wrong at offset() ("truncated record", ...), for messages.
  const std::string& damage() const { return damage_; }
  // Where the next (or damaged) frame starts; in version 3, past the block
  // whose records Next() is returning.
  uint64_t offset() const { return offset_; }
  uint64_t file_size() const { return size_; }
  const std::string& path() const { return path_; }
  // Records returned by Next so far (plus those skipped by ResyncAfter).
  uint64_t records_read() const { return records_; }
  // The last intact frame was a seal marker.
  bool sealed() const { return sealed_; }

 private:
  CommitLogSegmentReader(std::string path, std::unique_ptr<RandomAccessFile> file);
  // Points *out at up to n bytes from `offset` (fewer only at end of file),
  // reading ahead so small records cost no I/O call each.
  Status ReadAt(uint64_t offset, size_t n, std::string_view* out);

  const std::string path_;
  std::unique_ptr<RandomAccessFile> file_;
  uint64_t size_;
  uint32_t version_ = 0;
  uint64_t offset_ = 0;
  uint64_t records_ = 0;
  bool sealed_ = false;
  // Version 3: the block being returned, and its records not yet returned.
  std::string block_;
  std::string_view block_rest_;
  uint64_t block_offset_ = 0;
  std::string damage_;
  std::string buffer_;
  uint64_t buffer_offset_ = 0;
};

}  // namespace cassette
