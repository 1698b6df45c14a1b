// `cassette sstable dump|meta|verify|expired-blockers|layout`: Cassandra's
// sstabledump, sstablemetadata, sstableverify, sstableexpiredblockers and a
// TWCS window layout. The file tools read one SSTable directly; the schema
// (dump) and the table tools come from the data directory opened
// read-only, so they work beside a process holding it. docs/TOOLS.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "tools/command_line.h"

namespace cassette::tools {

struct SSTableSettings {
  enum class Action : uint8_t { kDump, kMeta, kVerify, kExpiredBlockers, kLayout };
  Action action = Action::kDump;
  std::string path;                            // dump, meta: a file; verify: a file or directory
  std::optional<std::string> key;              // dump --key: the partition key's CQL literal
  std::optional<std::string> data_dir;         // --data
  std::string table;                           // "ks.table" (with --data)
  OutputFormat format = OutputFormat::kTable;  // meta, expired-blockers, layout
  // meta --gc-before: droppable tombstones at this instant (micros);
  // nullopt: now. expired-blockers / layout --now: the instant the
  // database is opened at (its clock); nullopt: the system clock.
  std::optional<int64_t> at_micros;
};

// `args` are the subcommand's arguments (after "sstable").
Result<SSTableSettings> ParseSSTableArguments(const std::vector<std::string>& args);

// Returns the exit code: 0, or 1 with the reason (naming the file and the
// offset for damage) on `err`.
int RunSSTableCommand(const SSTableSettings& settings, std::shared_ptr<FileSystem> file_system,
                      std::ostream& out, std::ostream& err);

}  // namespace cassette::tools
