#include "engine/commitlog/commit_log_segment_writer.h"

#include <algorithm>

namespace cassette {

Result<std::unique_ptr<CommitLogSegmentWriter>> CommitLogSegmentWriter::Create(
    FileSystem* fs, const std::string& dir, uint64_t segment_id,
    const CommitLogSegmentLayout& layout, std::atomic<uint64_t>* bytes_written) {
  std::string path = dir + "/" + CommitLogSegmentFileName(layout.version, segment_id);
  if (fs->FileExists(path)) {
    return Status::InvalidArgument("commit log segment " + path + " already exists");
  }
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(path));
  std::unique_ptr<CommitLogSegmentWriter> w(
      new CommitLogSegmentWriter(segment_id, path, std::move(file), layout, bytes_written));
  std::string header;
  EncodeCommitLogSegmentHeader(layout.version, segment_id, &header);
  Status s = w->file_->Append(header);
  if (s.ok() && bytes_written != nullptr) bytes_written->fetch_add(header.size());
  if (s.ok()) s = w->file_->Sync();
  // The file's name must survive a crash before any record in it is
  // acknowledged as durable.
  if (s.ok()) s = fs->SyncDir(dir);
  if (!s.ok()) {
    // A half-made segment would block the next attempt (ids are never
    // reused); nothing was acknowledged in it.
    w->file_->Close().IgnoreError();
    fs->DeleteFile(path).IgnoreError();
    return s;
  }
  w->size_ = w->synced_size_ = header.size();
  w->added_ = w->acknowledged_ = Records{0, w->compressed() ? 0 : header.size()};
  return w;
}

CommitLogSegmentWriter::CommitLogSegmentWriter(uint64_t id, std::string path,
                                               std::unique_ptr<WritableFile> file,
                                               const CommitLogSegmentLayout& layout,
                                               std::atomic<uint64_t>* bytes_written)
    : id_(id),
      path_(std::move(path)),
      file_(std::move(file)),
      layout_(layout),
      bytes_written_(bytes_written),
      block_(layout.compression_level) {}

uint64_t CommitLogSegmentWriter::Add(std::string_view payload) {
  ++added_.records;
  if (compressed()) {
    // Version 3: the record's ordinal in the segment (byte offsets of
    // single records do not exist inside a block; an ordinal is what a
    // marker's record count restores after damage).
    block_.Add(payload);
    added_.records_end = added_.records;
  } else {
    // Version 2: the offset just past the record's frame in the file.
    EncodeCommitLogRecord(payload, &pending_);
    added_.records_end = size_ + pending_.size();
  }
  return added_.records_end;
}

bool CommitLogSegmentWriter::Fits(uint64_t payload_size, uint64_t segment_size) const {
  uint64_t after = size_ + 2 * kCommitLogMarkerSize;
  if (compressed()) {
    after += CommitLogBlockBuilder::MaxFramedSize(block_.content_size() +
                                                  CommitLogBlockBuilder::ContentCost(payload_size));
  } else {
    after += pending_.size() + payload_size + kCommitLogRecordOverhead;
  }
  return after <= segment_size;
}

Status CommitLogSegmentWriter::AppendAndFlush(std::string_view bytes) {
  CASSETTE_RETURN_IF_ERROR(file_->Append(bytes));
  if (bytes_written_ != nullptr) bytes_written_->fetch_add(bytes.size());
  CASSETTE_RETURN_IF_ERROR(file_->Flush());
  size_ += bytes.size();
  return Status::OK();
}

Status CommitLogSegmentWriter::Write(bool finish_block) {
  if (!compressed()) {
    if (pending_.empty()) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(AppendAndFlush(pending_));
    pending_.clear();
    if (pending_.capacity() > (4u << 20)) std::string().swap(pending_);
    return Status::OK();
  }
  if (block_.empty() || (!finish_block && block_.content_size() < layout_.block_size)) {
    return Status::OK();
  }
  frame_.clear();
  block_.FrameTo(&frame_);
  // The block keeps its records until they reached the OS: a failed
  // write leaves the acknowledged ones for the next attempt.
  CASSETTE_RETURN_IF_ERROR(AppendAndFlush(frame_));
  block_.Clear();
  acknowledged_block_records_ = acknowledged_block_bytes_ = 0;
  if (frame_.capacity() > (4u << 20)) std::string().swap(frame_);
  return Status::OK();
}

void CommitLogSegmentWriter::Acknowledge() {
  acknowledged_ = added_;
  acknowledged_block_records_ = block_.records();
  acknowledged_block_bytes_ = block_.content_size();
}

Status CommitLogSegmentWriter::Rewind() {
  // What a failed write left in the file's buffer or in the OS is cut off;
  // what was fsynced is never touched (size_ >= synced_size_).
  CASSETTE_RETURN_IF_ERROR(file_->Truncate(size_));
  added_ = acknowledged_;
  pending_.clear();
  block_.TruncateTo(acknowledged_block_records_, acknowledged_block_bytes_);
  writeback_size_ = std::min(writeback_size_, size_);
  return Status::OK();
}

Status CommitLogSegmentWriter::AppendMarker(CommitLogMarkerKind kind) {
  CASSETTE_RETURN_IF_ERROR(Write(/*finish_block=*/true));
  std::string marker;
  EncodeCommitLogMarker({size_, added_.records, kind}, &marker);
  return AppendAndFlush(marker);
}

Status CommitLogSegmentWriter::StartWritebackEvery(uint64_t interval) {
  if (size_ - std::max(writeback_size_, synced_size_) < interval) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(file_->StartWriteback());
  writeback_size_ = size_;
  return Status::OK();
}

Status CommitLogSegmentWriter::FlushAndSync() {
  CASSETTE_RETURN_IF_ERROR(file_->Flush());
  Status s = file_->Sync();
  if (!s.ok()) {
    sync_failed_ = true;
    return s;
  }
  synced_size_ = size_;
  return Status::OK();
}

Status CommitLogSegmentWriter::Sync(bool* synced) {
  *synced = false;
  CASSETTE_RETURN_IF_ERROR(Write(/*finish_block=*/true));
  if (!unsynced()) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(AppendMarker(CommitLogMarkerKind::kSync));
  CASSETTE_RETURN_IF_ERROR(FlushAndSync());
  *synced = true;
  return Status::OK();
}

Status CommitLogSegmentWriter::Seal() {
  CASSETTE_RETURN_IF_ERROR(AppendMarker(CommitLogMarkerKind::kSeal));
  return FlushAndSync();
}

Status CommitLogSegmentWriter::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  return file_->Close();
}

}  // namespace cassette
