// DatabaseImpl's info log (Options::logger) and what it does about
// background work that fails (docs/RELIABILITY.md, "Background failures"):
//
// - A background flush or compaction that fails is logged (ERROR),
//   counted (TableStats::background_errors) and retried after a delay
//   that doubles with every failure in a row (background_retry_initial_ms
//   up to background_retry_max_ms) on the database's clock. Retries start
//   from the next write once due, and, on a real clock, from a timer
//   thread started at the first failure.
// - Under disk_failure_policy stop (the default), a table whose flush
//   fails refuses writes with WriteFailure until a flush of it succeeds (a
//   retry, or Flush/FlushTable, which try at once): its memtable cannot
//   reach the disk, and more data would only grow the commit log and the
//   memory that depend on it. Reads go on. Under best_effort and ignore
//   writes go on until the memtable budget is full, and then fail as they
//   would on a full memtable.
// - A failing compaction never refuses anything: its inputs stay live and
//   whole. It is logged, counted and retried, and a flush no longer
//   starts it meanwhile (the backoff decides).
#include <algorithm>
#include <cstdio>

#include "engine/db/database_impl.h"

namespace cassette {
namespace {

std::string Generations(const std::vector<uint64_t>& generations) {
  std::string text = "[";
  for (uint64_t generation : generations) {
    if (text.size() > 1) text += ",";
    text += std::to_string(generation);
  }
  return text + "]";
}

std::string Millis(int64_t micros) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f ms", static_cast<double>(micros) / 1000.0);
  return text;
}

}  // namespace

Status DatabaseImpl::Open() {
  logger_ = options_.logger;  // the default LOG file starts once the directory is locked
  const int64_t started_nanos = options_.clock ? options_.clock->MonotonicNanos() : 0;
  Status s = OpenSteps();
  if (!s.ok()) {
    Log(LogLevel::kError, "open of " + path_ + " failed: " + s.ToString());
    return s;
  }
  LogOpened(started_nanos);
  return s;
}

std::string DatabaseImpl::TableName(const Table& table) {
  const std::shared_ptr<const TableSchema> schema = table.shared_schema();
  return schema->keyspace() + "." + schema->name();
}

void DatabaseImpl::LogOpened(int64_t started_nanos) const {
  if (!logger_) return;
  size_t tables = 0;
  size_t sstables = 0;
  {
    std::shared_lock lock(state_mutex_);
    tables = state_.tables.size();
    for (const auto& [id, table] : state_.tables) sstables += table.sstables.size();
  }
  const RecoveryReport& r = recovery_;
  Log(LogLevel::kInfo, "opened " + path_ + (options_.read_only ? " read-only" : "") + ": " +
                           std::to_string(tables) + " tables, " + std::to_string(sstables) +
                           " SSTables; commit log: " + std::to_string(r.commitlog_segments_read) +
                           " segments recovered, " + std::to_string(r.commitlog_records_replayed) +
                           " records replayed, " + std::to_string(r.commitlog_torn_bytes_dropped) +
                           " torn bytes dropped; in " +
                           Millis((options_.clock->MonotonicNanos() - started_nanos) / 1000));
  for (const std::string& damage : r.commitlog_damage_skipped) {
    Log(LogLevel::kError, "commit log damage skipped (commit_failure_policy ignore): " + damage);
  }
  if (r.commitlog_records_lost > 0) {
    Log(LogLevel::kError,
        "commit log records lost to damage: " + std::to_string(r.commitlog_records_lost));
  }
  for (const std::string& file : r.removed_files) {
    Log(LogLevel::kInfo, "removed " + file +
                             " (left by a flush or compaction cut short, or a "
                             "dropped table's)");
  }
  for (const std::string& file : r.unknown_files) {
    Log(LogLevel::kWarn, "unknown file left alone: " + file);
  }
  for (const SSTableFailure& failure : r.sstable_failures) {
    Log(LogLevel::kError,
        failure.path +
            (failure.out_of_service ? " is out of service: " : " was not loaded this time: ") +
            failure.error);
  }
}

void DatabaseImpl::LogFlush(const Table& table, size_t partitions, uint64_t memtable_bytes,
                            const std::vector<Table::LiveSSTable>& outputs, uint64_t bytes_written,
                            int64_t started_nanos) const {
  if (!logger_) return;
  std::vector<uint64_t> generations;
  for (const Table::LiveSSTable& output : outputs) generations.push_back(output.generation);
  Log(LogLevel::kInfo, "flushed " + TableName(table) + ": " + std::to_string(partitions) +
                           " partitions, " + std::to_string(memtable_bytes) +
                           " bytes of memtable -> SSTables " + Generations(generations) + ", " +
                           std::to_string(bytes_written) + " bytes, in " +
                           Millis((options_.clock->MonotonicNanos() - started_nanos) / 1000));
}

