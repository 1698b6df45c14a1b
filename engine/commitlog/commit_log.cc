#include "engine/commitlog/commit_log.h"

#include <utility>

#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_segment_writer.h"
#include "engine/commitlog/commit_log_sync_policy.h"
#include "engine/env/background_thread.h"

namespace cassette {
namespace {

// One write pass of a leader takes at most this many record bytes, so a
// small record does not wait behind megabytes of others' records in batch
// mode (group mode keeps absorbing across passes anyway).
constexpr uint64_t kMaxPassBytes = 1 << 20;

// The active segment's bytes are handed to the OS's write-back every this
// many bytes (RocksDB's wal_bytes_per_sync): at an ingest's tens of MB/s
// of log, a 32 MiB segment otherwise reaches its sealing fsync with all of
// it dirty, and every writer queues behind that fsync for a good part of
// a second.
constexpr uint64_t kWritebackBytes = 1 << 20;

}  // namespace

struct CommitLog::Writer {
  enum class Kind : uint8_t { kRecord, kSync, kClose, kRoll };

  explicit Writer(Kind k, std::string_view r = {}) : kind(k), record(r) {}

  const Kind kind;
  const std::string_view record;
  // Set by the leader that handled this writer, under mu_.
  bool done = false;
  Status status;
  CommitLogPosition position;
  // kRoll: the position no record may end after (in), whether it rolled (out).
  CommitLogPosition roll_before;
  bool rolled = false;
  std::condition_variable cv;
};

Result<std::unique_ptr<CommitLog>> CommitLog::Open(FileSystem* fs, Clock* clock,
                                                   CommitLogOptions options,
                                                   uint64_t first_segment_id) {
  CASSETTE_RETURN_IF_ERROR(options.Validate());
  if (first_segment_id == 0) {
    // Id 0 is reserved so that the default CommitLogPosition{} sorts before
    // every record.
    return Status::InvalidArgument("commit log segment ids start at 1");
  }
  CASSETTE_RETURN_IF_ERROR(fs->CreateDirs(options.dir));
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CommitLogSegmentWriter> active,
                            CommitLogSegmentWriter::Create(fs, options.dir, first_segment_id));
  std::unique_ptr<CommitLog> log(new CommitLog(fs, clock, std::move(options), std::move(active)));
  if (log->options_.background_sync && log->options_.sync == CommitLogSync::kPeriodic) {
    CommitLog* self = log.get();
    log->background_ = std::make_unique<BackgroundThread>(log->options_.sync_period_ms,
                                                          [self] { self->BackgroundSync(); });
  }
  return log;
}

CommitLog::CommitLog(FileSystem* fs, Clock* clock, CommitLogOptions options,
                     std::unique_ptr<CommitLogSegmentWriter> active)
    : fs_(fs),
      clock_(clock),
      options_(std::move(options)),
      last_position_{active->id(), active->size()},
      active_id_(active->id()),
      active_(std::move(active)),
      last_sync_nanos_(clock->MonotonicNanos()) {
  segments_[active_id_] = std::nullopt;
}

CommitLog::~CommitLog() { Close().IgnoreError(); }

Result<CommitLogPosition> CommitLog::Append(std::string_view record) {
  if (record.size() > options_.MaxRecordSize()) {
    return Status::InvalidArgument(
        "commit log record of " + std::to_string(record.size()) + " bytes exceeds the maximum of " +
        std::to_string(options_.MaxRecordSize()) + " bytes for segment_size " +
        std::to_string(options_.segment_size));
  }
  Writer w(Writer::Kind::kRecord, record);
  CASSETTE_RETURN_IF_ERROR(Submit(&w));
  return w.position;
}

Status CommitLog::Sync() {
  Writer w(Writer::Kind::kSync);
  return Submit(&w);
}

Result<bool> CommitLog::RollIfOnlyBefore(CommitLogPosition pos) {
  Writer w(Writer::Kind::kRoll);
  w.roll_before = pos;
  CASSETTE_RETURN_IF_ERROR(Submit(&w));
  return w.rolled;
}

Status CommitLog::Close() {
  // Stopped first: its callback queues a writer and must not outlive us.
  if (background_) background_->Stop();
  Writer w(Writer::Kind::kClose);
  return Submit(&w);
}

