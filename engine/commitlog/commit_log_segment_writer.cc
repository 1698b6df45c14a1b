#include "engine/commitlog/commit_log_segment_writer.h"

#include <algorithm>

namespace cassette {

Result<std::unique_ptr<CommitLogSegmentWriter>> CommitLogSegmentWriter::Create(
    FileSystem* fs, const std::string& dir, uint64_t segment_id) {
  std::string path = dir + "/" + CommitLogSegmentFileName(segment_id);
  if (fs->FileExists(path)) {
    return Status::InvalidArgument("commit log segment " + path + " already exists");
  }
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(path));
  std::unique_ptr<CommitLogSegmentWriter> w(
      new CommitLogSegmentWriter(segment_id, path, std::move(file)));
  std::string header;
  EncodeCommitLogSegmentHeader(segment_id, &header);
  Status s = w->file_->Append(header);
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
  w->pending_ = w->flushed_ = Extent{header.size(), 0, header.size()};
  w->synced_size_ = header.size();
  return w;
}

CommitLogSegmentWriter::CommitLogSegmentWriter(uint64_t id, std::string path,
                                               std::unique_ptr<WritableFile> file)
    : id_(id), path_(std::move(path)), file_(std::move(file)) {}

Status CommitLogSegmentWriter::Append(std::string_view framed, uint64_t records) {
  CASSETTE_RETURN_IF_ERROR(file_->Append(framed));
  pending_.size += framed.size();
  pending_.records += records;
  if (records > 0) pending_.records_end = pending_.size;
  return Status::OK();
}

Status CommitLogSegmentWriter::Flush() {
  CASSETTE_RETURN_IF_ERROR(file_->Flush());
  flushed_ = pending_;
  return Status::OK();
}

Status CommitLogSegmentWriter::Rewind() {
  // What a failed write left in the file's buffer or in the OS is cut off;
  // what was fsynced is never touched (flushed_.size >= synced_size_).
  CASSETTE_RETURN_IF_ERROR(file_->Truncate(flushed_.size));
  pending_ = flushed_;
  writeback_size_ = std::min(writeback_size_, flushed_.size);
  return Status::OK();
}

Status CommitLogSegmentWriter::AppendMarker(CommitLogMarkerKind kind) {
  std::string marker;
  EncodeCommitLogMarker({pending_.size, pending_.records, kind}, &marker);
  return Append(marker, 0);
}

Status CommitLogSegmentWriter::StartWritebackEvery(uint64_t interval) {
  if (pending_.size - std::max(writeback_size_, synced_size_) < interval) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(file_->StartWriteback());
  writeback_size_ = pending_.size;
  return Status::OK();
}

Status CommitLogSegmentWriter::FlushAndSync() {
  CASSETTE_RETURN_IF_ERROR(Flush());
  Status s = file_->Sync();
  if (!s.ok()) {
    sync_failed_ = true;
    return s;
  }
  synced_size_ = pending_.size;
  return Status::OK();
}

Status CommitLogSegmentWriter::Sync(bool* synced) {
  *synced = false;
  CASSETTE_RETURN_IF_ERROR(Flush());
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
