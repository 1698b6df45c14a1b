#include "engine/db/database_impl.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "engine/commitlog/commit_log_replay.h"
#include "engine/compaction/time_window_compaction_strategy.h"
#include "engine/db/commit_record.h"
#include "engine/db/insert_batch_converter.h"
#include "engine/db/mutation_converter.h"
#include "engine/db/query_converter.h"
#include "engine/db/table_history.h"
#include "engine/env/file_logger.h"
#include "engine/mutation/row_codec.h"
#include "engine/mutation/timestamps.h"
#include "engine/sstable/estimated_histogram.h"
#include "engine/sstable/sstable_writer.h"
#include "engine/types/temporal_text.h"

namespace cassette {

namespace {

int OptionInt(const std::map<std::string, std::string>& options, const std::string& key,
              int fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  int value = fallback;
  std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
  return value;
}

// "2024-01-15T10:00:00Z": window starts in stats.
std::string FormatTimestampIso(int64_t micros) {
  std::string text = FormatTimestampJson(micros / 1000 - ((micros % 1000) < 0 ? 1 : 0));
  std::replace(text.begin(), text.end(), ' ', 'T');
  const size_t fraction = text.find('.');
  if (fraction != std::string::npos && text.compare(fraction, 4, ".000") == 0) {
    text.erase(fraction, 4);
  }
  return text;
}

}  // namespace

void DieOnCommitLogFailure(const std::string& path, const Status& failure) {
  std::fprintf(stderr, "cassette %s: commit log failure, commit_failure_policy die: %s\n",
               path.c_str(), failure.ToString().c_str());
  std::fflush(stderr);
  std::abort();
}

Result<std::unique_ptr<Database>> Database::Open(const Options& options, const std::string& path) {
  auto db = std::make_unique<DatabaseImpl>(options, path);
  CASSETTE_RETURN_IF_ERROR(db->Open());
  db->MarkOpened();
  return std::unique_ptr<Database>(std::move(db));
}

DatabaseImpl::DatabaseImpl(const Options& options, std::string path)
    : options_(options),
      path_(std::move(path)),
      counting_fs_(options.file_system ? std::make_shared<CountingFileSystem>(options.file_system)
                                       : nullptr),
      fs_(counting_fs_.get()) {
  BumpSchemaVersion();  // no other thread sees the object yet
  if (options_.clock) {
    list_sequence_ = static_cast<uint64_t>(std::max<int64_t>(0, options_.clock->WallMicros()));
  }
}

DatabaseImpl::~DatabaseImpl() { Close().IgnoreError(); }

std::string DatabaseImpl::TableDir(const TableSchema& schema, uint64_t id) const {
  return path_ + "/" + schema.keyspace() + "/" + schema.name() + "-" + std::to_string(id);
}

std::string DatabaseImpl::SSTablePath(const std::string& table_dir, uint64_t generation) const {
  char name[32];
  std::snprintf(name, sizeof(name), "%06llu", static_cast<unsigned long long>(generation));
  return table_dir + "/" + name + kSSTableSuffix;
}

Status DatabaseImpl::OpenSteps() {
  CASSETTE_RETURN_IF_ERROR(options_.Validate());
  scheduler_ =
      options_.scheduler ? options_.scheduler : NewThreadPoolScheduler(options_.background_threads);
  const bool exists = fs_->FileExists(path_ + "/" + kManifestFileName);
  if (!exists && (options_.read_only || !options_.create_if_missing)) {
    return Status::NotFound(path_ + ": no cassette database here (MANIFEST missing)");
  }
  if (!exists) CASSETTE_RETURN_IF_ERROR(CheckNothingToLose());
  if (!options_.read_only) {
    CASSETTE_RETURN_IF_ERROR(CreateDirsDurably(fs_, path_));
    auto lock = fs_->LockFile(path_ + "/" + kLockFileName);
    if (!lock.ok()) {
      if (lock.status().IsBusy()) {
        return Status::Busy(path_ + " is in use by another process (" + kLockFileName +
                            " is held)");
      }
      return lock.status();
    }
    lock_ = std::move(lock).value();
    // Only under the lock: the open rotates the previous run's LOG away.
    if (!logger_ && options_.log_file_enabled) {
      logger_ = std::make_shared<FileLogger>(
          counting_fs_, options_.clock, path_,
          FileLoggerOptions{options_.log_file_max_size, options_.log_file_keep,
                            options_.log_file_level});
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(std::optional<ManifestState> manifest, ReadManifest(fs_, path_));
  if (manifest) {
    state_ = std::move(*manifest);
    device_at_open_ = state_.device;
  } else {
    // Checked again under the lock: another process may have created the
    // database meanwhile.
    CASSETTE_RETURN_IF_ERROR(CheckNothingToLose());
    CASSETTE_RETURN_IF_ERROR(WriteManifest(fs_, path_, state_));
  }
  block_cache_ = std::make_unique<BlockCache>(options_.block_cache_size);
  CASSETTE_RETURN_IF_ERROR(LoadTables());
  if (!options_.read_only) CASSETTE_RETURN_IF_ERROR(RemoveOrphanFiles());

  uint64_t next_segment_id = 1;
  bool replayed = false;
  std::vector<CommitLogSegmentFile> old_segments;
  Status replayed_log = ReplayCommitLog(&next_segment_id, &replayed, &old_segments);
  if (replayed_log.IsCorruption() && options_.commit_failure_policy == CommitFailurePolicy::kDie) {
    DieOnCommitLogFailure(path_, replayed_log);
  }
  CASSETTE_RETURN_IF_ERROR(replayed_log);
  if (options_.read_only) return Status::OK();

  if (options_.commitlog_enabled) {
    CommitLogOptions log_options;
    log_options.dir = CommitLogDir();
    log_options.segment_size = options_.commitlog_segment_size;
    log_options.sync = options_.commitlog_sync;
    log_options.sync_period_ms = options_.commitlog_sync_period_ms;
    log_options.group_window_ms = options_.commitlog_sync_group_window_ms;
    if (options_.commit_failure_policy == CommitFailurePolicy::kDie) {
      log_options.on_failure = [path = path_](const Status& failure) {
        DieOnCommitLogFailure(path, failure);
      };
    }
    log_options.compression = options_.commitlog_compression;
    log_options.compression_level = options_.commitlog_compression_level;
    log_options.block_size = options_.commitlog_compression_block_size;
    // Real time passes by itself only on a real clock: a manual clock gets
    // no background syncer, so runs stay deterministic.
    log_options.background_sync = dynamic_cast<ManualClock*>(options_.clock.get()) == nullptr;
    CASSETTE_ASSIGN_OR_RETURN(
        commit_log_, CommitLog::Open(fs_, options_.clock.get(), log_options, next_segment_id));
    commit_log_->AdoptSegments(old_segments);
  }
  const bool simulated = dynamic_cast<ManualClock*>(options_.clock.get()) != nullptr;
  if (options_.scheduler) {
    compaction_scheduler_ = options_.scheduler;
  } else if (options_.compaction_threads > 0) {
    compaction_scheduler_ =
        NewThreadPoolScheduler(options_.compaction_threads, options_.compaction_thread_nice);
  }
  compaction_limiter_ =
      NewRateLimiter(options_.clock, options_.compaction_throughput_mib_per_sec << 20);
  if (options_.auto_compaction && !simulated) {
    // Strategies with a timer (TWCS's expired-SSTable check) need a tick
    // when no flush happens; a manual clock gets its ticks from flushes.
    compaction_timer_ =
        std::make_unique<BackgroundThread>(10'000, [this] { CompactionTimerTick(); });
  }
  // Replayed data is flushed at once (as Cassandra does), so the old
  // segments can go.
  if (replayed) CASSETTE_RETURN_IF_ERROR(Flush());
  return DiscardObsoleteCommitLog();
}

Status DatabaseImpl::CheckWritable() const {
  if (closed_) return Status::InvalidArgument("database is closed");
  if (options_.read_only) return Status::NotSupported("database is open read-only");
  return Status::OK();
}

Result<std::shared_ptr<Table>> DatabaseImpl::FindTable(const std::string& keyspace,
                                                       const std::string& table) const {
  std::shared_lock lock(state_mutex_);
  if (state_.keyspaces.find(keyspace) == state_.keyspaces.end()) {
    return Status::InvalidRequest("keyspace " + keyspace + " does not exist");
  }
  for (const auto& [id, t] : tables_) {
    const TableState& s = state_.tables.at(id);
    if (s.schema.keyspace() == keyspace && s.schema.name() == table) return t;
  }
  return Status::InvalidRequest("table " + table + " does not exist");
}

Status DatabaseImpl::Apply(const Mutation& mutation) {
  return ApplyMutations(std::span<const Mutation>(&mutation, 1));
}

Status DatabaseImpl::ApplyBatch(const std::vector<Mutation>& batch) {
  return ApplyMutations(std::span<const Mutation>(batch));
}

Status DatabaseImpl::ApplyMutations(std::span<const Mutation> batch) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  if (batch.empty()) return Status::OK();
  const int64_t now = options_.clock->WallMicros();
  const int64_t batch_timestamp = timestamps_.Next(now);
  // The tables the batch writes, each looked up once: a batch mostly
  // writes one table, and a lookup takes the state lock and two shared
  // pointers.
  // Mutation i went to tables[converted[i].table] as plains[index] or,
  // when it is not a plain row, as updates[index].
  struct Converted {
    size_t table;
    size_t index;
    bool plain;
  };
  std::vector<BatchTable> tables;
  std::vector<Converted> converted;
  std::vector<PlainMutation> plains;
  std::vector<PartitionUpdate> updates;
  converted.reserve(batch.size());
  plains.reserve(batch.size());
  for (const Mutation& mutation : batch) {
    size_t t = tables.size();
    if (!tables.empty()) {
      const TableSchema& last = *tables[converted.back().table].schema;
      if (last.name() == mutation.table() && last.keyspace() == mutation.keyspace()) {
        t = converted.back().table;
      }
    }
    if (t == tables.size()) {
      CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                                FindTable(mutation.keyspace(), mutation.table()));
      t = static_cast<size_t>(
          std::find_if(tables.begin(), tables.end(),
                       [&](const BatchTable& known) { return known.table == table; }) -
          tables.begin());
      if (t == tables.size()) {
        std::shared_ptr<const TableSchema> schema = table->shared_schema();
        tables.push_back({std::move(table), std::move(schema), {}, 0});
        // Room for the whole batch: it mostly writes this one table.
        tables.back().writes.reserve(batch.size());
      }
    }
    if (mutation.timestamp() && *mutation.timestamp() == kNoTimestamp) {
      return Status::InvalidRequest(
          "Out of bound timestamp, must be in [-9223372036854775807, 9223372036854775807]");
    }
    ConversionContext context{tables[t].table->id(), mutation.timestamp().value_or(batch_timestamp),
                              NowInSeconds(now), &list_sequence_};
    // Most mutations are one plain row: described, not built as an update.
    if (ConvertPlainMutation(*tables[t].schema, mutation, context, &plains.emplace_back())) {
      converted.push_back({t, plains.size() - 1, true});
      continue;
    }
    plains.pop_back();
    CASSETTE_RETURN_IF_ERROR(
        ConvertMutation(*tables[t].schema, mutation, context, &updates.emplace_back()));
    converted.push_back({t, updates.size() - 1, false});
  }

  // The record holds every update of the batch in order; a plain row is
  // encoded as the update holding it would be.
  std::vector<PlainRowWrite> plain_writes;
  plain_writes.reserve(plains.size());  // the tables' writes point at them
  std::string record;
  PutCommitRecordHeader(converted.size(), &record);
  for (const Converted& c : converted) {
    Table::Write write;
    if (c.plain) {
      write.plain = &plain_writes.emplace_back(plains[c.index].write());
    } else {
      write.update = &updates[c.index];
    }
    CASSETTE_RETURN_IF_ERROR(AppendWrite(write, &tables[c.table], &record));
  }
  CASSETTE_RETURN_IF_ERROR(CommitWrites(tables, record));
  for (size_t i = 0; i < batch.size(); ++i) {
    NoteLateWrite(*tables[converted[i].table].table,
                  batch[i].timestamp().value_or(batch_timestamp));
  }
  for (const BatchTable& t : tables) MaybeScheduleFlush(t.table);
  return Status::OK();
}

Status DatabaseImpl::ApplyInserts(const InsertBatch& batch) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  if (batch.empty()) return Status::OK();
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                            FindTable(batch.keyspace(), batch.table()));
  std::shared_ptr<const TableSchema> schema = table->shared_schema();
  const int64_t now = options_.clock->WallMicros();
  const int64_t timestamp = batch.timestamp().value_or(timestamps_.Next(now));
  ConvertedInserts converted;
  if (timestamp == kNoTimestamp ||
      !ConvertInsertBatch(
          *schema, batch,
          ConversionContext{table->id(), timestamp, NowInSeconds(now), &list_sequence_},
          &converted)) {
    // Not all plain rows, or something wrong: the general path applies the
    // batch or says what is wrong, with the same messages as ApplyBatch.
    return ApplyMutations(InsertBatchMutations(*schema, batch, timestamp));
  }
  BatchTable t{std::move(table), std::move(schema), {}, 0};
  t.writes.reserve(converted.writes.size());
  std::string record;
  PutCommitRecordHeader(converted.writes.size(), &record);
  for (const PlainRowWrite& write : converted.writes) {
    CASSETTE_RETURN_IF_ERROR(AppendWrite(Table::Write{nullptr, &write}, &t, &record));
  }
  CASSETTE_RETURN_IF_ERROR(CommitWrites(std::span<BatchTable>(&t, 1), record));
  // Once per row, as ApplyBatch counts its mutations.
  for (size_t i = 0; i < converted.writes.size(); ++i) NoteLateWrite(*t.table, timestamp);
  MaybeScheduleFlush(t.table);
  return Status::OK();
}

