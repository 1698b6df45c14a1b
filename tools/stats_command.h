// `cassette stats`: per-table statistics (nodetool tablestats), read from a
// read-only second view of the data directory, so it works beside a shell
// or an application holding the directory.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "cassette/db.h"
#include "cassette/file_system.h"
#include "tools/command_line.h"

namespace cassette::tools {

// Prints the statistics of the selected tables, then the database's device
// counters; returns the exit code (0, or 1 with the reason on `err`).
int RunStatsCommand(const StatsSettings& settings, std::shared_ptr<FileSystem> file_system,
                    std::ostream& out, std::ostream& err);

// One table's report as `cassette stats` prints it: the nodetool-style
// block, its SSTables and its compaction history (text), or one JSON
// object and a newline. `fs` and `data_dir` are the database's (the
// MANIFEST lists the SSTables). The shell's STATS prints it too.
Result<std::string> TableReport(Database* db, FileSystem* fs, const std::string& data_dir,
                                const std::string& keyspace, const std::string& table,
                                OutputFormat format);

// One table's statistics as one JSON object (one line), with the keys
// docs/TOOLS.md ("cassette stats") lists; `windows` (TWCS tables) adds
// "expiry".
std::string TableStatsJson(const TableStats& stats, const std::vector<CompactionWindow>* windows);
// The nodetool-style block of one table.
std::string TableStatsText(const TableStats& stats, const std::vector<CompactionWindow>* windows);
// One TWCS window (Database::ExplainExpiry): a JSON object, or an indented
// text line (also `cassette sstable layout`).
std::string WindowJson(const CompactionWindow& window);
std::string WindowText(const CompactionWindow& window);
// The device counters: one JSON line {"device":{...}}, or a text block.
std::string DeviceStatsJson(const DeviceStats& device);
std::string DeviceStatsText(const DeviceStats& device);

}  // namespace cassette::tools