void DatabaseImpl::LogCompaction(const Table& table, const CompactionRecord& record) const {
  if (!logger_) return;
  std::string line = std::string(record.major ? "major compaction of " : "compacted ") +
                     TableName(table) + " (" + record.strategy;
  if (!record.reason.empty()) line += ", " + record.reason;
  line += "): " + Generations(record.inputs) + " -> " + Generations(record.outputs) + ", " +
          std::to_string(record.bytes_read) + " bytes read, " +
          std::to_string(record.bytes_written) + " written, " + std::to_string(record.rows_in) +
          " rows in, " + std::to_string(record.rows_out) + " out, " +
          std::to_string(record.tombstones_purged) + " tombstones purged";
  if (!record.expired.empty()) {
    line += "; whole SSTables expired and dropped: " + Generations(record.expired) + ", " +
            std::to_string(record.bytes_dropped) + " bytes";
  }
  line += "; in " + Millis(record.duration_micros);
  Log(LogLevel::kInfo, line);
}

void DatabaseImpl::NoteBackgroundFailure(const Table& table, BackgroundRetry& retry,
                                         const char* what, const Status& error, bool counted) {
  const BackgroundRetry::Failure failure =
      retry.Fail(error, options_.clock->WallMicros(), options_.background_retry_initial_ms * 1000,
                 options_.background_retry_max_ms * 1000, counted);
  if (failure.first) background_failing_.fetch_add(1, std::memory_order_relaxed);
  Log(LogLevel::kError, std::string(counted ? "background " : "") + what + " of " +
                            TableName(table) + " failed (" + std::to_string(failure.in_a_row) +
                            " in a row): " + error.ToString() + "; next try in " +
                            Millis(failure.delay_micros));
  // A real clock moves by itself: a timer starts the retries when due even
  // when no write comes. A manual clock gets them from the next write, so
  // runs stay deterministic.
  if (dynamic_cast<ManualClock*>(options_.clock.get()) != nullptr) return;
  std::lock_guard lock(retry_timer_mutex_);
  if (retry_timer_ || closed_) return;
  const int64_t interval_ms = std::min<int64_t>(options_.background_retry_initial_ms, 1000);
  retry_timer_ = std::make_unique<BackgroundThread>(interval_ms, [this] { ScheduleDueRetries(); });
}

void DatabaseImpl::NoteBackgroundSuccess(const Table& table, BackgroundRetry& retry,
                                         const char* what) {
  const int ended = retry.Succeed();
  if (ended == 0) return;
  background_failing_.fetch_sub(1, std::memory_order_relaxed);
  Log(LogLevel::kInfo, std::string(what) + " of " + TableName(table) + " succeeded after " +
                           std::to_string(ended) + " failures in a row");
}

bool DatabaseImpl::ScheduleFlushJob(const std::shared_ptr<Table>& table) {
  if (!table->flush_state().TryQueue()) return false;
  scheduler_->Schedule([this, table] {
    if (!table->flush_state().TryStartQueued()) return;  // a writer ran it
    // A failure leaves the memtable in place (the commit log still holds
    // it); FlushTableLocked logs it and sets the retry.
    RunStartedFlush(table, /*background=*/true).IgnoreError();
  });
  return true;
}

void DatabaseImpl::ScheduleDueRetries() {
  if (closed_ || background_failing_.load(std::memory_order_relaxed) == 0) return;
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::shared_lock lock(state_mutex_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  const int64_t now = options_.clock->WallMicros();
  for (const std::shared_ptr<Table>& table : tables) {
    TableBackgroundState& background = table->background();
    if (background.flush.ClaimDueRetry(now)) {
      Log(LogLevel::kInfo, "retrying the flush of " + TableName(*table));
      if (!ScheduleFlushJob(table)) background.flush.Unclaim();
    }
    if (background.compaction.ClaimDueRetry(now)) {
      Log(LogLevel::kInfo, "retrying compaction of " + TableName(*table));
      MaybeScheduleCompaction(table, /*retry=*/true);
    }
  }
}

Status DatabaseImpl::RefuseWriteWhileFlushFails(Table& table) {
  const BackgroundRetry& flush = table.background().flush;
  if (options_.disk_failure_policy != DiskFailurePolicy::kStop || !flush.failing()) {
    return Status::OK();
  }
  const Status error = flush.error();
  if (error.ok()) return Status::OK();  // a flush succeeded meanwhile
  const int64_t wait = std::max<int64_t>(0, flush.due_micros() - options_.clock->WallMicros());
  return Status::WriteFailure("writes to " + TableName(table) +
                              " are refused while its memtable cannot be flushed "
                              "(disk_failure_policy stop; " +
                              std::to_string(flush.in_a_row()) +
                              " failures in a row, next try in " + Millis(wait) +
                              "): " + error.ToString());
}

Status DatabaseImpl::FlushTableLocked(const std::shared_ptr<Table>& table, bool background) {
  Status s = FlushMemtable(table);
  BackgroundRetry& retry = table->background().flush;
  if (s.ok()) {
    table->background().stall_logged = false;
    NoteBackgroundSuccess(*table, retry, "flush");
    ScheduleDueRetries();  // a compaction's, now that the disk took a flush
    return s;
  }
  if (background || retry.failing()) {
    NoteBackgroundFailure(*table, retry, "flush", s, /*counted=*/background);
  } else {
    Log(LogLevel::kError, "flush of " + TableName(*table) + " failed: " + s.ToString());
  }
  return s;
}

}  // namespace cassette