Status DatabaseImpl::AppendWrite(const Table::Write& write, BatchTable* table,
                                 std::string* record) const {
  const size_t before = record->size();
  if (write.plain != nullptr) {
    EncodePlainPartitionUpdate(table->table->id(), *write.plain, record);
  } else {
    EncodePartitionUpdate(*write.update, record);
  }
  const size_t size = record->size() - before;
  if (size > options_.max_mutation_size) {
    return Status::InvalidRequest("Mutation of " + std::to_string(size) +
                                  " bytes is too large for the maximum size of " +
                                  std::to_string(options_.max_mutation_size));
  }
  table->writes.push_back(write);
  table->bytes += size;
  return Status::OK();
}

Status DatabaseImpl::CommitWrites(std::span<BatchTable> tables, const std::string& record) {
  if (background_failing_.load(std::memory_order_relaxed) > 0) {
    ScheduleDueRetries();
    for (const BatchTable& t : tables)
      CASSETTE_RETURN_IF_ERROR(RefuseWriteWhileFlushFails(*t.table));
  }
  for (const BatchTable& t : tables) CASSETTE_RETURN_IF_ERROR(WaitForMemtableSpace(t.table));
  std::shared_lock barrier(write_barrier_);
  if (commit_log_) {
    auto position = commit_log_->Append(record);
    if (!position.ok()) {
      Log(LogLevel::kError, "commit log append failed: " + position.status().ToString());
      return Status::WriteFailure("commit log append failed: " + position.status().message());
    }
  }
  for (BatchTable& t : tables) {
    t.table->Apply(t.writes);
    t.table->AddUserBytes(t.bytes);
  }
  return Status::OK();
}

