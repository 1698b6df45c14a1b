#include "engine/commitlog/commit_log.h"

#include <algorithm>
#include <utility>

#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_segment_writer.h"
#include "engine/commitlog/commit_log_sync_policy.h"
#include "engine/env/background_thread.h"
#include "engine/env/durable_directory.h"

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
  CASSETTE_RETURN_IF_ERROR(CreateDirsDurably(fs, options.dir));
  std::unique_ptr<CommitLog> log(new CommitLog(fs, clock, std::move(options)));
  Result<std::unique_ptr<CommitLogSegmentWriter>> active = CommitLogSegmentWriter::Create(
      fs, log->options_.dir, first_segment_id, log->Layout(), &log->bytes_written_);
  if (!active.ok()) {
    log->closed_ = true;  // nothing for the destructor's Close() to do
    return active.status();
  }
  log->active_ = std::move(*active);
  log->last_position_ = CommitLogPosition{log->active_->id(), log->active_->records_end()};
  log->active_id_ = log->active_->id();
  log->segments_[log->active_id_] = SegmentInfo{log->active_->version(), std::nullopt};
  if (log->options_.background_sync && log->options_.sync == CommitLogSync::kPeriodic) {
    CommitLog* self = log.get();
    log->background_ = std::make_unique<BackgroundThread>(log->options_.sync_period_ms,
                                                          [self] { self->BackgroundSync(); });
  }
  return log;
}

CommitLog::CommitLog(FileSystem* fs, Clock* clock, CommitLogOptions options)
    : fs_(fs),
      clock_(clock),
      options_(std::move(options)),
      active_id_(0),
      last_sync_nanos_(clock->MonotonicNanos()) {}

CommitLogSegmentLayout CommitLog::Layout() const {
  CommitLogSegmentLayout layout;
  if (options_.compression == CommitLogCompression::kZstd) {
    layout.version = kCompressedCommitLogFormatVersion;
    layout.compression_level = options_.compression_level;
    layout.block_size = options_.block_size;
  }
  return layout;
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
    last_position_ = CommitLogPosition{active_->id(), active_->records_end()};
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
  if (s.ok() && close_requested) {
    // A clean close seals the segment: the next run starts a new one, and
    // this one then ends as every non-last segment must.
    l->unlock();
    const bool had_unsynced = active_->unsynced();
    s = active_->Seal();
    if (s.ok() && had_unsynced) sync_count_.fetch_add(1, std::memory_order_relaxed);
    l->lock();
  } else if (s.ok() && decision == SyncDecision::kSync) {
    l->unlock();
    s = SyncActive();
    l->lock();
  }
  if (!s.ok() && error_.ok()) {
    l->unlock();
    const bool recovered = Recovered();
    l->lock();
    // Records of earlier passes of this group that reached the file stay;
    // their writers are told of the failure all the same (the record may
    // or may not be in the log), and nothing after the cut is acknowledged.
    last_position_ = CommitLogPosition{active_->id(), active_->records_end()};
    if (!recovered) {
      error_ = s;
      if (options_.on_failure) {
        l->unlock();
        options_.on_failure(s);
        l->lock();
      }
    }
  }
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
  for (Writer* w : batch) {
    if (w->kind == Writer::Kind::kRoll) {
      // Equal ids and no record past pos: nothing was appended since pos
      // (markers do not count; the records queued before it do). A
      // segment without records has nothing to drop.
      if (active_->id() == w->roll_before.segment_id &&
          active_->records_end() <= w->roll_before.offset && active_->has_records()) {
        CASSETTE_RETURN_IF_ERROR(Roll());
        w->rolled = true;
      }
      continue;
    }
    if (w->kind != Writer::Kind::kRecord) continue;
    // Room is kept for the sync marker before the seal and the seal itself.
    if (!active_->Fits(w->record.size(), options_.segment_size) && active_->has_records()) {
      CASSETTE_RETURN_IF_ERROR(Roll());
    }
    w->position = CommitLogPosition{active_->id(), active_->Add(w->record)};
  }
  // Periodic mode acknowledges before the fsync, so a compressed log may
  // keep the records in its open block until the block fills or the next
  // sync: a crash of the process then loses what a power loss would. The
  // other modes acknowledge only what an fsync covered, so each pass
  // writes its block whole.
  CASSETTE_RETURN_IF_ERROR(
      active_->Write(/*finish_block=*/options_.sync != CommitLogSync::kPeriodic));
  active_->Acknowledge();
  return active_->StartWritebackEvery(kWritebackBytes);
}

