// The HISTORY file of a table: an append-only log of the table's finished
// compactions and of its memtable write-stall totals, so that statistics
// outlive the process that counted them (Cassandra keeps the same in
// system.compaction_history, which nodetool compactionhistory reads).
// Format: engine/db/FORMAT.md "HISTORY".
//
// This file holds the record codec and the reader; TableHistory
// (table_history.h) writes, bounds and removes the file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/status.h"

namespace cassette {

inline constexpr char kHistoryFileName[] = "HISTORY";
inline constexpr char kHistoryTempFileName[] = "HISTORY.tmp";

// Lifetime memtable write-stall figures of a table. Cumulative: the last
// such record of the file is the one that counts.
struct WriteStallTotals {
  int64_t stalls = 0;
  int64_t stalled_micros = 0;
  int64_t last_stall_micros = 0;  // database clock; 0 when none ever began
  bool operator==(const WriteStallTotals&) const = default;
};

// The file's header, alone: what a new or rewritten file starts with.
std::string EncodeHistoryHeader();
// One framed record (length, checksum, body), ready to append.
std::string EncodeCompactionHistoryRecord(const CompactionRecord& record);
std::string EncodeWriteStallHistoryRecord(const WriteStallTotals& totals);

struct HistoryFileContents {
  std::vector<CompactionRecord> compactions;  // in file order (oldest first)
  WriteStallTotals stalls;                    // the last stall record's
  // Bytes of the file up to the end of the last good record.
  uint64_t valid_bytes = 0;
  // The file ends in a record cut short (a write a crash or power loss
  // interrupted): its bytes were ignored, as the commit log ignores a torn
  // tail.
  uint64_t torn_tail_bytes = 0;
  // Damage before the end ("<path>: ... at offset N"): the records from
  // that offset on were not read.
  std::vector<std::string> damage;
};

// Decodes a whole file's bytes; `path` only names it in damage reports.
HistoryFileContents DecodeHistoryFile(std::string_view bytes, const std::string& path);

// Reads and decodes `path`. A missing file is an empty history; an I/O
// error reading it is reported in `damage` (never fatal: the history is
// statistics, not data).
HistoryFileContents ReadHistoryFile(FileSystem* fs, const std::string& path);

}  // namespace cassette
