#include "engine/db/table.h"

#include <algorithm>

#include "engine/db/view_read_source.h"
#include "engine/mutation/expiry.h"
#include "engine/mutation/timestamps.h"

namespace cassette {

Table::Table(uint64_t id, TableSchema schema, std::string dir, std::vector<LiveSSTable> sstables)
    : id_(id),
      dir_(std::move(dir)),
      schema_(std::make_shared<const TableSchema>(std::move(schema))) {
  auto view = std::make_shared<View>();
  view->active = std::make_shared<Memtable>();
  view->sstables = std::move(sstables);
  view_ = std::move(view);
}

std::shared_ptr<const TableSchema> Table::shared_schema() const {
  std::lock_guard lock(mutex_);
  return schema_;
}

void Table::set_schema(TableSchema schema) {
  auto installed = std::make_shared<const TableSchema>(std::move(schema));
  std::lock_guard lock(mutex_);
  schema_ = std::move(installed);
}

std::shared_ptr<const Table::View> Table::view() const {
  std::lock_guard lock(mutex_);
  return view_;
}

void Table::Publish(std::shared_ptr<const View> view) {
  std::lock_guard lock(mutex_);
  view_ = std::move(view);
}

void Table::Apply(const PartitionUpdate& update) { view()->active->Apply(update); }

void Table::Apply(std::span<const Write> writes) {
  const std::shared_ptr<const View> v = view();
  for (const Write& write : writes) {
    if (write.plain != nullptr) {
      v->active->Apply(*write.plain);
    } else {
      v->active->Apply(*write.update);
    }
  }
}

size_t Table::MemtableBytes() const {
  auto v = view();
  return v->active->ApproximateMemoryUsage() +
         (v->flushing ? v->flushing->ApproximateMemoryUsage() : 0);
}

bool Table::HasUnflushedData() const {
  auto v = view();
  return !v->active->empty() || v->flushing != nullptr;
}

Table::FlushJob Table::SwitchMemtable(CommitLogPosition position) {
  std::lock_guard lock(mutex_);
  // A failed earlier flush left its memtable in `flushing`: retry that one
  // first, with the position noted when it was switched out.
  if (view_->flushing) return {view_->flushing, view_->flushing_position};
  if (view_->active->empty()) return {};
  auto next = std::make_shared<View>(*view_);
  next->flushing = view_->active;
  next->flushing_position = position;
  next->active = std::make_shared<Memtable>();
  view_ = next;
  return {next->flushing, position};
}

void Table::CompleteFlush(std::vector<LiveSSTable> sstables, uint64_t bytes_flushed) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<View>(*view_);
  next->flushing = nullptr;
  for (LiveSSTable& sstable : sstables) next->sstables.push_back(std::move(sstable));
  view_ = next;
  bytes_flushed_ += bytes_flushed;
}

void Table::ReplaceSSTables(const std::vector<uint64_t>& removed, std::vector<LiveSSTable> added,
                            uint64_t bytes_compacted,
                            const std::map<uint64_t, int64_t>& start_bounds) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<View>(*view_);
  for (LiveSSTable& sstable : next->sstables) {
    auto bound = start_bounds.find(sstable.generation);
    if (bound != start_bounds.end()) sstable.start_after_token = bound->second;
  }
  auto is_removed = [&](const LiveSSTable& sstable) {
    return std::find(removed.begin(), removed.end(), sstable.generation) != removed.end();
  };
  for (const LiveSSTable& sstable : next->sstables) {
    if (is_removed(sstable) && sstable.deleter) sstable.deleter->MarkObsolete();
  }
  std::erase_if(next->sstables, is_removed);
  for (LiveSSTable& sstable : added) next->sstables.push_back(std::move(sstable));
  // Generation order, the order strategies see files in.
  std::sort(next->sstables.begin(), next->sstables.end(),
            [](const LiveSSTable& a, const LiveSSTable& b) { return a.generation < b.generation; });
  view_ = next;
  bytes_compacted_ += bytes_compacted;
}

