// DatabaseImpl's compaction: the glue between a table's strategy
// (engine/compaction), its live SSTables and the manifest.
//
// A task runs in four steps: (1) under the table's compaction mutex, take a
// snapshot, ask the strategy, and mark the chosen files compacting; (2)
// check that the worst-case output fits on the disk, else postpone; (3)
// merge and write the outputs with no lock held; (4) under the state mutex,
// swap inputs for outputs in the manifest (one atomic rewrite), then in the
// table's view. Inputs are deleted when the last reader releases them. A
// crash before (4) leaves the inputs live and the outputs unnamed (deleted
// at the next open); after it, the reverse.
#include <algorithm>

#include "engine/compaction/compaction_controller.h"
#include "engine/compaction/compaction_iterator.h"
#include "engine/compaction/compaction_output_writer.h"
#include "engine/compaction/time_window_compaction_strategy.h"
#include "engine/compaction/twcs_window_report.h"
#include "engine/db/database_impl.h"
#include "engine/mutation/timestamps.h"

namespace cassette {

namespace {

std::vector<uint64_t> Concat(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<uint64_t> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

}  // namespace

Status DatabaseImpl::EnsureStrategy(Table& table, const TableSchema& schema) {
  TableCompactionState& state = table.compaction();
  // REQUIRES: state.mutex held.
  if (state.strategy && state.options == schema.options().compaction) return Status::OK();
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CompactionStrategy> strategy,
                            CreateCompactionStrategy(schema.options().compaction));
  auto* twcs = dynamic_cast<TimeWindowCompactionStrategy*>(strategy.get());
  state.twcs_window = twcs != nullptr ? twcs->window_micros() : 0;
  state.strategy = std::move(strategy);
  state.options = schema.options().compaction;
  return Status::OK();
}

CompactionSnapshot DatabaseImpl::SnapshotForCompaction(const Table& table, const Table::View& view,
                                                       const std::set<uint64_t>& compacting,
                                                       const TableSchema& schema) const {
  CompactionSnapshot snapshot;
  snapshot.now_micros = options_.clock->WallMicros();
  snapshot.gc_before = NowInSeconds(snapshot.now_micros) - schema.options().gc_grace_seconds;
  for (const Table::LiveSSTable& sstable : view.sstables) {
    CompactionCandidate candidate;
    candidate.generation = sstable.generation;
    candidate.size_on_disk = sstable.reader->file_size();
    candidate.level = sstable.level;
    candidate.compacting = compacting.count(sstable.generation) > 0;
    candidate.stats = &sstable.reader->stats();
    snapshot.sstables.push_back(candidate);
  }
  for (const auto& memtable : {view.active, view.flushing}) {
    if (!memtable || memtable->empty()) continue;
    const int64_t min = memtable->MinTimestamp();
    snapshot.memtable_min_timestamp =
        snapshot.memtable_min_timestamp ? std::min(*snapshot.memtable_min_timestamp, min) : min;
  }
  (void)table;
  return snapshot;
}

Result<bool> DatabaseImpl::RunOneCompaction(const std::shared_ptr<Table>& table, bool major) {
  const TableSchema schema = table->schema();
  TableCompactionState& state = table->compaction();
  std::shared_ptr<const Table::View> view = table->view();
  CompactionTask task;
  std::string strategy_name;
  {
    std::lock_guard lock(state.mutex);
    CASSETTE_RETURN_IF_ERROR(EnsureStrategy(*table, schema));
    const CompactionSnapshot snapshot =
        SnapshotForCompaction(*table, *view, state.compacting, schema);
    if (major) {
      task = state.strategy->MajorTask(snapshot);
    } else {
      std::optional<CompactionTask> next = state.strategy->NextBackgroundTask(snapshot);
      if (!next) return false;
      task = std::move(*next);
    }
    state.last_timer_check_micros = snapshot.now_micros;
    if (task.empty()) return false;
    for (uint64_t generation : Concat(task.inputs, task.expired)) {
      state.compacting.insert(generation);
    }
    strategy_name = std::string(state.strategy->name());
  }
  ++state.running;
  Result<bool> result = ExecuteCompaction(table, view, schema, task, strategy_name, major);
  --state.running;
  {
    std::lock_guard lock(state.mutex);
    for (uint64_t generation : Concat(task.inputs, task.expired)) {
      state.compacting.erase(generation);
    }
  }
  return result;
}

Result<bool> DatabaseImpl::ExecuteCompaction(const std::shared_ptr<Table>& table,
                                             const std::shared_ptr<const Table::View>& view,
                                             const TableSchema& schema, const CompactionTask& task,
                                             const std::string& strategy_name, bool major) {
  TableCompactionState& state = table->compaction();
  const int64_t started_nanos = options_.clock->MonotonicNanos();
  CompactionRecord record;
  record.strategy = strategy_name;
  record.reason = task.reason;
  record.major = major;
  record.tombstone_compaction = task.tombstone_compaction;
  record.inputs = task.inputs;
  record.expired = task.expired;
  record.started_micros = options_.clock->WallMicros();

  std::vector<Table::LiveSSTable> inputs;
  std::vector<std::shared_ptr<const SSTableReader>> others;
  uint64_t worst_case_output = 0;
  for (const Table::LiveSSTable& sstable : view->sstables) {
    const bool is_input = std::count(task.inputs.begin(), task.inputs.end(), sstable.generation);
    const bool is_expired =
        std::count(task.expired.begin(), task.expired.end(), sstable.generation);
    if (is_input) {
      inputs.push_back(sstable);
      worst_case_output += sstable.reader->file_size();
      record.bytes_read += sstable.reader->file_size();
    } else if (is_expired) {
      record.bytes_dropped += sstable.reader->file_size();
    } else {
      others.push_back(sstable.reader);
    }
  }

  // A compaction that cannot fit is postponed, never started to fail
  // halfway through on a full disk.
  if (worst_case_output > 0) {
    CASSETTE_ASSIGN_OR_RETURN(uint64_t free_space, fs_->GetFreeSpace(table->dir()));
    if (free_space < worst_case_output) {
      ++state.postponed_for_space;
      return false;
    }
  }

  std::vector<Table::LiveSSTable> outputs;
  if (!inputs.empty()) {
    CASSETTE_ASSIGN_OR_RETURN(outputs, WriteCompactionOutputs(table, view, schema, task, inputs,
                                                              std::move(others), &record));
  }

  // Swap in the manifest first: it is the truth a crash recovers.
  const std::vector<uint64_t> removed = Concat(task.inputs, task.expired);
  {
    std::unique_lock lock(state_mutex_);
    auto table_state = state_.tables.find(table->id());
    if (table_state == state_.tables.end()) {  // dropped meanwhile
      for (const Table::LiveSSTable& output : outputs) output.deleter->MarkObsolete();
      return false;
    }
    const std::vector<SSTableEntry> previous = table_state->second.sstables;
    std::erase_if(table_state->second.sstables, [&](const SSTableEntry& entry) {
      return std::count(removed.begin(), removed.end(), entry.generation) > 0;
    });
    for (const Table::LiveSSTable& output : outputs) {
      table_state->second.sstables.push_back({output.generation, output.level});
      record.outputs.push_back(output.generation);
    }
    Status s = PersistManifestLocked();
    if (!s.ok()) {
      table_state->second.sstables = previous;
      for (const Table::LiveSSTable& output : outputs) output.deleter->MarkObsolete();
      return s;
    }
  }
  table->ReplaceSSTables(removed, outputs, record.bytes_written);

  record.duration_micros = (options_.clock->MonotonicNanos() - started_nanos) / 1000;
  ++state.completed;
  state.expired_dropped += static_cast<int64_t>(task.expired.size());
  state.tombstones_purged += static_cast<int64_t>(record.tombstones_purged);
  {
    std::lock_guard lock(state.mutex);
    std::vector<CompactionCandidate> output_candidates;
    for (const Table::LiveSSTable& output : outputs) {
      output_candidates.push_back({output.generation, output.reader->file_size(), output.level,
                                   false, &output.reader->stats()});
    }
    if (state.strategy) state.strategy->OnCompactionEnd(task, output_candidates);
    state.recent.push_back(std::move(record));
    while (state.recent.size() > TableCompactionState::kMaxRecent) state.recent.pop_front();
  }
  return true;
}

std::pair<uint64_t, std::string> DatabaseImpl::NewSSTablePath(const Table& table) {
  uint64_t generation;
  {
    std::unique_lock lock(state_mutex_);
    generation = state_.next_generation++;
  }
  return {generation, SSTablePath(table.dir(), generation)};
}

Result<std::vector<Table::LiveSSTable>> DatabaseImpl::OpenOutputs(
    const Table& table, const std::vector<CompactionOutput>& outputs, uint32_t level) {
  std::vector<Table::LiveSSTable> opened;
  auto discard = [&] {
    for (const CompactionOutput& output : outputs) fs_->DeleteFile(output.path).IgnoreError();
  };
  if (outputs.empty()) return opened;
  // The files are synced; their directory entries must be too before the
  // manifest names them.
  Status s = fs_->SyncDir(table.dir());
  if (!s.ok()) {
    discard();
    return s;
  }
  for (const CompactionOutput& output : outputs) {
    auto reader = SSTableReader::Open(fs_, output.path, block_cache_.get());
    if (!reader.ok()) {
      discard();
      return reader.status();
    }
    opened.push_back({output.generation, level, std::move(reader).value(),
                      std::make_shared<ObsoleteFileDeleter>(fs_, output.path)});
  }
  return opened;
}

Result<std::vector<Table::LiveSSTable>> DatabaseImpl::WriteCompactionOutputs(
    const std::shared_ptr<Table>& table, const std::shared_ptr<const Table::View>& view,
    const TableSchema& schema, const CompactionTask& task,
    const std::vector<Table::LiveSSTable>& inputs,
    std::vector<std::shared_ptr<const SSTableReader>> others, CompactionRecord* record) {
  const int64_t now_micros = options_.clock->WallMicros();
  const int64_t now_sec = NowInSeconds(now_micros);
  // Memtables are consulted per key: a memtable holding the partition may
  // hold data a purged tombstone would otherwise have shadowed.
  std::vector<std::shared_ptr<Memtable>> memtables;
  for (const auto& memtable : {view->active, view->flushing}) {
    if (memtable) memtables.push_back(memtable);
  }
  // Memtables switched in after the snapshot hold only newer writes, which
  // default timestamps make newer than anything being purged; writes with
  // an explicit old timestamp are the user's risk, as in Cassandra.
  CompactionController controller(now_sec - schema.options().gc_grace_seconds, std::move(others),
                                  [memtables](const DecoratedKey& key) -> std::optional<int64_t> {
                                    std::optional<int64_t> min;
                                    for (const auto& memtable : memtables) {
                                      if (memtable->empty() || !memtable->ContainsPartition(key))
                                        continue;
                                      min = min ? std::min(*min, memtable->MinTimestamp())
                                                : memtable->MinTimestamp();
                                    }
                                    return min;
                                  });
  std::vector<std::unique_ptr<PartitionIterator>> scanners;
  std::vector<const SSTableStats*> input_stats;
  uint64_t input_bytes = 0;
  for (const Table::LiveSSTable& input : inputs) {
    scanners.push_back(input.reader->NewScanner(TokenRange{}, nullptr));
    input_stats.push_back(&input.reader->stats());
    input_bytes += input.reader->file_size();
  }
  CompactionIterator merged(std::move(scanners), &controller, now_sec);

  CompactionOutputOptions output_options;
  output_options.fs = fs_;
  output_options.new_output = [this, &table]() -> Result<std::pair<uint64_t, std::string>> {
    return NewSSTablePath(*table);
  };
  output_options.writer_options =
      CompactionWriterOptions(WriterOptionsFor(schema), input_stats, now_micros);
  output_options.shape = CompactionOutputShape::FromTask(task);
  output_options.input_bytes = input_bytes;
  output_options.rate_limiter = compaction_limiter_.get();
  CompactionOutputWriter writer(std::move(output_options));
  CASSETTE_ASSIGN_OR_RETURN(CompactionOutputResult result, writer.Write(&merged));

  const CompactionIteratorStats& stats = merged.stats();
  record->partitions_in = stats.partitions_read;
  record->partitions_out = stats.partitions_written;
  record->rows_in = stats.rows_read;
  record->rows_out = stats.rows_written;
  record->tombstones_purged = stats.tombstones_purged();
  record->bytes_written = result.bytes_written;
  return OpenOutputs(*table, result.outputs, task.output_level);
}

Status DatabaseImpl::CompactTableLocked(const std::shared_ptr<Table>& table) {
  // Bounded: every task removes at least one file or rewrites a window,
  // and a strategy proposes nothing once the table is settled; the bound
  // only guards against a strategy that keeps proposing the same work.
  for (int round = 0; round < 100000; ++round) {
    CASSETTE_ASSIGN_OR_RETURN(bool ran, RunOneCompaction(table, /*major=*/false));
    if (!ran) return Status::OK();
  }
  return Status::OK();
}

Status DatabaseImpl::Compact(const std::string& keyspace, const std::string& table_name) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  return CompactTableLocked(table);
}