void DatabaseImpl::MaybeScheduleFlush(const std::shared_ptr<Table>& table) {
  if (table->MemtableBytes() < FlushTriggerBytes()) return;
  ScheduleFlushJob(table);
}

Status DatabaseImpl::RunStartedFlush(const std::shared_ptr<Table>& table, bool background) {
  Status s;
  {
    std::lock_guard flush(flush_mutex_);
    s = FlushTableLocked(table, background);
  }
  table->flush_state().Finish();
  // A flush is what a stalled writer waits for: the stall totals reach the
  // history file here (when they changed), off the writers' path.
  if (TableHistory* history = table->compaction().history.get()) {
    history->AppendWriteStalls(table->flush_state().stall_totals());
  }
  return s;
}

Status DatabaseImpl::WaitForMemtableSpace(const std::shared_ptr<Table>& table) {
  const uint64_t budget = options_.memtable_flush_threshold;
  if (table->MemtableBytes() < budget) return Status::OK();
  table->flush_state().CountWriteStall(options_.clock->WallMicros());
  if (!table->background().stall_logged.exchange(true)) {
    Log(LogLevel::kWarn, "writes to " + TableName(*table) + " stall: its memtables hold " +
                             std::to_string(table->MemtableBytes()) +
                             " bytes, the whole budget (memtable_flush_threshold " +
                             std::to_string(budget) + "), until a flush frees some");
  }
  // The time stalled, whichever way the wait ends.
  struct StallTimer {
    TableFlushState& state;
    const Clock& clock;
    const int64_t began_nanos;
    ~StallTimer() { state.AddStalledTime((clock.MonotonicNanos() - began_nanos) / 1000); }
  } stall_timer{table->flush_state(), *options_.clock, options_.clock->MonotonicNanos()};
  do {
    if (closed_) return Status::InvalidArgument("database is closed");
    if (table->flush_state().TryStart()) {
      // Nobody is running the flush (it is queued behind other work, on a
      // ManualScheduler, or an earlier attempt failed): run it here rather
      // than wait for a job that may never start.
      const bool had_data = table->HasUnflushedData();
      Status s = RunStartedFlush(table);
      if (!s.ok()) {
        return Status::WriteFailure("memtable full (memtable_flush_threshold " +
                                    std::to_string(budget) +
                                    " bytes) and its flush failed: " + s.message());
      }
      // Nothing to flush: a budget smaller than an empty memtable.
      if (!had_data) break;
    } else {
      table->flush_state().WaitWhileRunning();
    }
  } while (table->MemtableBytes() >= budget);
  return Status::OK();
}

