// Options::disk_failure_policy: what the database does about an SSTable
// that fails its checks at open, in a read or in a compaction. Cassandra's
// names and, where an embedded store can follow them, its meanings
// (docs/RELIABILITY.md, "Disk failure policy (SSTables)"):
//   stop         an SSTable that does not load refuses the open (Cassandra
//                kills the JVM on a startup error); later errors fail the
//                request that met them;
//   best_effort  the SSTable leaves the table's live set and stays out,
//                recorded in the manifest; the file is never deleted;
//   ignore       open skips what does not load; requests that meet damage
//                fail.
// An error belongs to an SSTable when its message names the file: every
// SSTable error does ("sstable <path>: ... at offset N").
#include <algorithm>

#include "engine/db/database_impl.h"

namespace cassette {
namespace {

// Whether `message` names the file `path` (followed by ':' or a blank, or
// ending there, so 000001.sst is not taken for 0000012.sst).
bool NamesFile(std::string_view message, std::string_view path) {
  for (size_t at = message.find(path); at != std::string_view::npos;
       at = message.find(path, at + 1)) {
    const size_t end = at + path.size();
    if (end == message.size() || message[end] == ':' || message[end] == ' ') return true;
  }
  return false;
}

Status WithNote(const Status& error, const std::string& note) {
  return Status(error.code(), error.message() + "; " + note);
}

}  // namespace

Status DatabaseImpl::HandleSSTableOpenFailure(TableState& state, const SSTableEntry& entry,
                                              const std::string& path, const Status& error,
                                              SSTableFailure* failure) {
  *failure = SSTableFailure{path, entry.generation, error.ToString(), "open", false};
  switch (options_.disk_failure_policy) {
    case DiskFailurePolicy::kStop:
      return WithNote(error,
                      "disk_failure_policy stop: the database does not open. Restore the file, "
                      "or open with disk_failure_policy best_effort (takes it out of service "
                      "for good) or ignore (skips it this time)");
    case DiskFailurePolicy::kBestEffort:
      failure->out_of_service = true;
      std::erase(state.sstables, entry);
      state.out_of_service.push_back({entry.generation, "open", failure->error});
      return Status::OK();
    case DiskFailurePolicy::kIgnore:
      return Status::OK();
  }
  return error;
}

Status DatabaseImpl::HandleSSTableFailure(const std::shared_ptr<Table>& table, const Status& error,
                                          const char* found_by) {
  if (!error.IsCorruption() && !error.IsIOError()) return error;
  SSTableFailure failure;
  {
    const std::shared_ptr<const Table::View> view = table->view();
    for (const Table::LiveSSTable& sstable : view->sstables) {
      if (NamesFile(error.message(), sstable.reader->path())) {
        failure = {sstable.reader->path(), sstable.generation, error.ToString(), found_by, false};
        break;
      }
    }
  }
  if (failure.path.empty()) return error;  // not an SSTable's (or no longer live)
  Log(LogLevel::kError, std::string(found_by) + " of " + TableName(*table) +
                            " met a damaged SSTable: " + error.ToString());
  if (options_.disk_failure_policy != DiskFailurePolicy::kBestEffort) {
    table->NoteSSTableFailure(failure);
    return error;
  }
  Status taken = TakeSSTableOutOfService(table, failure);
  if (!taken.ok()) {
    table->NoteSSTableFailure(failure);
    return WithNote(error, "disk_failure_policy best_effort could not take " + failure.path +
                               " out of service: " + taken.ToString());
  }
  Log(LogLevel::kWarn, failure.path +
                           " is out of service from now on (disk_failure_policy "
                           "best_effort; kept on disk, never read)");
  return WithNote(error, "disk_failure_policy best_effort: " + failure.path +
                             " is out of service from now on (kept on disk; reads answer "
                             "from the other SSTables)");
}

Status DatabaseImpl::TakeSSTableOutOfService(const std::shared_ptr<Table>& table,
                                             const SSTableFailure& failure) {
  {
    std::unique_lock lock(state_mutex_);
    auto state = state_.tables.find(table->id());
    if (state == state_.tables.end()) return Status::OK();  // dropped meanwhile
    std::vector<SSTableEntry>& entries = state->second.sstables;
    auto entry = std::find_if(entries.begin(), entries.end(), [&](const SSTableEntry& e) {
      return e.generation == failure.generation;
    });
    // Already replaced by a compaction's outputs, or already out.
    if (entry == entries.end()) return Status::OK();
    const TableState previous = state->second;
    entries.erase(entry);
    state->second.out_of_service.push_back({failure.generation, failure.found_by, failure.error});
    // The manifest first, as for a compaction: a compaction running with
    // the file as input now finds it gone and discards its outputs. A
    // read-only view keeps the decision in memory.
    if (!options_.read_only) {
      Status s = PersistManifestLocked();
      if (!s.ok()) {
        state->second = previous;
        return s;
      }
    }
    table->TakeOutOfService(failure.generation);
  }
  SSTableFailure out = failure;
  out.out_of_service = true;
  table->NoteSSTableFailure(std::move(out));
  return Status::OK();
}

}  // namespace cassette
