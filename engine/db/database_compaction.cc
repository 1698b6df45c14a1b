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
#include <cmath>
#include <limits>
#include <map>

#include "engine/compaction/compaction_controller.h"
#include "engine/compaction/compaction_iterator.h"
#include "engine/compaction/compaction_output_writer.h"
#include "engine/compaction/time_window_compaction_strategy.h"
#include "engine/compaction/twcs_window_report.h"
#include "engine/db/database_impl.h"
#include "engine/db/view_read_source.h"
#include "engine/mutation/timestamps.h"

namespace cassette {

namespace {

std::vector<uint64_t> Concat(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<uint64_t> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

// What of an input was past gc_grace when its compaction started.
struct PurgeableInput {
  std::map<int64_t, uint64_t> bytes_by_lag;
  uint64_t points = 0;  // its drop-time points past
};

// The data past gc_grace in the consumed inputs (those no longer
// `remaining`) into record->purged_bytes_by_lag, less the share the
// outputs still hold: an input's expired rows that an older file outside
// the compaction may still need go out again as tombstones, and leave
// the disk only later. Shares are of drop-time points, which survive a
// rewrite unchanged where bytes do not (compression).
void AddPurgedBytesByLag(const std::map<uint64_t, PurgeableInput>& inputs,
                         const std::vector<Table::LiveSSTable>& remaining,
                         const std::vector<Table::LiveSSTable>& outputs, int64_t gc_before,
                         CompactionRecord* record) {
  std::map<int64_t, uint64_t> consumed;
  uint64_t consumed_points = 0;
  for (const auto& [generation, input] : inputs) {
    const uint64_t consumed_generation = generation;  // clang 14 captures no binding
    const bool still_there = std::any_of(remaining.begin(), remaining.end(), [&](const auto& r) {
      return r.generation == consumed_generation;
    });
    if (still_there) continue;
    for (const auto& [lag, bytes] : input.bytes_by_lag) consumed[lag] += bytes;
    consumed_points += input.points;
  }
  if (consumed_points == 0) return;
  uint64_t kept_points = 0;
  for (const Table::LiveSSTable& output : outputs) {
    kept_points += output.reader->stats().PurgeablePoints(gc_before);
  }
  const double purged =
      1 - std::min(1.0, static_cast<double>(kept_points) / static_cast<double>(consumed_points));
  for (const auto& [lag, bytes] : consumed) {
    const auto share = static_cast<uint64_t>(std::llround(purged * static_cast<double>(bytes)));
    if (share > 0) record->purged_bytes_by_lag[lag] += share;
  }
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
                                                       const TableSchema& schema,
                                                       bool include_failed) const {
  CompactionSnapshot snapshot;
  snapshot.now_micros = options_.clock->WallMicros();
  snapshot.gc_before = table.CompactionGcBefore(schema, snapshot.now_micros);
  for (const Table::LiveSSTable& sstable : view.sstables) {
    CompactionCandidate candidate;
    candidate.generation = sstable.generation;
    candidate.size_on_disk = sstable.reader->file_size();
    candidate.level = sstable.level;
    // A file a compaction failed to read (disk_failure_policy stop or
    // ignore) is left out, as if busy, rather than retried after every
    // flush; a major compaction (asked for by the user) still tries it.
    candidate.compacting = compacting.count(sstable.generation) > 0 ||
                           (!include_failed && table.FailedInCompaction(sstable.generation));
    candidate.stats = &sstable.reader->stats();
    snapshot.sstables.push_back(candidate);
  }
  for (const auto& memtable : {view.active, view.flushing}) {
    if (!memtable || memtable->empty()) continue;
    const int64_t min = memtable->MinTimestamp();
    snapshot.memtable_min_timestamp =
        snapshot.memtable_min_timestamp ? std::min(*snapshot.memtable_min_timestamp, min) : min;
  }
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
        SnapshotForCompaction(*table, *view, state.compacting, schema, /*include_failed=*/major);
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
  Result<bool> result =
      ExecuteCompaction(table, std::move(view), schema, task, strategy_name, major);
  --state.running;
  {
    std::lock_guard lock(state.mutex);
    for (uint64_t generation : Concat(task.inputs, task.expired)) {
      state.compacting.erase(generation);
    }
    // Only work done counts: one postponed for disk space changed nothing.
    if (result.ok() && *result) ++state.finished;
    state.compaction_finished.notify_all();
  }
  if (!result.ok()) return HandleSSTableFailure(table, result.status(), "compaction");
  return result;
}

// Token ranges a task is executed in, one after the other, each releasing
// the inputs it fully consumed. Stepping must not change the files a task
// writes (strategies rely on their output shape to converge), so a step
// ends only where the output would be cut anyway: at UCS shard boundaries,
// or, for LCS-style size-split outputs, once the inputs ending so far hold
// at least one output's worth of bytes (a step then ends an output early,
// at most once per step). Window-split (TWCS) and unsplit tasks run in one
// step: their inputs are bounded by a window or a bucket.
std::vector<int64_t> CompactionStepEnds(const CompactionTask& task,
                                        const std::vector<Table::LiveSSTable>& inputs) {
  std::vector<int64_t> ends;
  if (task.split_window_micros == 0 && inputs.size() > 1) {
    if (!task.shard_boundaries.empty()) {
      for (int64_t boundary : task.shard_boundaries) {
        if (boundary > std::numeric_limits<int64_t>::min()) ends.push_back(boundary - 1);
      }
    } else if (task.max_output_bytes > 0) {
      std::vector<std::pair<int64_t, uint64_t>> by_end;  // last token, bytes
      uint64_t total = 0;
      for (const Table::LiveSSTable& input : inputs) {
        if (input.reader->stats().partition_count == 0) continue;
        by_end.emplace_back(input.reader->stats().last_key.token, input.reader->file_size());
        total += input.reader->file_size();
      }
      if (total > task.max_output_bytes) {
        std::sort(by_end.begin(), by_end.end());
        uint64_t pending = 0;
        for (const auto& [token, bytes] : by_end) {
          pending += bytes;
          if (pending >= task.max_output_bytes) {
            ends.push_back(token);
            pending = 0;
          }
        }
      }
    }
  }
  ends.push_back(std::numeric_limits<int64_t>::max());
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  return ends;
}

Result<bool> DatabaseImpl::ExecuteCompaction(const std::shared_ptr<Table>& table,
                                             std::shared_ptr<const Table::View> view,
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

  if (task.move_only) return MoveSSTables(table, task, std::move(record), started_nanos);

  std::vector<Table::LiveSSTable> remaining;  // inputs not yet fully rewritten
  std::vector<std::shared_ptr<const SSTableReader>> others;
  // What of each input was purgeable when the compaction started: the
  // share of it the outputs no longer hold left the disk with it.
  const int64_t gc_before = table->CompactionGcBefore(schema, record.started_micros);
  std::map<uint64_t, PurgeableInput> purgeable_inputs;
  for (const Table::LiveSSTable& sstable : view->sstables) {
    if (std::count(task.inputs.begin(), task.inputs.end(), sstable.generation)) {
      remaining.push_back(sstable);
      record.bytes_read += sstable.reader->file_size();
      PurgeableInput& purgeable = purgeable_inputs[sstable.generation];
      sstable.reader->stats().AddPurgeableBytesByLag(gc_before, sstable.reader->file_size(),
                                                     &purgeable.bytes_by_lag);
      purgeable.points = sstable.reader->stats().PurgeablePoints(gc_before);
    } else if (std::count(task.expired.begin(), task.expired.end(), sstable.generation)) {
      record.bytes_dropped += sstable.reader->file_size();
      sstable.reader->stats().AddPurgeableBytesByLag(gc_before, sstable.reader->file_size(),
                                                     &record.purged_bytes_by_lag);
    } else {
      others.push_back(sstable.reader);
    }
  }
  // Purge checks consult the memtables live when they ask, never a copy of
  // the snapshot's: a compaction outlives memtables, and holding one would
  // keep it in memory after its flush, outside the memtable budget. What
  // such a memtable held is by then in SSTables the snapshot lacks, which
  // the checks consult instead.
  std::vector<uint64_t> known_generations;
  for (const Table::LiveSSTable& sstable : view->sstables) {
    known_generations.push_back(sstable.generation);
  }
  std::sort(known_generations.begin(), known_generations.end());
  CompactionController::MemtableMinTimestamp newer_sources =
      NewerSourcesMinTimestamp(table, std::move(known_generations));
  // From here on the compaction holds only what it reads: an input it has
  // released can be deleted as soon as readers are done with it.
  view.reset();

  const std::vector<int64_t> step_ends = CompactionStepEnds(task, remaining);
  std::optional<int64_t> previous_end;
  std::vector<uint64_t> to_remove = task.expired;  // dropped with the first step
  std::vector<Table::LiveSSTable> all_outputs;     // for the strategy's notification
  bool completed = true;
  bool any_step_done = false;
  for (const int64_t step_end : step_ends) {
    // This step's tokens: after the previous step's end, up to its own.
    const std::optional<TokenInterval> step_tokens = TokenInterval::Of(
        previous_end.value_or(INT64_MIN), !previous_end.has_value(), step_end, true);
    previous_end = step_end;
    if (!step_tokens) continue;
    const TokenInterval& range = *step_tokens;
    std::vector<Table::LiveSSTable> step_inputs;
    uint64_t worst_case_output = 0;
    for (const Table::LiveSSTable& input : remaining) {
      const SSTableStats& stats = input.reader->stats();
      if (stats.partition_count == 0 || stats.first_key.token > range.last ||
          stats.last_key.token < range.first || !CoveredRange(range, input.start_after_token)) {
        continue;
      }
      step_inputs.push_back(input);
      worst_case_output += input.reader->file_size();
    }
    // A step that cannot fit is postponed, never started to fail halfway
    // through on a full disk. Steps already done stay done: the inputs they
    // consumed are gone and the others carry their start bound.
    if (worst_case_output > 0) {
      CASSETTE_ASSIGN_OR_RETURN(uint64_t free_space, fs_->GetFreeSpace(table->dir()));
      if (free_space < worst_case_output) {
        ++state.postponed_for_space;
        Log(LogLevel::kWarn, "compaction of " + TableName(*table) +
                                 " postponed: its output may take " +
                                 std::to_string(worst_case_output) + " bytes, " +
                                 std::to_string(free_space) + " are free");
        if (!any_step_done) return false;
        completed = false;
        break;
      }
    }
    std::vector<Table::LiveSSTable> outputs;
    if (!step_inputs.empty()) {
      CASSETTE_ASSIGN_OR_RETURN(
          outputs, WriteCompactionOutputs(table, newer_sources, schema, task, range, step_inputs,
                                          others, &record));
    }
    // Inputs ending in this step are consumed; those reaching past it now
    // start after it.
    std::map<uint64_t, int64_t> start_bounds;
    for (const Table::LiveSSTable& input : remaining) {
      if (input.reader->stats().partition_count == 0 ||
          input.reader->stats().last_key.token <= step_end) {
        to_remove.push_back(input.generation);
      } else if (input.reader->stats().first_key.token <= step_end) {
        start_bounds[input.generation] = step_end;
      }
    }
    CASSETTE_ASSIGN_OR_RETURN(bool swapped,
                              InstallCompactionStep(table, to_remove, outputs, start_bounds));
    if (!swapped) return false;  // the table was dropped or truncated meanwhile
    for (const Table::LiveSSTable& output : outputs) {
      record.outputs.push_back(output.generation);
      record.bytes_written += output.reader->file_size();
      all_outputs.push_back(output);
    }
    std::erase_if(remaining, [&](const Table::LiveSSTable& input) {
      return std::count(to_remove.begin(), to_remove.end(), input.generation) > 0;
    });
    for (Table::LiveSSTable& input : remaining) {
      auto bound = start_bounds.find(input.generation);
      if (bound != start_bounds.end()) input.start_after_token = bound->second;
    }
    to_remove.clear();
    any_step_done = true;
  }

  AddPurgedBytesByLag(purgeable_inputs, remaining, all_outputs, gc_before, &record);
  record.duration_micros = (options_.clock->MonotonicNanos() - started_nanos) / 1000;
  ++state.completed;
  state.expired_dropped += static_cast<int64_t>(task.expired.size());
  state.tombstones_purged += static_cast<int64_t>(record.tombstones_purged);
  LogCompaction(*table, record);
  // Outside `state.mutex`: the append is I/O, and a failure only costs the
  // history (TableHistory reports it), never the compaction.
  if (state.history) state.history->AppendCompaction(record);
  {
    std::lock_guard lock(state.mutex);
    std::vector<CompactionCandidate> output_candidates;
    for (const Table::LiveSSTable& output : all_outputs) {
      output_candidates.push_back({output.generation, output.reader->file_size(), output.level,
                                   false, &output.reader->stats()});
    }
    if (state.strategy) state.strategy->OnCompactionEnd(task, output_candidates);
    state.recent.push_back(std::move(record));
    while (state.recent.size() > TableCompactionState::kMaxRecent) state.recent.pop_front();
  }
  return completed;
}

Result<bool> DatabaseImpl::MoveSSTables(const std::shared_ptr<Table>& table,
                                        const CompactionTask& task, CompactionRecord record,
                                        int64_t started_nanos) {
  std::map<uint64_t, uint32_t> levels;
  for (uint64_t generation : task.inputs) levels[generation] = task.output_level;
  {
    std::unique_lock lock(state_mutex_);
    auto table_state = state_.tables.find(table->id());
    if (table_state == state_.tables.end()) return false;
    const std::vector<SSTableEntry> previous = table_state->second.sstables;
    for (SSTableEntry& entry : table_state->second.sstables) {
      if (levels.count(entry.generation)) entry.level = task.output_level;
    }
    Status s = PersistManifestLocked();
    if (!s.ok()) {
      table_state->second.sstables = previous;
      return s;
    }
  }
  table->SetLevels(levels);
  TableCompactionState& state = table->compaction();
  record.outputs = task.inputs;  // the same files, one level up
  record.duration_micros = (options_.clock->MonotonicNanos() - started_nanos) / 1000;
  ++state.completed;
  LogCompaction(*table, record);
  if (state.history) state.history->AppendCompaction(record);
  std::vector<CompactionCandidate> moved;
  std::shared_ptr<const Table::View> view = table->view();
  for (const Table::LiveSSTable& sstable : view->sstables) {
    if (levels.count(sstable.generation)) {
      moved.push_back({sstable.generation, sstable.reader->file_size(), sstable.level, false,
                       &sstable.reader->stats()});
    }
  }
  std::lock_guard lock(state.mutex);
  if (state.strategy) state.strategy->OnCompactionEnd(task, moved);
  state.recent.push_back(std::move(record));
  while (state.recent.size() > TableCompactionState::kMaxRecent) state.recent.pop_front();
  return true;
}

Result<bool> DatabaseImpl::InstallCompactionStep(const std::shared_ptr<Table>& table,
                                                 const std::vector<uint64_t>& removed,
                                                 const std::vector<Table::LiveSSTable>& outputs,
                                                 const std::map<uint64_t, int64_t>& start_bounds) {
  uint64_t bytes_written = 0;
  for (const Table::LiveSSTable& output : outputs) bytes_written += output.reader->file_size();
  // The manifest first: it is the truth a crash recovers.
  {
    std::unique_lock lock(state_mutex_);
    auto table_state = state_.tables.find(table->id());
    if (table_state == state_.tables.end()) {  // dropped meanwhile
      for (const Table::LiveSSTable& output : outputs) output.deleter->MarkObsolete();
      return false;
    }
    std::vector<SSTableEntry>& entries = table_state->second.sstables;
    // A TRUNCATE meanwhile removed the inputs: the outputs hold truncated
    // data and must never become live. (Every step that writes outputs
    // releases or bounds at least one input, so the check sees it.)
    auto is_live = [&](uint64_t generation) {
      return std::any_of(entries.begin(), entries.end(),
                         [&](const SSTableEntry& entry) { return entry.generation == generation; });
    };
    bool inputs_gone = !std::all_of(removed.begin(), removed.end(), is_live);
    for (const auto& [generation, bound] : start_bounds) inputs_gone |= !is_live(generation);
    if (inputs_gone) {
      for (const Table::LiveSSTable& output : outputs) output.deleter->MarkObsolete();
      return false;
    }
    const std::vector<SSTableEntry> previous = entries;
    std::erase_if(entries, [&](const SSTableEntry& entry) {
      return std::count(removed.begin(), removed.end(), entry.generation) > 0;
    });
    for (SSTableEntry& entry : entries) {
      auto bound = start_bounds.find(entry.generation);
      if (bound != start_bounds.end()) entry.start_after_token = bound->second;
    }
    for (const Table::LiveSSTable& output : outputs) {
      entries.push_back({output.generation, output.level, std::nullopt});
    }
    Status s = PersistManifestLocked();
    if (!s.ok()) {
      entries = previous;
      for (const Table::LiveSSTable& output : outputs) output.deleter->MarkObsolete();
      return s;
    }
  }
  table->ReplaceSSTables(removed, outputs, bytes_written, start_bounds);
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
                      std::make_shared<ObsoleteFileDeleter>(fs_, output.path), std::nullopt});
  }
  return opened;
}