Status DatabaseImpl::Flush() {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::shared_lock lock(state_mutex_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  std::lock_guard flush(flush_mutex_);
  for (const auto& table : tables) CASSETTE_RETURN_IF_ERROR(FlushTableLocked(table));
  return Status::OK();
}

Status DatabaseImpl::FlushTable(const std::string& keyspace, const std::string& table_name) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  std::lock_guard flush(flush_mutex_);
  return FlushTableLocked(table);
}

SSTableWriterOptions DatabaseImpl::WriterOptionsFor(const TableSchema& schema) const {
  const TableOptions& table_options = schema.options();
  SSTableWriterOptions writer_options;
  auto compression_class = table_options.compression.find("class");
  writer_options.compress =
      compression_class == table_options.compression.end() || !compression_class->second.empty();
  auto enabled = table_options.compression.find("enabled");
  if (enabled != table_options.compression.end() && enabled->second == "false") {
    writer_options.compress = false;
  }
  writer_options.compression_level = OptionInt(table_options.compression, "compression_level", 3);
  writer_options.chunk_length =
      static_cast<uint32_t>(OptionInt(table_options.compression, "chunk_length_in_kb", 16)) * 1024;
  writer_options.bloom_fp_chance = table_options.bloom_filter_fp_chance;
  writer_options.creation_time_micros = options_.clock->WallMicros();
  return writer_options;
}