Status CommitLog::Roll() {
  // Only the active segment may hold unsynced bytes, and every other one
  // ends with its seal: replay treats damage in any earlier segment, or a
  // missing seal, as corruption, not as a torn write. Sealed before the
  // next one exists, so a crash in between leaves a sealed last segment.
  const bool had_unsynced = active_->unsynced();
  CASSETTE_RETURN_IF_ERROR(active_->Seal());
  if (had_unsynced) sync_count_.fetch_add(1, std::memory_order_relaxed);
  last_sync_nanos_ = clock_->MonotonicNanos();
  const uint64_t sealed_id = active_->id();
  // If this fails the sealed segment stays active: records appended to it
  // after its seal are sealed again by the next roll.
  CASSETTE_ASSIGN_OR_RETURN(
      std::unique_ptr<CommitLogSegmentWriter> next,
      CommitLogSegmentWriter::Create(fs_, options_.dir, sealed_id + 1, Layout(), &bytes_written_));
  Status closed = active_->Close();
  {
    std::lock_guard<std::mutex> g(mu_);
    segments_[sealed_id].records_end = active_->records_end();
    segments_[next->id()] = SegmentInfo{next->version(), std::nullopt};
    active_id_ = next->id();
  }
  active_ = std::move(next);
  return closed;
}

bool CommitLog::Recovered() {
  // A failed fsync leaves the file's content unknown; only a failed write
  // can be taken back.
  if (active_->sync_failed()) return false;
  return active_->Rewind().ok();
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

std::string CommitLog::SegmentPath(uint64_t id, uint32_t version) const {
  return options_.dir + "/" + CommitLogSegmentFileName(version, id);
}

Status CommitLog::DiscardSegmentsBefore(CommitLogPosition pos,
                                        const std::function<Status(uint64_t)>& before_delete) {
  std::vector<std::pair<uint64_t, SegmentInfo>> candidates;
  uint64_t active_id = 0;
  {
    std::lock_guard<std::mutex> g(mu_);
    active_id = active_id_;
    for (const auto& [id, info] : segments_) {
      if (id > pos.segment_id) break;
      if (id != active_id_) candidates.emplace_back(id, info);
    }
  }
  Status first_error;
  std::vector<std::pair<uint64_t, std::string>> deletable;
  for (auto& [id, info] : candidates) {
    const std::string path = SegmentPath(id, info.version);
    if (id == pos.segment_id) {
      // Deletable only if pos is at or past its last record. An adopted
      // segment's records end is not known without reading it; its size
      // (markers included) is an upper bound in versions 1 and 2. Version
      // 3 positions count uncompressed bytes, which the size does not
      // bound: such a segment waits until pos is past it.
      std::optional<uint64_t> end = info.records_end;
      if (!end && info.version >= kCompressedCommitLogFormatVersion) continue;
      if (!end) {
        Result<uint64_t> r = fs_->GetFileSize(path);
        if (!r.ok() && !r.status().IsNotFound()) {
          if (first_error.ok()) first_error = r.status();
          continue;
        }
        end = r.ok() ? *r : 0;
      }
      if (pos.offset < *end) continue;
    }
    deletable.emplace_back(id, path);
  }
  if (deletable.empty()) return first_error;
  if (before_delete) {
    uint64_t first_kept = active_id;
    {
      std::lock_guard<std::mutex> g(mu_);
      for (const auto& entry : segments_) {
        const uint64_t id = entry.first;
        const bool going = std::any_of(deletable.begin(), deletable.end(),
                                       [id](const auto& d) { return d.first == id; });
        if (!going) {
          first_kept = id;
          break;
        }
      }
    }
    CASSETTE_RETURN_IF_ERROR(before_delete(first_kept));
  }
  std::vector<uint64_t> deleted;
  for (const auto& [id, path] : deletable) {
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

void CommitLog::AdoptSegments(const std::vector<CommitLogSegmentFile>& files) {
  std::lock_guard<std::mutex> g(mu_);
  for (const CommitLogSegmentFile& file : files) {
    segments_.try_emplace(file.id, SegmentInfo{file.version, std::nullopt});
  }
}

size_t CommitLog::TEST_QueuedWriters() const {
  std::lock_guard<std::mutex> g(mu_);
  return writers_.size();
}

}  // namespace cassette
