#include "engine/commitlog/commit_log_segment_writer.h"

#include <algorithm>

#include "engine/commitlog/commit_log_format.h"

namespace cassette {

Result<std::unique_ptr<CommitLogSegmentWriter>> CommitLogSegmentWriter::Create(
    FileSystem* fs, const std::string& dir, uint64_t segment_id) {
  std::string path = dir + "/" + CommitLogSegmentFileName(segment_id);
  if (fs->FileExists(path)) {
    return Status::InvalidArgument("commit log segment " + path + " already exists");
  }
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(path));
  std::unique_ptr<CommitLogSegmentWriter> w(
      new CommitLogSegmentWriter(segment_id, std::move(path), std::move(file)));
  std::string header;
  EncodeCommitLogSegmentHeader(segment_id, &header);
  CASSETTE_RETURN_IF_ERROR(w->Append(header));
  bool synced = false;
  CASSETTE_RETURN_IF_ERROR(w->Sync(&synced));
  // The file's name must survive a crash before any record in it is
  // acknowledged as durable.
  CASSETTE_RETURN_IF_ERROR(fs->SyncDir(dir));
  return w;
}

CommitLogSegmentWriter::CommitLogSegmentWriter(uint64_t id, std::string path,
                                               std::unique_ptr<WritableFile> file)
    : id_(id), path_(std::move(path)), file_(std::move(file)) {}

Status CommitLogSegmentWriter::Append(std::string_view framed) {
  CASSETTE_RETURN_IF_ERROR(file_->Append(framed));
  size_ += framed.size();
  return Status::OK();
}

Status CommitLogSegmentWriter::Flush() { return file_->Flush(); }

Status CommitLogSegmentWriter::StartWritebackEvery(uint64_t interval) {
  if (size_ - std::max(writeback_size_, synced_size_) < interval) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(file_->StartWriteback());
  writeback_size_ = size_;
  return Status::OK();
}

Status CommitLogSegmentWriter::Sync(bool* synced) {
  *synced = false;
  CASSETTE_RETURN_IF_ERROR(file_->Flush());
  if (!unsynced()) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(file_->Sync());
  synced_size_ = size_;
  *synced = true;
  return Status::OK();
}

Status CommitLogSegmentWriter::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  return file_->Close();
}

}  // namespace cassette