Status DatabaseImpl::FlushMemtable(const std::shared_ptr<Table>& table) {
  const int64_t started_nanos = options_.clock->MonotonicNanos();
  Table::FlushJob job;
  {
    std::unique_lock barrier(write_barrier_);
    job = table->SwitchMemtable(commit_log_ ? commit_log_->CurrentPosition() : CommitLogPosition{});
  }
  if (!job.memtable) return Status::OK();

  const TableSchema schema = table->schema();
  // TWCS splits the flush at window boundaries, so a late write lands in
  // its own window's SSTable.
  CompactionOutputShape shape;
  {
    std::lock_guard lock(table->compaction().mutex);
    CASSETTE_RETURN_IF_ERROR(EnsureStrategy(*table, schema));
    shape = CompactionOutputShape::FromTask(table->compaction().strategy->FlushOutputShape());
  }
  CASSETTE_RETURN_IF_ERROR(CreateDirsDurably(fs_, table->dir()));
  CompactionOutputOptions output_options;
  output_options.fs = fs_;
  output_options.new_output = [this, &table]() -> Result<std::pair<uint64_t, std::string>> {
    return NewSSTablePath(*table);
  };
  output_options.writer_options = WriterOptionsFor(schema);
  output_options.writer_options.expected_partitions =
      std::max<uint64_t>(1, job.memtable->partition_count());
  output_options.writer_options.encoding_stats = job.memtable->encoding_stats();
  output_options.shape = shape;
  CompactionOutputWriter writer(std::move(output_options));
  std::unique_ptr<PartitionIterator> it = job.memtable->NewIterator();
  CASSETTE_ASSIGN_OR_RETURN(CompactionOutputResult written, writer.Write(it.get()));
  CASSETTE_ASSIGN_OR_RETURN(std::vector<Table::LiveSSTable> outputs,
                            OpenOutputs(*table, written.outputs, /*level=*/0));
  auto discard = [&] {
    for (const Table::LiveSSTable& output : outputs) output.deleter->MarkObsolete();
  };
  // The memtable may hold records the log has not fsynced yet (periodic
  // mode acknowledges before the fsync). Once the manifest below names the
  // SSTables, their data survives a power loss; the other tables' parts of
  // the same batches must survive it too, so the log is made durable up to
  // the switch first. Otherwise a crash could keep one table's half of a
  // multi-table batch (in the SSTable) and lose the other's (in the
  // unsynced log tail): recovery would not be a prefix of the writes.
  if (commit_log_) {
    Status synced = commit_log_->Sync();
    if (!synced.ok()) {
      discard();
      return synced;
    }
  }

  {
    std::unique_lock lock(state_mutex_);
    auto state = state_.tables.find(table->id());
    if (state == state_.tables.end()) {  // dropped while flushing
      discard();
      table->CompleteFlush({}, 0);
      return Status::OK();
    }
    const CommitLogPosition previous = state->second.persisted;
    const size_t previous_count = state->second.sstables.size();
    for (const Table::LiveSSTable& output : outputs) {
      state->second.sstables.push_back({output.generation, 0, std::nullopt});
    }
    state->second.persisted = job.position;
    Status s = PersistManifestLocked();
    if (!s.ok()) {
      state->second.sstables.resize(previous_count);
      state->second.persisted = previous;
      discard();
      return s;
    }
  }
  {
    std::lock_guard lock(table->compaction().mutex);
    for (const Table::LiveSSTable& output : outputs) {
      table->compaction().strategy->OnFlush({output.generation, output.reader->file_size(),
                                             output.level, false, &output.reader->stats()});
    }
  }
  LogFlush(*table, job.memtable->partition_count(), job.memtable->ApproximateMemoryUsage(), outputs,
           written.bytes_written, started_nanos);
  table->CompleteFlush(std::move(outputs), written.bytes_written);
  MaybeScheduleCompaction(table);
  return DiscardObsoleteCommitLog();
}

