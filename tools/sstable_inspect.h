// What the `cassette sstable` tools share: finding the database and table
// an SSTable belongs to, opening that database read-only, walking a file's
// partition index, and printing instants. Internal to tools/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/schema.h"
#include "engine/sstable/sstable_reader.h"
#include "tools/sstable_command.h"

namespace cassette::tools {

// Where a file lies in a data directory: <data>/<ks>/<table>-<id>/<gen>.sst.
struct SSTableLocation {
  std::string data_dir;
  std::string keyspace;
  std::string table;
  uint64_t table_id = 0;
};
// nullopt when the path does not have that shape.
std::optional<SSTableLocation> LocateSSTable(const std::string& path);

// The database of `data_dir` opened read-only (beside a running process),
// damaged SSTables skipped rather than fatal; its clock at `at_micros`
// when given.
Result<std::unique_ptr<Database>> OpenReadOnly(std::shared_ptr<FileSystem> fs,
                                               const std::string& data_dir,
                                               std::optional<int64_t> at_micros);

// The schema of the table `file` belongs to, read from the MANIFEST of
// --data (with ks.table) when given, else of the directory the file lives in. nullopt (and the
// reason in *why) when it cannot be found: the tools then print raw bytes.
std::optional<TableSchema> ResolveSchema(const SSTableSettings& settings,
                                         std::shared_ptr<FileSystem> fs, const std::string& file,
                                         std::string* why);

// One partition index entry, in partition order.
struct IndexedPartition {
  std::string sort_key;
  uint64_t data_position = 0;
  uint64_t partition_length = 0;
  uint64_t index_block_offset = 0;  // where the entry was read (for errors)
};
// Every partition index entry of the file; Corruption names file and offset.
Result<std::vector<IndexedPartition>> ReadPartitionIndex(const SSTableReader& reader);

// Microseconds as "2024-01-15T10:15:00.000001Z" (every digit of a write
// timestamp); seconds (a local deletion time) as FormatIsoMicros does.
std::string FormatTimestampMicros(int64_t micros);
std::string FormatLocalSeconds(int64_t seconds);
// Now, or the instant the settings name (--now / --gc-before).
int64_t NowMicros(const SSTableSettings& settings);
std::string HexBytes(std::string_view bytes);

// The tools, each returning its exit code.
int RunDump(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs, std::ostream& out,
            std::ostream& err);
int RunExpiredBlockers(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs,
                       std::ostream& out, std::ostream& err);
int RunLayout(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs, std::ostream& out,
              std::ostream& err);

}  // namespace cassette::tools
