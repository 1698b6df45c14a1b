// The side file: the worker's record of what it did, which outlives its
// SIGKILL. One line per event, appended with write(2) (no user-space
// buffer; the page cache survives a killed process, so no fsync either):
//   S                    the schema exists (created before any operation)
//   I <EncodeOp(op)>     about to run op (the intent)
//   A <index> <applied>  op returned OK (applied: an LWT's [applied], else 1)
//   R <index> <applied>  the checker decided the fate of an op that was in
//                        flight at the kill (applied or not, whole)
// A last line without its newline (the kill landed inside a write(2)) is
// cut off by ReadSideLog.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "tests/crash/crash_workload.h"

namespace cassette::crash {

class SideFile {
 public:
  // Opens for appending, creating the file.
  static Result<SideFile> Open(const std::string& path);
  SideFile(SideFile&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  SideFile(const SideFile&) = delete;
  SideFile& operator=(const SideFile&) = delete;
  ~SideFile();

  // Writes the line and its newline with write(2).
  Status Append(const std::string& line);

 private:
  explicit SideFile(int fd) : fd_(fd) {}
  int fd_;
};

struct DoneOp {
  Op op;
  bool applied = false;
  // An "A" line: the API returned OK. Else an "R" line: the checker found
  // the operation, in flight at a kill, applied or not (an LWT found not
  // applied may never have run: its answer says nothing).
  bool acknowledged = false;
};

struct SideLog {
  bool schema_ready = false;
  // Acknowledged or resolved operations, in order.
  std::vector<DoneOp> done;
  // The operation with an intent but neither ack nor resolution.
  std::optional<Op> in_flight;
  int64_t next_index = 0;
  int64_t acknowledged_writes = 0;
};

Result<SideLog> ReadSideLog(const std::string& path);

}  // namespace cassette::crash
