// CommitLogSegmentReader: reads the records of one segment file in order,
// stopping at the first frame that is truncated or fails a checksum. It
// only reports what it found; whether a damaged tail is a torn write or
// corruption depends on the segment's place in the log and is decided by
// ReplayCommitLog. Thread-compatible.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cassette/file_system.h"
#include "cassette/status.h"

namespace cassette {

class CommitLogSegmentReader {
 public:
  static Result<std::unique_ptr<CommitLogSegmentReader>> Open(FileSystem* fs, std::string path);

  // Reads the header. OK with header_damaged() set when it is truncated,
  // foreign or fails its checksum; NotSupported for another format version;
  // Corruption when it is intact but names a segment other than
  // `expected_id`; IOError when the file cannot be read.
  Status ReadHeader(uint64_t expected_id);
  bool header_damaged() const { return !damage_.empty() && offset_ == 0; }

  // The next record: true with *payload (valid until the next call) and
  // *end_offset (the offset just past the record); false at the end of the
  // intact records, with damaged() telling whether bytes remain that do not
  // form a record. A non-OK status is an I/O failure.
  // REQUIRES: ReadHeader succeeded without header_damaged().
  Result<bool> Next(std::string_view* payload, uint64_t* end_offset);

  bool damaged() const { return !damage_.empty(); }
  // What is wrong at offset() ("truncated record", ...), for messages.
  const std::string& damage() const { return damage_; }
  // Where the next (or damaged) record starts.
  uint64_t offset() const { return offset_; }
  uint64_t file_size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  CommitLogSegmentReader(std::string path, std::unique_ptr<RandomAccessFile> file);
  // Points *out at up to n bytes from `offset` (fewer only at end of file),
  // reading ahead so small records cost no I/O call each.
  Status ReadAt(uint64_t offset, size_t n, std::string_view* out);

  const std::string path_;
  std::unique_ptr<RandomAccessFile> file_;
  uint64_t size_;
  uint64_t offset_ = 0;
  std::string damage_;
  std::string buffer_;
  uint64_t buffer_offset_ = 0;
};

}  // namespace cassette