CompactionController::MemtableMinTimestamp DatabaseImpl::NewerSourcesMinTimestamp(
    std::shared_ptr<Table> table, std::vector<uint64_t> known_generations) {
  // Memtables are consulted per key: a memtable holding the partition may
  // hold data a purged tombstone would otherwise have shadowed. Memtables
  // switched in after the snapshot hold only newer writes, which default
  // timestamps make newer than anything being purged; writes with an
  // explicit old timestamp are the user's risk, as in Cassandra. SSTables
  // that joined the table since the snapshot were flushed from memtables
  // it had (or compacted from those), so they answer for them; this
  // compaction's own outputs among them never cover the key being merged.
  return [table = std::move(table),
          known = std::move(known_generations)](const DecoratedKey& key) -> std::optional<int64_t> {
    const std::shared_ptr<const Table::View> view = table->view();
    std::optional<int64_t> min;
    auto note = [&min](int64_t timestamp) { min = min ? std::min(*min, timestamp) : timestamp; };
    for (const auto& memtable : {view->active, view->flushing}) {
      if (memtable && !memtable->empty() && memtable->ContainsPartition(key)) {
        note(memtable->MinTimestamp());
      }
    }
    for (const Table::LiveSSTable& sstable : view->sstables) {
      if (!std::binary_search(known.begin(), known.end(), sstable.generation) &&
          sstable.reader->MayContainKey(key)) {
        note(sstable.reader->stats().min_timestamp);
      }
    }
    return min;
  };
}

