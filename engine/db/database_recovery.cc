// Open's recovery steps: refusing to start over a directory whose
// MANIFEST is gone, loading the live SSTables, cleaning up what the
// manifest accounts for as garbage (and only that), and replaying the
// commit log under the commit-failure policy.
#include <algorithm>
#include <charconv>

#include "engine/commitlog/commit_log_format.h"
#include "engine/db/commit_record.h"
#include "engine/db/database_impl.h"
#include "engine/db/table_history.h"
#include "engine/env/file_logger.h"

namespace cassette {
namespace {

// The number in "<digits><suffix>", or nullopt.
std::optional<uint64_t> NumberBefore(std::string_view name, std::string_view suffix) {
  if (name.size() <= suffix.size() || !name.ends_with(suffix)) return std::nullopt;
  name.remove_suffix(suffix.size());
  uint64_t number = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), number);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return number;
}

// The generation in "<generation>.sst", or 0 when the name is not an SSTable.
uint64_t GenerationOf(std::string_view name) { return NumberBefore(name, ".sst").value_or(0); }

// The table id in a table directory's name "<table>-<id>".
std::optional<uint64_t> TableIdOf(std::string_view name) {
  const size_t dash = name.rfind('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == name.size()) return std::nullopt;
  uint64_t id = 0;
  auto [ptr, ec] = std::from_chars(name.data() + dash + 1, name.data() + name.size(), id);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return id;
}

}  // namespace