Status DatabaseImpl::RecordCommitLogStart(uint64_t first_kept) {
  std::unique_lock lock(state_mutex_);
  if (first_kept <= state_.commitlog_first_segment) return Status::OK();
  const uint64_t previous = state_.commitlog_first_segment;
  state_.commitlog_first_segment = first_kept;
  Status s = PersistManifestLocked();
  if (!s.ok()) state_.commitlog_first_segment = previous;
  return s;
}

Status DatabaseImpl::DiscardObsoleteCommitLog() {
  if (!commit_log_) return Status::OK();
  CommitLogPosition oldest_needed;
  bool all_flushed = true;
  {
    // Exclusive: no write may sit between its log append and its memtable
    // apply while we decide which tables are clean.
    std::unique_lock barrier(write_barrier_);
    std::shared_lock lock(state_mutex_);
    oldest_needed = commit_log_->CurrentPosition();
    for (const auto& [id, table] : tables_) {
      if (table->HasUnflushedData()) {
        all_flushed = false;
        oldest_needed = std::min(oldest_needed, state_.tables.at(id).persisted);
      }
    }
  }
  if (all_flushed) {
    // Every record up to oldest_needed is in SSTables the durable manifest
    // names, or at or before a truncated table's `persisted`, or of a dropped
    // table (a table is clean only after that manifest rewrite), so the
    // active segment is dead too. Sealing it lets the discard below
    // delete it, instead of keeping up to a segment of flushed records on
    // disk until it fills. Done outside the barrier: the log refuses if a
    // write came in meanwhile, and then the next flush gets it.
    CASSETTE_RETURN_IF_ERROR(commit_log_->RollIfOnlyBefore(oldest_needed).status());
  }
  return commit_log_->DiscardSegmentsBefore(
      oldest_needed, [this](uint64_t first_kept) { return RecordCommitLogStart(first_kept); });
}

