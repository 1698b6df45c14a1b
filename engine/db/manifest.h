// Manifest: the durable state of a database directory — the schema, the
// live SSTables of every table and how far each table's data is persisted
// (its commit-log replay position). It is rewritten whole on every change
// and installed atomically (write MANIFEST.tmp, fsync, rename, fsync the
// directory), so a crash leaves either the old or the new state.
// Format: engine/db/FORMAT.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/commitlog/commit_log_position.h"

namespace cassette {

struct SSTableEntry {
  uint64_t generation = 0;
  uint32_t level = 0;  // used by leveled strategies
  // Set while a compaction that releases its inputs incrementally has
  // already rewritten this file's partitions with tokens <= the bound:
  // readers skip them here (they live in the outputs).
  std::optional<int64_t> start_after_token;
  friend bool operator==(const SSTableEntry&, const SSTableEntry&) = default;
};

// A table's lifetime statistics (what `cassette stats` reports), carried
// across restarts. Written with every manifest change and at Close(); a
// crash loses the counts since the last manifest write (never data).
struct TableCounters {
  uint64_t bytes_written_by_users = 0;
  uint64_t bytes_flushed = 0;
  uint64_t bytes_compacted = 0;
  uint64_t compactions_completed = 0;
  uint64_t expired_sstables_dropped = 0;
  uint64_t tombstones_purged = 0;
  uint64_t late_writes = 0;
  friend bool operator==(const TableCounters&, const TableCounters&) = default;
};

// What the database has written to its device over its life (every byte
// appended to its files, the commit log's share, fsyncs of files and
// directories): what wears flash. Carried across restarts like
// TableCounters; a crash loses the counts since the last manifest write.
struct DeviceCounters {
  uint64_t bytes_written = 0;
  uint64_t commitlog_bytes_written = 0;
  uint64_t syncs = 0;
  friend bool operator==(const DeviceCounters&, const DeviceCounters&) = default;
};

// An SSTable taken out of service (DiskFailurePolicy::kBestEffort): the
// file stays where it is and is never read, compacted or deleted.
struct OutOfServiceSSTable {
  uint64_t generation = 0;
  std::string found_by;  // "open", "read" or "compaction"
  std::string error;     // what was met, naming the file and offset
  friend bool operator==(const OutOfServiceSSTable&, const OutOfServiceSSTable&) = default;
};

struct TableState {
  TableSchema schema;
  std::vector<SSTableEntry> sstables;
  // Every commit-log record at or before this position is in the SSTables.
  CommitLogPosition persisted;
  TableCounters counters;
  // Not in `sstables`: neither live nor garbage.
  std::vector<OutOfServiceSSTable> out_of_service;
};

struct ManifestState {
  uint64_t next_table_id = 1;
  uint64_t next_generation = 1;
  // Commit-log segments before this id may have been deleted (every record
  // in them was flushed); every one from it on must be present. Raised
  // before the log deletes a segment, so a missing one is never mistaken
  // for a discarded one. 0: not recorded (version 3 and older manifests).
  uint64_t commitlog_first_segment = 0;
  // As of this manifest's write (the write itself not included). 0 in
  // manifests before version 5.
  DeviceCounters device;
  std::map<std::string, KeyspaceSchema> keyspaces;
  std::map<uint64_t, TableState> tables;  // by table id

  // The table named keyspace.table, or nullptr.
  const TableState* FindTable(std::string_view keyspace, std::string_view table) const;
};

inline constexpr char kManifestFileName[] = "MANIFEST";

void EncodeManifest(const ManifestState& state, std::string* out);
Status DecodeManifest(std::string_view in, ManifestState* state);

// Atomically replaces dir/MANIFEST.
Status WriteManifest(FileSystem* fs, const std::string& dir, const ManifestState& state);
// nullopt when dir/MANIFEST does not exist.
Result<std::optional<ManifestState>> ReadManifest(FileSystem* fs, const std::string& dir);

}  // namespace cassette