void Table::Truncate() {
  {
    // Their data is gone with the rest (TRUNCATE also drops them from the
    // manifest).
    std::lock_guard failures(failures_mutex_);
    failures_.clear();
    failed_in_compaction_.clear();
    sstables_out_of_view_ = false;
  }
  std::lock_guard lock(mutex_);
  for (const LiveSSTable& sstable : view_->sstables) {
    if (sstable.deleter) sstable.deleter->MarkObsolete();
  }
  auto next = std::make_shared<View>();
  next->active = std::make_shared<Memtable>();
  view_ = std::move(next);
}

TableCounters Table::Counters() const {
  TableCounters c;
  c.bytes_written_by_users = bytes_written_by_users_;
  c.bytes_flushed = bytes_flushed_;
  c.bytes_compacted = bytes_compacted_;
  c.compactions_completed = static_cast<uint64_t>(compaction_.completed.load());
  c.expired_sstables_dropped = static_cast<uint64_t>(compaction_.expired_dropped.load());
  c.tombstones_purged = static_cast<uint64_t>(compaction_.tombstones_purged.load());
  c.late_writes = static_cast<uint64_t>(compaction_.late_writes.load());
  return c;
}

void Table::RestoreCounters(const TableCounters& c) {
  bytes_written_by_users_ = c.bytes_written_by_users;
  bytes_flushed_ = c.bytes_flushed;
  bytes_compacted_ = c.bytes_compacted;
  compaction_.completed = static_cast<int64_t>(c.compactions_completed);
  compaction_.expired_dropped = static_cast<int64_t>(c.expired_sstables_dropped);
  compaction_.tombstones_purged = static_cast<int64_t>(c.tombstones_purged);
  compaction_.late_writes = static_cast<int64_t>(c.late_writes);
}

void Table::SetLevels(const std::map<uint64_t, uint32_t>& levels) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<View>(*view_);
  for (LiveSSTable& sstable : next->sstables) {
    auto level = levels.find(sstable.generation);
    if (level != levels.end()) sstable.level = level->second;
  }
  view_ = next;
}

void Table::NoteWriteTimestamp(int64_t timestamp) {
  int64_t seen = max_write_timestamp_.load(std::memory_order_relaxed);
  while (timestamp > seen &&
         !max_write_timestamp_.compare_exchange_weak(seen, timestamp, std::memory_order_relaxed)) {
  }
}

void Table::NoteSSTableFailure(SSTableFailure failure) {
  std::lock_guard lock(failures_mutex_);
  if (failure.out_of_service || failure.found_by == "open") sstables_out_of_view_ = true;
  if (failure.found_by == "compaction") failed_in_compaction_.insert(failure.generation);
  failures_[failure.generation] = std::move(failure);
}

std::vector<SSTableFailure> Table::SSTableFailures() const {
  std::lock_guard lock(failures_mutex_);
  std::vector<SSTableFailure> out;
  for (const auto& [generation, failure] : failures_) out.push_back(failure);
  return out;
}

int64_t Table::CompactionGcBefore(const TableSchema& schema, int64_t now_micros) const {
  // An SSTable out of the view may hold what a deletion shadows: keep them all.
  if (HasSSTablesOutOfView()) return kPurgeNothing;
  return GcBefore(NowInSeconds(now_micros), schema.options().gc_grace_seconds);
}

bool Table::FailedInCompaction(uint64_t generation) const {
  std::lock_guard lock(failures_mutex_);
  return failed_in_compaction_.count(generation) > 0;
}

bool Table::TakeOutOfService(uint64_t generation) {
  std::lock_guard lock(mutex_);
  auto next = std::make_shared<View>(*view_);
  const size_t before = next->sstables.size();
  std::erase_if(next->sstables,
                [&](const LiveSSTable& sstable) { return sstable.generation == generation; });
  if (next->sstables.size() == before) return false;
  view_ = next;
  return true;
}

Result<ResultSet> Table::Read(const ReadCommand& command) {
  ViewReadSource source(view());
  return ExecuteRead(command, &source);
}

Result<ResultSet> Table::ReadEach(const ReadCommand& command, const RowVisitor& visit) {
  ViewReadSource source(view());
  return ExecuteRead(command, &source, visit);
}

}  // namespace cassette