Status DatabaseImpl::CheckNothingToLose() const {
  if (!fs_->FileExists(path_)) return Status::OK();
  Result<std::vector<std::string>> entries = fs_->GetChildren(path_);
  if (!entries.ok()) return Status::OK();  // not a directory: creating it will say so
  uint64_t sstables = 0;
  for (const std::string& keyspace : *entries) {
    auto table_dirs = fs_->GetChildren(path_ + "/" + keyspace);
    if (keyspace == "commitlog" || !table_dirs.ok()) continue;
    for (const std::string& table_dir : *table_dirs) {
      auto files = fs_->GetChildren(path_ + "/" + keyspace + "/" + table_dir);
      if (!files.ok()) continue;
      for (const std::string& file : *files) sstables += GenerationOf(file) != 0 ? 1 : 0;
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(std::vector<uint64_t> segments,
                            ListCommitLogSegments(fs_, CommitLogDir()));
  if (sstables == 0 && segments.empty()) return Status::OK();
  return Status::Corruption(
      path_ + "/" + kManifestFileName + " is missing, but " + path_ + " holds " +
      std::to_string(sstables) + " SSTables and " + std::to_string(segments.size()) +
      " commit-log segments: refusing to open it, because a new, empty database would delete "
      "them. Restore the MANIFEST (from a backup or snapshot), or move the files away to start "
      "afresh");
}

Status DatabaseImpl::LoadTables() {
  bool taken_out = false;
  for (auto& [id, table_state] : state_.tables) {
    const std::string dir = TableDir(table_state.schema, id);
    std::vector<Table::LiveSSTable> sstables;
    std::vector<SSTableFailure> failures;
    for (const OutOfServiceSSTable& out : table_state.out_of_service) {
      failures.push_back(
          {SSTablePath(dir, out.generation), out.generation, out.error, out.found_by, true});
    }
    // A copy: an SSTable taken out of service leaves table_state.sstables.
    for (const SSTableEntry& entry : std::vector<SSTableEntry>(table_state.sstables)) {
      const std::string path = SSTablePath(dir, entry.generation);
      auto reader = SSTableReader::Open(fs_, path, block_cache_.get());
      if (!reader.ok()) {
        SSTableFailure& failure = failures.emplace_back();
        CASSETTE_RETURN_IF_ERROR(
            HandleSSTableOpenFailure(table_state, entry, path, reader.status(), &failure));
        taken_out |= failure.out_of_service;
        continue;
      }
      sstables.push_back({entry.generation, entry.level, std::move(reader).value(),
                          std::make_shared<ObsoleteFileDeleter>(fs_, path),
                          entry.start_after_token});
    }
    auto table = std::make_shared<Table>(id, table_state.schema, dir, std::move(sstables));
    for (const SSTableFailure& failure : failures) {
      table->NoteSSTableFailure(failure);
      recovery_.sstable_failures.push_back(failure);
    }
    table->RestoreCounters(table_state.counters);
    // The compactions and write stalls of earlier runs. A damaged history
    // is reported in the table's statistics, never a reason not to open.
    auto history =
        std::make_unique<TableHistory>(fs_, options_.clock.get(), dir, options_.read_only);
    TableHistory::Loaded earlier = history->Load();
    table->flush_state().RestoreStallTotals(earlier.stalls);
    {
      std::lock_guard lock(table->compaction().mutex);
      table->compaction().recent.assign(earlier.compactions.begin(), earlier.compactions.end());
      table->compaction().history = std::move(history);
      // The schema validated when it was created; a strategy that no longer
      // builds is reported by the first flush or compaction.
      EnsureStrategy(*table, table_state.schema).IgnoreError();
    }
    tables_[id] = std::move(table);
  }
  // Out of service for good: a reopen, whatever its policy, must find the
  // table as this run leaves it.
  if (taken_out && !options_.read_only) return PersistManifestLocked();
  return Status::OK();
}

// Only what the manifest (read and verified by now) accounts for is
// deleted: in a live table's directory, an SSTable it does not list is the
// output of a flush or compaction that a crash cut short; a directory whose
// table id the manifest allocated and no longer holds is a dropped table's.
// Anything else (other names, directories of ids it never allocated, files
// that are not SSTables) is reported and left alone.
Status DatabaseImpl::RemoveOrphanFiles() {
  auto unknown = [this](std::string path) { recovery_.unknown_files.push_back(std::move(path)); };
  CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> entries, fs_->GetChildren(path_));
  for (const std::string& name : entries) {
    const std::string entry = path_ + "/" + name;
    if (name == kLockFileName || name == kManifestFileName ||
        name == std::string(kManifestFileName) + ".tmp" || IsLogFileName(name)) {
      continue;
    }
    if (name == "commitlog") {
      auto files = fs_->GetChildren(entry);
      if (!files.ok()) {
        unknown(entry);
        continue;
      }
      for (const std::string& file : *files) {
        if (!ParseCommitLogSegmentFileName(file)) unknown(entry + "/" + file);
      }
      continue;
    }
    auto table_dirs = fs_->GetChildren(entry);
    if (!IsValidTableOrKeyspaceName(name) || !table_dirs.ok()) {
      unknown(entry);
      continue;
    }
    for (const std::string& table_dir_name : *table_dirs) {
      const std::string table_dir = entry + "/" + table_dir_name;
      const std::optional<uint64_t> id = TableIdOf(table_dir_name);
      const TableState* live = nullptr;
      bool dropped = false;
      if (id) {
        auto it = state_.tables.find(*id);
        if (it != state_.tables.end()) {
          if (TableDir(it->second.schema, *id) == table_dir) live = &it->second;
        } else {
          dropped = *id < state_.next_table_id;
        }
      }
      auto files = fs_->GetChildren(table_dir);
      if (!files.ok() || (live == nullptr && !dropped)) {
        unknown(table_dir);
        continue;
      }
      for (const std::string& file : *files) {
        // The table's history is the table's own: kept while the table
        // lives, deleted with a dropped one. HISTORY.tmp is a rewrite a
        // crash cut short (HISTORY is still whole).
        const bool history = file == kHistoryFileName || file == kHistoryTempFileName;
        if (history && live != nullptr && file == kHistoryFileName) continue;
        if (history) {
          CASSETTE_RETURN_IF_ERROR(fs_->DeleteFile(table_dir + "/" + file));
          recovery_.removed_files.push_back(table_dir + "/" + file);
          continue;
        }
        const uint64_t generation = GenerationOf(file);
        if (generation == 0) {
          unknown(table_dir + "/" + file);
          continue;
        }
        const bool in_manifest =
            live != nullptr &&
            (std::any_of(live->sstables.begin(), live->sstables.end(),
                         [&](const SSTableEntry& e) { return e.generation == generation; }) ||
             std::any_of(live->out_of_service.begin(), live->out_of_service.end(),
                         [&](const OutOfServiceSSTable& e) { return e.generation == generation; }));
        if (in_manifest) continue;
        CASSETTE_RETURN_IF_ERROR(fs_->DeleteFile(table_dir + "/" + file));
        recovery_.removed_files.push_back(table_dir + "/" + file);
      }
      if (dropped) fs_->DeleteDir(table_dir).IgnoreError();  // not when it holds unknown files
    }
    if (state_.keyspaces.count(name) == 0) fs_->DeleteDir(entry).IgnoreError();  // when empty
  }
  return Status::OK();
}

Status DatabaseImpl::ReplayCommitLog(uint64_t* next_segment_id, bool* replayed,
                                     std::vector<CommitLogSegmentFile>* segments) {
  *replayed = false;
  ReplayOptions replay;
  replay.skip_damage = options_.commit_failure_policy == CommitFailurePolicy::kIgnore;
  uint64_t newest_named = 0;
  for (const auto& [id, table_state] : state_.tables) {
    newest_named = std::max(newest_named, table_state.persisted.segment_id);
  }
  if (!options_.read_only) {
    // A read-only view races the writer, which may delete segments after
    // the manifest this view read: it checks only what it can see.
    replay.first_required_segment = state_.commitlog_first_segment;
    replay.newest_known_segment = newest_named;
  }
  ReplayStats stats;
  std::vector<PartitionUpdate> updates;
  CASSETTE_RETURN_IF_ERROR(cassette::ReplayCommitLog(
      fs_, CommitLogDir(), replay,
      [&](const CommitLogPosition& position, std::string_view record) -> Status {
        CASSETTE_RETURN_IF_ERROR(DecodeCommitRecord(record, &updates));
        bool applied = false;
        for (const PartitionUpdate& update : updates) {
          auto table = tables_.find(update.table_id);
          if (table == tables_.end()) continue;                                // dropped since
          if (position <= state_.tables[update.table_id].persisted) continue;  // flushed
          table->second->Apply(update);
          applied = true;
        }
        *replayed |= applied;
        recovery_.commitlog_records_replayed += applied ? 1 : 0;
        return Status::OK();
      },
      &stats));
  recovery_.commitlog_segments_read = stats.segments;
  recovery_.commitlog_torn_bytes_dropped = stats.torn_tail ? stats.discarded_bytes : 0;
  recovery_.commitlog_damage_skipped = stats.damage;
  recovery_.commitlog_records_lost = stats.records_lost;
  // The previous run's last segment stops being the last one once a new
  // segment starts: cut its torn tail and seal it, so a later replay
  // takes neither for corruption.
  if (!options_.read_only) CASSETTE_RETURN_IF_ERROR(SealCommitLogTail(fs_, CommitLogDir(), stats));
  CASSETTE_ASSIGN_OR_RETURN(*segments, ListCommitLogSegmentFiles(fs_, CommitLogDir()));
  // Never an id the manifest already names (its segment may be the one
  // lost), nor one below a segment present.
  uint64_t newest = std::max(newest_named, state_.commitlog_first_segment);
  if (!segments->empty()) newest = std::max(newest, segments->back().id);
  *next_segment_id = newest + 1;
  // From now on the log must hold every segment from its oldest present
  // one (or, when it holds none, from the one about to be created): record
  // that, so a segment lost before the next discard is noticed too.
  const uint64_t first = segments->empty() ? *next_segment_id : segments->front().id;
  if (!options_.read_only && first > state_.commitlog_first_segment) {
    state_.commitlog_first_segment = first;
    CASSETTE_RETURN_IF_ERROR(PersistManifestLocked());
  }
  return Status::OK();
}

}  // namespace cassette