Result<std::vector<Table::LiveSSTable>> DatabaseImpl::WriteCompactionOutputs(
    const std::shared_ptr<Table>& table,
    const CompactionController::MemtableMinTimestamp& newer_sources, const TableSchema& schema,
    const CompactionTask& task, const TokenInterval& range,
    const std::vector<Table::LiveSSTable>& inputs,
    const std::vector<std::shared_ptr<const SSTableReader>>& others, CompactionRecord* record) {
  const int64_t now_micros = options_.clock->WallMicros();
  const int64_t now_sec = NowInSeconds(now_micros);
  const int64_t gc_before = table->CompactionGcBefore(schema, now_micros);
  CompactionController controller(gc_before, std::move(others), newer_sources);
  std::vector<std::unique_ptr<PartitionIterator>> scanners;
  std::vector<const SSTableStats*> input_stats;
  uint64_t input_bytes = 0;
  for (const Table::LiveSSTable& input : inputs) {
    std::optional<TokenInterval> covered = CoveredRange(range, input.start_after_token);
    if (!covered) continue;
    scanners.push_back(input.reader->NewScanner(*covered, nullptr));
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
  record->partitions_in += stats.partitions_read;
  record->partitions_out += stats.partitions_written;
  record->rows_in += stats.rows_read;
  record->rows_out += stats.rows_written;
  record->tombstones_purged += stats.tombstones_purged();
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
  // Settled means what the compaction threads would leave if time stood
  // still: inputs a background compaction holds are not skipped but waited
  // for, and its output may make new work. Done once a pass proposes
  // nothing while no compaction runs or finished meanwhile.
  TableCompactionState& state = table->compaction();
  while (true) {
    uint64_t finished_before;
    {
      std::lock_guard lock(state.mutex);
      finished_before = state.finished;
    }
    Status compacted = CompactTableLocked(table);
    if (!compacted.ok()) {
      Log(LogLevel::kError,
          "compaction of " + TableName(*table) + " failed: " + compacted.ToString());
      return compacted;
    }
    NoteBackgroundSuccess(*table, table->background().compaction, "compaction");
    std::unique_lock lock(state.mutex);
    if (state.compacting.empty() && state.finished == finished_before) return Status::OK();
    state.WaitWhileCompacting(lock);
  }
}

Status DatabaseImpl::CompactMajor(const std::string& keyspace, const std::string& table_name) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  // Every SSTable, not the ones no background compaction holds right now.
  TableCompactionState& state = table->compaction();
  {
    std::unique_lock lock(state.mutex);
    state.WaitWhileCompacting(lock);
  }
  Status compacted = RunOneCompaction(table, /*major=*/true).status();
  if (!compacted.ok()) {
    Log(LogLevel::kError,
        "major compaction of " + TableName(*table) + " failed: " + compacted.ToString());
  }
  return compacted;
}

void DatabaseImpl::MaybeScheduleCompaction(const std::shared_ptr<Table>& table, bool retry) {
  BackgroundRetry& failures = table->background().compaction;
  if (!options_.auto_compaction || closed_ || (!retry && failures.failing())) {
    if (retry) failures.Unclaim();
    return;
  }
  TableCompactionState& state = table->compaction();
  if (state.scheduled.exchange(true)) {
    if (retry) failures.Unclaim();  // the job queued or running decides
    return;
  }
  auto job = [this, table] {
    // A failure leaves the inputs live; it is logged and retried after a
    // delay (ScheduleDueRetries), not after every flush.
    if (!closed_) {
      Status s = CompactTableLocked(table);
      BackgroundRetry& failures = table->background().compaction;
      if (s.ok()) {
        NoteBackgroundSuccess(*table, failures, "compaction");
      } else if (!closed_) {
        NoteBackgroundFailure(*table, failures, "compaction", s, /*counted=*/true);
      }
    }
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