void CommitLog::BackgroundSync() {
  Writer w(Writer::Kind::kSync);
  // A failure is recorded in error_ and reported by the next Append.
  Submit(&w).IgnoreError();
}

Status CommitLog::Submit(Writer* w) {
  std::unique_lock<std::mutex> l(mu_);
  writers_.push_back(w);
  while (!w->done && writers_.front() != w) w->cv.wait(l);
  if (!w->done) Lead(&l);
  return w->status;
}

void CommitLog::FailQueued() {
  for (Writer* w : writers_) {
    if (w->kind == Writer::Kind::kClose) {
      if (!closed_) {
        Status c = active_->Close();
        closed_ = true;
        close_status_ = error_.ok() ? c : error_;
      }
      w->status = close_status_;
    } else if (closed_) {
      w->status = Status::InvalidArgument("commit log " + options_.dir + " is closed");
    } else {
      w->status = error_;
    }
    w->done = true;
    w->cv.notify_one();
  }
  writers_.clear();
}

void CommitLog::Lead(std::unique_lock<std::mutex>* l) {
  if (closed_ || !error_.ok()) {
    FailQueued();
    return;
  }
  size_t taken = 0;  // writers_[0, taken) form the group
  bool sync_requested = false;
  bool close_requested = false;
  SyncDecision decision = SyncDecision::kNone;
  Status s;
  std::vector<Writer*> batch;
  while (true) {
    batch.clear();
    uint64_t bytes = 0;
    while (taken < writers_.size() && !close_requested) {
      Writer* w = writers_[taken];
      if (!batch.empty() && bytes + w->record.size() > kMaxPassBytes) break;
      batch.push_back(w);
      ++taken;
      bytes += w->record.size();
      sync_requested |= w->kind == Writer::Kind::kSync;
      close_requested |= w->kind == Writer::Kind::kClose;
    }
    l->unlock();
    s = WriteRecords(batch);
    const int64_t now = clock_->MonotonicNanos();
    l->lock();
    if (!s.ok()) break;
    last_position_ = CommitLogPosition{active_->id(), active_->size()};
    SyncFacts facts;
    facts.mode = options_.sync;
    facts.sync_period_ms = options_.sync_period_ms;
    facts.group_window_ms = options_.group_window_ms;
    facts.now_nanos = now;
    facts.last_sync_nanos = last_sync_nanos_;
    facts.unsynced = active_->unsynced();
    facts.sync_requested = sync_requested || close_requested;
    facts.writers_waiting = taken < writers_.size() && !close_requested;
    decision = DecideSync(facts);
    if (decision != SyncDecision::kAbsorb) break;
  }
  if (s.ok() && decision == SyncDecision::kSync) {
    l->unlock();
    s = SyncActive();
    l->lock();
  }
  if (!s.ok() && error_.ok()) error_ = s;
  if (close_requested) {
    Status c = active_->Close();
    closed_ = true;
    close_status_ = s.ok() ? c : s;
  }
  for (size_t i = 0; i < taken; ++i) {
    Writer* w = writers_.front();
    writers_.pop_front();
    w->status = w->kind == Writer::Kind::kClose ? close_status_ : s;
    w->done = true;
    w->cv.notify_one();
  }
  if (!writers_.empty()) writers_.front()->cv.notify_one();
}

Status CommitLog::WriteRecords(const std::vector<Writer*>& batch) {
  scratch_.clear();
  uint64_t framed_total = 0;
  for (Writer* w : batch) {
    if (w->kind == Writer::Kind::kRoll) {
      // The records queued before it count: write them out first, so the
      // check sees the segment's true end.
      if (!scratch_.empty()) {
        CASSETTE_RETURN_IF_ERROR(active_->Append(scratch_));
        scratch_.clear();
      }
      // Equal ids and no byte past pos: nothing was appended since pos. A
      // header-only segment has nothing to drop.
      if (active_->id() == w->roll_before.segment_id && active_->size() <= w->roll_before.offset &&
          active_->size() > kCommitLogSegmentHeaderSize) {
        CASSETTE_RETURN_IF_ERROR(Roll());
        w->rolled = true;
      }
      continue;
    }
    if (w->kind != Writer::Kind::kRecord) continue;
    const uint64_t framed = w->record.size() + kCommitLogRecordOverhead;
    if (active_->size() + scratch_.size() + framed > options_.segment_size) {
      if (!scratch_.empty()) {
        CASSETTE_RETURN_IF_ERROR(active_->Append(scratch_));
        scratch_.clear();
      }
      CASSETTE_RETURN_IF_ERROR(Roll());
    }
    EncodeCommitLogRecord(w->record, &scratch_);
    w->position = CommitLogPosition{active_->id(), active_->size() + scratch_.size()};
    framed_total += framed;
  }
  if (!scratch_.empty()) CASSETTE_RETURN_IF_ERROR(active_->Append(scratch_));
  if (scratch_.capacity() > 4 * kMaxPassBytes) std::string().swap(scratch_);
  CASSETTE_RETURN_IF_ERROR(active_->Flush());
  CASSETTE_RETURN_IF_ERROR(active_->StartWritebackEvery(kWritebackBytes));
  bytes_written_.fetch_add(framed_total, std::memory_order_relaxed);
  return Status::OK();
}

