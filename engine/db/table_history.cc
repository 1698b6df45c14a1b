#include "engine/db/table_history.h"

#include <algorithm>

namespace cassette {

namespace {

// Warnings kept: a disk that keeps failing must not grow them forever.
constexpr size_t kMaxWarnings = 10;

}  // namespace

TableHistory::TableHistory(FileSystem* fs, const Clock* clock, std::string dir, bool read_only)
    : fs_(fs), clock_(clock), dir_(std::move(dir)), read_only_(read_only) {}

TableHistory::Loaded TableHistory::Load() {
  std::lock_guard lock(mu_);
  HistoryFileContents contents = ReadHistoryFile(fs_, path());
  warnings_ = contents.damage;
  kept_.assign(contents.compactions.begin(), contents.compactions.end());
  records_in_file_ = contents.compactions.size() + (contents.stalls == WriteStallTotals{} ? 0 : 1);
  file_bytes_ = contents.valid_bytes;
  stalls_written_ = contents.stalls;
  const size_t before = kept_.size();
  DropExpiredLocked();
  const bool repair = contents.torn_tail_bytes > 0 || !contents.damage.empty();
  if (!read_only_ && (repair || kept_.size() != before)) {
    Status s = RewriteLocked();
    if (!s.ok()) {
      needs_rewrite_ = true;
      warnings_.push_back(path() + ": rewrite failed: " + s.ToString());
    }
  }
  Loaded loaded;
  loaded.compactions.assign(kept_.begin(), kept_.end());
  loaded.stalls = stalls_written_;
  return loaded;
}

void TableHistory::DropExpiredLocked() {
  const int64_t oldest_kept = clock_->WallMicros() - kRetentionMicros;
  while (!kept_.empty() && kept_.front().started_micros < oldest_kept) kept_.pop_front();
  while (kept_.size() > kKeptCompactions) kept_.pop_front();
}

void TableHistory::AppendCompaction(const CompactionRecord& record) {
  std::lock_guard lock(mu_);
  if (read_only_ || removed_) return;
  kept_.push_back(record);
  WriteLocked(EncodeCompactionHistoryRecord(record));
}

void TableHistory::AppendWriteStalls(const WriteStallTotals& totals) {
  std::lock_guard lock(mu_);
  if (read_only_ || removed_ || totals == stalls_written_) return;
  stalls_written_ = totals;
  WriteLocked(EncodeWriteStallHistoryRecord(totals));
}

void TableHistory::WriteLocked(const std::string& framed) {
  Status s;
  if (needs_rewrite_ || records_in_file_ + 1 > 2 * kKeptCompactions) {
    // kept_ and stalls_written_ hold the new record already.
    DropExpiredLocked();
    s = RewriteLocked();
  } else {
    const bool created = file_bytes_ == 0;
    std::string bytes = created ? EncodeHistoryHeader() + framed : framed;
    Result<std::unique_ptr<WritableFile>> file = fs_->NewAppendableFile(path());
    s = file.status();
    if (s.ok()) s = (*file)->Append(bytes);
    if (s.ok()) s = (*file)->Sync();
    if (s.ok()) s = (*file)->Close();
    // A new file's directory entry is only as durable as the directory.
    if (s.ok() && created) s = fs_->SyncDir(dir_);
    if (s.ok()) {
      file_bytes_ += bytes.size();
      ++records_in_file_;
    }
  }
  needs_rewrite_ = !s.ok();
  if (!s.ok()) {
    if (warnings_.size() >= kMaxWarnings) warnings_.erase(warnings_.begin());
    warnings_.push_back(path() +
                        ": write failed (the next write rewrites the file): " + s.ToString());
  }
}

Status TableHistory::RewriteLocked() {
  std::string bytes = EncodeHistoryHeader();
  size_t records = 0;
  for (const CompactionRecord& record : kept_) {
    bytes += EncodeCompactionHistoryRecord(record);
    ++records;
  }
  if (stalls_written_ != WriteStallTotals{}) {
    bytes += EncodeWriteStallHistoryRecord(stalls_written_);
    ++records;
  }
  const std::string tmp = dir_ + "/" + kHistoryTempFileName;
  {
    CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs_->NewWritableFile(tmp));
    CASSETTE_RETURN_IF_ERROR(file->Append(bytes));
    CASSETTE_RETURN_IF_ERROR(file->Sync());
    CASSETTE_RETURN_IF_ERROR(file->Close());
  }
  CASSETTE_RETURN_IF_ERROR(fs_->RenameFile(tmp, path()));
  CASSETTE_RETURN_IF_ERROR(fs_->SyncDir(dir_));
  file_bytes_ = bytes.size();
  records_in_file_ = records;
  return Status::OK();
}

void TableHistory::Remove() {
  std::lock_guard lock(mu_);
  removed_ = true;
  kept_.clear();
  if (read_only_) return;
  // Missing files are fine: a table that never compacted has none.
  if (fs_->FileExists(path())) fs_->DeleteFile(path()).IgnoreError();
  const std::string tmp = dir_ + "/" + kHistoryTempFileName;
  if (fs_->FileExists(tmp)) fs_->DeleteFile(tmp).IgnoreError();
}

std::vector<std::string> TableHistory::warnings() const {
  std::lock_guard lock(mu_);
  return warnings_;
}

}  // namespace cassette
