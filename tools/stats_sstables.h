// What `cassette stats` adds to nodetool tablestats: each table's SSTables
// (nodetool tablehistograms and sstablemetadata, per file) and its
// compaction history (nodetool compactionhistory), as text and JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/schema.h"
#include "cassette/status.h"

namespace cassette::tools {

// One live SSTable of a table, as the MANIFEST lists it.
struct SSTableSummary {
  uint64_t generation = 0;
  uint32_t level = 0;
  uint64_t bytes_on_disk = 0;
  uint64_t partitions = 0;
  uint64_t rows = 0;
  uint64_t cells = 0;
  uint64_t tombstone_cells = 0;
  // Write timestamps (microseconds); absent for a file holding nothing.
  std::optional<int64_t> min_timestamp;
  std::optional<int64_t> max_timestamp;
  int32_t max_ttl = 0;
  // When every cell is past TTL (or deletion) + gc_grace (sstable
  // expired-blockers' test); absent when a cell never expires.
  std::optional<int64_t> fully_expired_at_micros;
  // sstablemetadata's "Estimated droppable tombstones" at now - gc_grace.
  double droppable_tombstone_ratio = 0;
};

// The table's live SSTables, oldest generation first. A file that does
// not open is left out (the table's statistics list it as damaged).
Result<std::vector<SSTableSummary>> ListSSTables(FileSystem* fs, const std::string& data_dir,
                                                 const TableSchema& schema, int64_t now_micros);

// Indented text lines under a table's statistics block, and JSON arrays.
std::string SSTableListText(const std::vector<SSTableSummary>& sstables);
std::string SSTableListJson(const std::vector<SSTableSummary>& sstables);
std::string CompactionHistoryText(const std::vector<CompactionRecord>& history);
std::string CompactionHistoryJson(const std::vector<CompactionRecord>& history);

}  // namespace cassette::tools
