// DatabaseImpl::Truncate (CQL TRUNCATE, Cassandra's
// ColumnFamilyStore.truncateBlocking without the snapshot).
//
// Cassandra records a truncation time and commit-log position per table
// (system.local truncated_at) and replay skips what precedes it. cassette's
// manifest already keeps such a position per table: `persisted`, before
// which replay skips every record of the table. A truncation therefore is
// one manifest rewrite: no SSTables, and `persisted` moved to the end of the
// commit log. That rewrite is the commit point: a crash before it keeps
// every row, a crash after it brings none back (the files it no longer
// names are deleted at the next open).
//
// Nothing may slip between the position noted and the memtable emptied:
// the write barrier is held exclusively across both (a write appended to
// the log before the position is in the memtable being dropped; a write
// after it lands in the new memtable and is replayed). Flushes are
// excluded by the flush mutex; a compaction running meanwhile finds its
// inputs gone from the manifest and discards its outputs
// (InstallCompactionStep).
#include "engine/db/database_impl.h"

namespace cassette {

Status DatabaseImpl::Truncate(const std::string& keyspace, const std::string& table_name) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, FindTable(keyspace, table_name));
  std::lock_guard flush(flush_mutex_);
  {
    std::unique_lock barrier(write_barrier_);
    std::unique_lock lock(state_mutex_);
    auto state = state_.tables.find(table->id());
    if (state == state_.tables.end()) {  // dropped meanwhile
      return Status::InvalidRequest("table " + table_name + " does not exist");
    }
    const TableState previous = state->second;
    state->second.sstables.clear();
    state->second.out_of_service.clear();  // their data goes with the rest
    if (commit_log_) state->second.persisted = commit_log_->CurrentPosition();
    Status s = PersistManifestLocked();
    if (!s.ok()) {
      state->second = previous;
      return s;
    }
    table->Truncate();
  }
  // The dropped memtable may have been the last holder of old segments.
  return DiscardObsoleteCommitLog();
}

}  // namespace cassette
