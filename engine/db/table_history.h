// TableHistory: a table's HISTORY file (history_file.h) as the database
// writes it: one record appended, and synced, per finished compaction,
// the write-stall totals appended when they changed (after a flush, and at
// close), and the file kept bounded by rewriting it crash-safely (write
// HISTORY.tmp, sync, rename, sync the directory) with the newest records.
//
// A failed write never fails what it records: it is reported in
// warnings() and the next write rewrites the whole file, so a record cut
// short by the failure never sits in the middle of the file.
//
// Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "cassette/clock.h"
#include "cassette/db.h"
#include "cassette/file_system.h"
#include "engine/db/history_file.h"

namespace cassette {

class TableHistory {
 public:
  // Compaction records kept: the newest this many, of the last
  // kRetentionMicros (Cassandra keeps system.compaction_history rows for
  // 7 days). The file is rewritten once it holds twice as many.
  static constexpr size_t kKeptCompactions = 100;
  static constexpr int64_t kRetentionMicros = 7LL * 24 * 3600 * 1000000;

  // `read_only`: Load never repairs and nothing is ever written.
  TableHistory(FileSystem* fs, const Clock* clock, std::string dir, bool read_only);

  struct Loaded {
    std::vector<CompactionRecord> compactions;  // oldest first
    WriteStallTotals stalls;
  };
  // Reads the file. Damage and a torn tail are left out (damage is
  // reported in warnings()); unless read-only, a file that needs it is
  // rewritten with what was read (torn tail, damage, too many or too old
  // records). Never fails: a history that cannot be read is empty.
  Loaded Load();

  void AppendCompaction(const CompactionRecord& record);
  // Appends `totals` unless they are what the file holds already.
  void AppendWriteStalls(const WriteStallTotals& totals);
  // DROP TABLE: deletes the file; later appends do nothing.
  void Remove();

  std::vector<std::string> warnings() const;
  std::string path() const { return dir_ + "/" + kHistoryFileName; }

 private:
  // REQUIRES: mu_ held. Appends `framed` (the header first into an empty
  // file), or rewrites the file when an earlier write failed.
  void WriteLocked(const std::string& framed);
  // REQUIRES: mu_ held. Replaces the file with the kept records.
  Status RewriteLocked();
  void DropExpiredLocked();

  FileSystem* const fs_;
  const Clock* const clock_;
  const std::string dir_;
  const bool read_only_;

  mutable std::mutex mu_;
  std::deque<CompactionRecord> kept_;  // guarded by mu_
  WriteStallTotals stalls_written_;    // guarded by mu_
  uint64_t file_bytes_ = 0;            // guarded by mu_; 0: no file (or an empty one)
  size_t records_in_file_ = 0;         // guarded by mu_
  bool needs_rewrite_ = false;         // guarded by mu_
  bool removed_ = false;               // guarded by mu_
  std::vector<std::string> warnings_;  // guarded by mu_
};

}  // namespace cassette