Status CommitLog::Roll() {
  // Only the active segment may hold unsynced bytes: replay treats damage
  // in any earlier segment as corruption, not as a torn write.
  CASSETTE_RETURN_IF_ERROR(SyncActive());
  CASSETTE_RETURN_IF_ERROR(active_->Close());
  const uint64_t sealed_id = active_->id();
  const uint64_t sealed_size = active_->size();
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CommitLogSegmentWriter> next,
                            CommitLogSegmentWriter::Create(fs_, options_.dir, sealed_id + 1));
  {
    std::lock_guard<std::mutex> g(mu_);
    segments_[sealed_id] = sealed_size;
    segments_[next->id()] = std::nullopt;
    active_id_ = next->id();
  }
  active_ = std::move(next);
  return Status::OK();
}

Status CommitLog::SyncActive() {
  const int64_t start = clock_->MonotonicNanos();
  bool synced = false;
  CASSETTE_RETURN_IF_ERROR(active_->Sync(&synced));
  if (synced) {
    sync_count_.fetch_add(1, std::memory_order_relaxed);
    last_sync_nanos_ = start;
  }
  return Status::OK();
}

CommitLogPosition CommitLog::CurrentPosition() const {
  std::lock_guard<std::mutex> g(mu_);
  return last_position_;
}

std::string CommitLog::SegmentPath(uint64_t id) const {
  return options_.dir + "/" + CommitLogSegmentFileName(id);
}

Status CommitLog::DiscardSegmentsBefore(CommitLogPosition pos) {
  std::vector<std::pair<uint64_t, std::optional<uint64_t>>> candidates;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (const auto& [id, size] : segments_) {
      if (id > pos.segment_id) break;
      if (id != active_id_) candidates.emplace_back(id, size);
    }
  }
  Status first_error;
  std::vector<uint64_t> deleted;
  for (auto& [id, size] : candidates) {
    const std::string path = SegmentPath(id);
    if (id == pos.segment_id) {
      // Deletable only if pos is at or past its end.
      if (!size) {
        Result<uint64_t> r = fs_->GetFileSize(path);
        if (!r.ok() && !r.status().IsNotFound()) {
          if (first_error.ok()) first_error = r.status();
          continue;
        }
        size = r.ok() ? *r : 0;
      }
      if (pos.offset < *size) continue;
    }
    Status s = fs_->DeleteFile(path);
    if (s.ok() || s.IsNotFound()) {
      deleted.push_back(id);
    } else if (first_error.ok()) {
      first_error = s;
    }
  }
  if (!deleted.empty()) {
    {
      std::lock_guard<std::mutex> g(mu_);
      for (uint64_t id : deleted) segments_.erase(id);
    }
    Status s = fs_->SyncDir(options_.dir);
    if (first_error.ok()) first_error = s;
  }
  return first_error;
}

std::vector<uint64_t> CommitLog::SegmentIds() const {
  std::lock_guard<std::mutex> g(mu_);
  std::vector<uint64_t> ids;
  ids.reserve(segments_.size());
  for (const auto& entry : segments_) ids.push_back(entry.first);
  return ids;
}

void CommitLog::AdoptSegments(std::vector<uint64_t> ids) {
  std::lock_guard<std::mutex> g(mu_);
  for (uint64_t id : ids) segments_.try_emplace(id, std::nullopt);
}

size_t CommitLog::TEST_QueuedWriters() const {
  std::lock_guard<std::mutex> g(mu_);
  return writers_.size();
}

}  // namespace cassette