Status DatabaseImpl::PersistManifestLocked() {
  // The statistics ride along with every manifest change.
  for (auto& [id, table_state] : state_.tables) {
    auto table = tables_.find(id);
    if (table != tables_.end()) table_state.counters = table->second->Counters();
  }
  state_.device = CurrentDeviceCounters();
  return WriteManifest(fs_, path_, state_);
}

DeviceCounters DatabaseImpl::CurrentDeviceCounters() const {
  DeviceCounters now = device_at_open_;
  now.bytes_written += counting_fs_->bytes_written();
  now.syncs += counting_fs_->syncs();
  if (commit_log_) now.commitlog_bytes_written += commit_log_->bytes_written();
  return now;
}

DeviceStats DatabaseImpl::GetDeviceStats() const {
  const DeviceCounters now = CurrentDeviceCounters();
  return DeviceStats{now.bytes_written, now.commitlog_bytes_written, now.syncs};
}

Result<ResultSet> DatabaseImpl::Read(const ReadQuery& query) { return RunRead(query, nullptr); }

Result<ResultSet> DatabaseImpl::ReadEach(const ReadQuery& query, const RowVisitor& visit) {
  return RunRead(query, &visit);
}

Result<ResultSet> DatabaseImpl::RunRead(const ReadQuery& query, const RowVisitor* visit) {
  if (closed_) return Status::InvalidArgument("database is closed");
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(query.keyspace, query.table));
  const std::shared_ptr<const TableSchema> schema = table->shared_schema();
  ReadLimits limits{options_.tombstone_warn_threshold, options_.tombstone_failure_threshold};
  CASSETTE_ASSIGN_OR_RETURN(
      ReadCommand command,
      ConvertReadQuery(*schema, query, NowInSeconds(options_.clock->WallMicros()), limits));
  Result<ResultSet> result =
      visit != nullptr ? table->ReadEach(command, *visit) : table->Read(command);
  if (!result.ok()) return HandleSSTableFailure(table, result.status(), "read");
  return result;
}

Result<TableStats> DatabaseImpl::GetTableStats(const std::string& keyspace,
                                               const std::string& table_name) {
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  TableStats stats;
  stats.keyspace = keyspace;
  stats.table = table_name;
  auto view = table->view();
  stats.memtable_bytes = static_cast<int64_t>(table->MemtableBytes());
  stats.memtable_write_stalls = table->flush_state().write_stalls();
  const WriteStallTotals stalls = table->flush_state().stall_totals();
  stats.memtable_write_stalls_total = stalls.stalls;
  stats.memtable_write_stall_micros_total = stalls.stalled_micros;
  stats.last_memtable_write_stall_micros = stalls.last_stall_micros;
  if (TableHistory* history = table->compaction().history.get()) {
    stats.history_warnings = history->warnings();
  }
  EstimatedHistogram partition_sizes;
  const int64_t gc_before =
      table->CompactionGcBefore(table->schema(), options_.clock->WallMicros());
  for (const auto& sstable : view->sstables) {
    const SSTableStats& s = sstable.reader->stats();
    s.AddPurgeableBytesByLag(gc_before, sstable.reader->file_size(), &stats.purgeable_bytes_by_lag);
    ++stats.sstable_count;
    stats.live_bytes += static_cast<int64_t>(s.uncompressed_size);
    stats.bytes_on_disk += static_cast<int64_t>(sstable.reader->file_size());
    stats.partition_count += static_cast<int64_t>(s.partition_count);
    stats.tombstone_cells += static_cast<int64_t>(s.tombstone_cell_count);
    partition_sizes.Merge(s.partition_sizes);
  }
  stats.bytes_written_by_users = static_cast<int64_t>(table->bytes_written_by_users());
  stats.bytes_flushed = static_cast<int64_t>(table->bytes_flushed());
  stats.bytes_compacted = static_cast<int64_t>(table->bytes_compacted());
  for (const auto& sstable : view->sstables) {
    if (stats.sstables_per_level.size() <= sstable.level) {
      stats.sstables_per_level.resize(sstable.level + 1);
    }
    ++stats.sstables_per_level[sstable.level];
  }
  TableCompactionState& compaction = table->compaction();
  stats.compactions_completed = compaction.completed;
  stats.compactions_running = compaction.running;
  stats.compactions_postponed_for_space = compaction.postponed_for_space;
  stats.expired_sstables_dropped = compaction.expired_dropped;
  stats.tombstones_purged = compaction.tombstones_purged;
  stats.late_writes = compaction.late_writes;
  stats.background_errors =
      table->background().flush.total_failures() + table->background().compaction.total_failures();
  {
    std::lock_guard lock(compaction.mutex);
    if (EnsureStrategy(*table, table->schema()).ok()) {
      stats.compaction_strategy = std::string(compaction.strategy->name());
      if (auto* twcs = dynamic_cast<TimeWindowCompactionStrategy*>(compaction.strategy.get())) {
        for (const auto& sstable : view->sstables) {
          const int64_t start = twcs->WindowStartMicros(sstable.reader->stats().max_timestamp);
          ++stats.sstables_per_window[FormatTimestampIso(start)];
        }
      }
    }
    stats.recent_compactions.assign(compaction.recent.begin(), compaction.recent.end());
  }
  for (SSTableFailure& failure : table->SSTableFailures()) {
    // A file that failed a request and is gone since (compacted after a
    // transient read error) is no longer the table's business.
    const bool live = std::any_of(view->sstables.begin(), view->sstables.end(), [&](const auto& s) {
      return s.generation == failure.generation;
    });
    if (failure.out_of_service || failure.found_by == "open" || live) {
      stats.sstable_failures.push_back(std::move(failure));
    }
  }
  if (stats.bytes_written_by_users > 0) {
    stats.write_amplification = static_cast<double>(stats.bytes_flushed + stats.bytes_compacted) /
                                static_cast<double>(stats.bytes_written_by_users);
  }
  if (partition_sizes.Count() > 0) {
    stats.partition_size_p50 = static_cast<int64_t>(partition_sizes.Percentile(0.5));
    stats.partition_size_p99 = static_cast<int64_t>(partition_sizes.Percentile(0.99));
    stats.partition_size_max = static_cast<int64_t>(partition_sizes.Max());
  }
  return stats;
}