Status DatabaseImpl::CompactMajor(const std::string& keyspace, const std::string& table_name) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  return RunOneCompaction(table, /*major=*/true).status();
}

void DatabaseImpl::MaybeScheduleCompaction(const std::shared_ptr<Table>& table) {
  if (!options_.auto_compaction || closed_) return;
  TableCompactionState& state = table->compaction();
  if (state.scheduled.exchange(true)) return;
  auto job = [this, table] {
    // A failure leaves the inputs live; the next flush or timer retries.
    if (!closed_) CompactTableLocked(table).IgnoreError();
    table->compaction().scheduled = false;
  };
  if (compaction_scheduler_) {
    compaction_scheduler_->Schedule(std::move(job));
  } else {
    job();
  }
}

void DatabaseImpl::CompactionTimerTick() {
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::shared_lock lock(state_mutex_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  const int64_t now = options_.clock->WallMicros();
  for (const auto& table : tables) {
    TableCompactionState& state = table->compaction();
    int64_t period_seconds = 0;
    {
      std::lock_guard lock(state.mutex);
      if (!EnsureStrategy(*table, table->schema()).ok()) continue;
      period_seconds = state.strategy->timer_period_seconds();
      if (period_seconds <= 0 || now - state.last_timer_check_micros < period_seconds * 1000000) {
        continue;
      }
    }
    MaybeScheduleCompaction(table);
  }
}

Result<std::vector<CompactionWindow>> DatabaseImpl::ExplainExpiry(const std::string& keyspace,
                                                                  const std::string& table_name) {
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  const TableSchema schema = table->schema();
  TableCompactionState& state = table->compaction();
  std::shared_ptr<const Table::View> view = table->view();
  std::lock_guard lock(state.mutex);
  CASSETTE_RETURN_IF_ERROR(EnsureStrategy(*table, schema));
  auto* twcs = dynamic_cast<TimeWindowCompactionStrategy*>(state.strategy.get());
  if (twcs == nullptr) {
    return Status::InvalidRequest(
        "Expiry by window is only defined for "
        "TimeWindowCompactionStrategy; " +
        keyspace + "." + table_name + " uses " + std::string(state.strategy->name()));
  }
  const CompactionSnapshot snapshot =
      SnapshotForCompaction(*table, *view, state.compacting, schema);
  std::vector<CompactionWindow> windows;
  for (const TwcsWindowReport& report :
       twcs->ReportWindows(snapshot, schema.options().gc_grace_seconds)) {
    CompactionWindow window;
    window.start_micros = report.window_start_micros;
    window.sstables = report.generations;
    window.live_bytes = static_cast<int64_t>(report.live_bytes);
    window.droppable_bytes = static_cast<int64_t>(report.droppable_bytes);
    window.droppable_at_micros = report.droppable_at_micros;
    window.blocked_by = report.blocking_generations;
    window.blocked_by_memtable = report.blocked_by_memtable;
    windows.push_back(std::move(window));
  }
  return windows;
}

}  // namespace cassette
