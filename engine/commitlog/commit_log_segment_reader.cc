#include "engine/commitlog/commit_log_segment_reader.h"

#include <algorithm>

#include "engine/commitlog/commit_log_block.h"

namespace cassette {
namespace {

constexpr size_t kReadAhead = 1 << 20;

}  // namespace

Result<std::unique_ptr<CommitLogSegmentReader>> CommitLogSegmentReader::Open(FileSystem* fs,
                                                                             std::string path) {
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs->NewRandomAccessFile(path));
  return std::unique_ptr<CommitLogSegmentReader>(
      new CommitLogSegmentReader(std::move(path), std::move(file)));
}

CommitLogSegmentReader::CommitLogSegmentReader(std::string path,
                                               std::unique_ptr<RandomAccessFile> file)
    : path_(std::move(path)), file_(std::move(file)), size_(file_->Size()) {}

Status CommitLogSegmentReader::ReadAt(uint64_t offset, size_t n, std::string_view* out) {
  const uint64_t buffer_end = buffer_offset_ + buffer_.size();
  if (offset < buffer_offset_ || offset + n > buffer_end) {
    // Never ask for more than the file holds: a corrupt length must not make
    // us allocate gigabytes.
    const uint64_t available = offset < size_ ? size_ - offset : 0;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(available, std::max(n, kReadAhead)));
    CASSETTE_RETURN_IF_ERROR(file_->Read(offset, want, &buffer_));
    buffer_offset_ = offset;
  }
  const uint64_t skip = offset - buffer_offset_;
  *out = std::string_view(buffer_).substr(std::min<uint64_t>(skip, buffer_.size()), n);
  return Status::OK();
}

Status CommitLogSegmentReader::ReadHeader(uint64_t expected_id) {
  std::string_view bytes;
  CASSETTE_RETURN_IF_ERROR(ReadAt(0, kCommitLogSegmentHeaderSize, &bytes));
  uint64_t id = 0;
  Status s = DecodeCommitLogSegmentHeader(bytes, &id, &version_);
  if (s.IsCorruption()) {
    offset_ = 0;
    damage_ = s.message();
    return Status::OK();
  }
  if (!s.ok()) return Status(s.code(), "commit log segment " + path_ + ": " + s.message());
  if (id != expected_id) {
    return Status::Corruption("commit log segment " + path_ + ": header names segment " +
                              std::to_string(id) + " at offset 0");
  }
  offset_ = kCommitLogSegmentHeaderSize;
  return Status::OK();
}

Result<CommitLogSegmentReader::Frame> CommitLogSegmentReader::Next() {
  Frame frame;
  if (!block_rest_.empty()) {
    frame.payload = NextCommitLogBlockRecord(&block_rest_);
    frame.kind = FrameKind::kRecord;
    frame.end_offset = ++records_;
    frame.frame_offset = block_offset_;
    return frame;
  }
  if (damaged() || offset_ >= size_) return frame;
  frame.frame_offset = offset_;
  std::string_view head;
  CASSETTE_RETURN_IF_ERROR(ReadAt(offset_, kCommitLogRecordHeaderSize, &head));
  uint32_t length = 0;
  RecordFrameError e = DecodeCommitLogRecordHead(head, &length);
  if (e == RecordFrameError::kNone && length == kCommitLogMarkerLength && version_ >= 2) {
    std::string_view bytes;
    CASSETTE_RETURN_IF_ERROR(ReadAt(offset_, kCommitLogMarkerSize, &bytes));
    if (bytes.size() < kCommitLogMarkerSize) {
      e = RecordFrameError::kTruncated;
    } else if (!DecodeCommitLogMarker(bytes, &frame.marker) || frame.marker.offset != offset_ ||
               frame.marker.records != records_) {
      e = RecordFrameError::kBadMarker;
    } else {
      offset_ += kCommitLogMarkerSize;
      sealed_ = frame.marker.kind == CommitLogMarkerKind::kSeal;
      frame.kind = FrameKind::kMarker;
      frame.end_offset = offset_;
      return frame;
    }
  } else if (e == RecordFrameError::kNone) {
    const uint64_t body_start = offset_ + kCommitLogRecordHeaderSize;
    const uint64_t body_size = uint64_t{length} + 4;
    if (body_size > size_ - body_start) {
      e = RecordFrameError::kTruncated;
    } else {
      std::string_view body;
      CASSETTE_RETURN_IF_ERROR(ReadAt(body_start, static_cast<size_t>(body_size), &body));
      e = VerifyCommitLogRecordBody(body, &frame.payload);
      if (e == RecordFrameError::kNone && version_ >= kCompressedCommitLogFormatVersion) {
        // Decoded whole before any record of it is returned: a block is
        // replayed entirely or reported as damage.
        uint64_t records = 0;
        e = DecodeCommitLogBlock(frame.payload, &block_, &records);
        if (e == RecordFrameError::kNone) {
          block_offset_ = offset_;
          offset_ = body_start + body_size;
          sealed_ = false;
          block_rest_ = block_;
          return Next();
        }
      } else if (e == RecordFrameError::kNone) {
        offset_ = body_start + body_size;
        ++records_;
        sealed_ = false;
        frame.kind = FrameKind::kRecord;
        frame.end_offset = offset_;
        return frame;
      }
    }
  }
  damage_ = RecordFrameErrorName(e);
  return frame;
}

Result<std::optional<CommitLogMarker>> CommitLogSegmentReader::ResyncAfter(uint64_t from) {
  if (version_ < 2) return std::optional<CommitLogMarker>();
  const std::string_view needle = CommitLogMarkerHead();
  // Windows overlap by a marker's size, so one straddling two is seen whole.
  for (uint64_t start = from + 1; start + kCommitLogMarkerSize <= size_;
       start += kReadAhead - kCommitLogMarkerSize) {
    std::string_view window;
    CASSETTE_RETURN_IF_ERROR(ReadAt(start, kReadAhead, &window));
    for (size_t at = window.find(needle); at != std::string_view::npos;
         at = window.find(needle, at + 1)) {
      CommitLogMarker marker;
      if (DecodeCommitLogMarker(window.substr(at), &marker) && marker.offset == start + at) {
        offset_ = start + at + kCommitLogMarkerSize;
        records_ = marker.records;
        block_rest_ = {};
        sealed_ = marker.kind == CommitLogMarkerKind::kSeal;
        damage_.clear();
        return std::optional<CommitLogMarker>(marker);
      }
    }
    if (window.size() < kReadAhead) break;
  }
  return std::optional<CommitLogMarker>();
}

}  // namespace cassette