void DatabaseImpl::NoteLateWrite(Table& table, int64_t timestamp) {
  const int64_t window = table.compaction().twcs_window.load(std::memory_order_relaxed);
  if (window <= 0) return;
  const int64_t newest = table.max_write_timestamp();
  table.NoteWriteTimestamp(timestamp);
  if (newest == std::numeric_limits<int64_t>::min()) return;
  // Floor division: windows are epoch aligned, also before 1970.
  const int64_t newest_window_start = newest - ((newest % window) + window) % window;
  if (timestamp < newest_window_start - options_.late_write_tolerance_seconds * 1'000'000) {
    ++table.compaction().late_writes;
  }
}

Status DatabaseImpl::Close() {
  if (closed_.exchange(true)) return Status::OK();
  if (compaction_timer_) compaction_timer_->Stop();
  std::unique_ptr<BackgroundThread> retry_timer;
  {
    std::lock_guard lock(retry_timer_mutex_);
    retry_timer = std::move(retry_timer_);
  }
  if (retry_timer) retry_timer->Stop();  // outside the mutex its callback may take
  // Before the last manifest write, so that the device counters it keeps
  // include the line.
  if (opened_) Log(LogLevel::kInfo, "closing " + path_);
  if (scheduler_) scheduler_->WaitIdle();
  if (compaction_scheduler_) compaction_scheduler_->WaitIdle();
  Status s;
  if (opened_ && !options_.read_only) {
    // The stall totals since the last flush (a history write failing is
    // reported by the history, never by Close).
    std::shared_lock lock(state_mutex_);
    for (const auto& [id, table] : tables_) {
      if (TableHistory* history = table->compaction().history.get()) {
        history->AppendWriteStalls(table->flush_state().stall_totals());
      }
    }
  }
  if (opened_ && !options_.read_only) {
    // Keeps the statistics counted since the last manifest change. Never
    // after a failed Open: its state is not the directory's.
    std::unique_lock lock(state_mutex_);
    s = PersistManifestLocked();
  }
  if (s.ok() && opened_) {
    // When every table is flushed, leave only an empty segment behind.
    s = DiscardObsoleteCommitLog();
  }
  if (commit_log_) {
    Status closed = commit_log_->Close();
    if (s.ok()) s = closed;
  }
  if (opened_ && !s.ok()) Log(LogLevel::kError, "close of " + path_ + " failed: " + s.ToString());
  lock_.reset();
  return s;
}

}  // namespace cassette
