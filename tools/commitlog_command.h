// `cassette commitlog verify|dump`: the commit log of a data directory,
// segment by segment, read-only (so it works beside a process holding the
// directory). verify applies the rules Open applies (engine/commitlog/
// FORMAT.md: torn tail, corruption, missing segments, with the manifest's
// bounds) and exits 1 when Open would refuse; dump lists every frame.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"

namespace cassette::tools {

struct CommitLogSettings {
  enum class Action : uint8_t { kVerify, kDump };
  Action action = Action::kVerify;
  std::string data_dir = "./data";
};

// `args` are the subcommand's arguments (after "commitlog").
Result<CommitLogSettings> ParseCommitLogArguments(const std::vector<std::string>& args);

// Returns the exit code: 0, or 1 (verify found what Open would refuse, or
// the directory could not be read; the reason on `err`).
int RunCommitLogCommand(const CommitLogSettings& settings, std::shared_ptr<FileSystem> file_system,
                        std::ostream& out, std::ostream& err);

}  // namespace cassette::tools
