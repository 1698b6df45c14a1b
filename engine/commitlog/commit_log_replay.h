// Replay: reading the commit log back after a restart, and repairing a torn
// tail so the log can grow past it.
//
// Recovery sequence for the database:
//   ReplayCommitLog(fs, dir, apply, &stats);      // re-apply every record
//   RepairCommitLogTail(fs, dir, stats);          // cut a torn tail off
//   CommitLog::Open(fs, clock, opts, 1 + highest listed id);
//   log->AdoptSegments(ids);                      // discarded once flushed
// Repair must come before Open: once a newer segment exists, the torn
// segment is no longer the last one and a second replay would (rightly, by
// the rule below) call its damaged tail corruption.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/commitlog/commit_log_position.h"

namespace cassette {

struct ReplayStats {
  // Segments whose header was read (a last segment with a torn header is
  // not counted), records passed to the callback, and their framed bytes.
  uint64_t segments = 0;
  uint64_t records = 0;
  uint64_t bytes = 0;
  // The last segment ended in bytes that do not form a record (a write cut
  // short by a crash), or its header itself was torn.
  bool torn_tail = false;
  uint64_t discarded_bytes = 0;
  // Where the discarded tail starts (offset 0: the whole file, header
  // included). Meaningful when torn_tail.
  CommitLogPosition torn_at;
};

// Ids of the segments in `dir`, ascending; empty when `dir` does not exist.
// Other files are ignored; a segment of another format version
// ("CommitLog-2-7.log") is NotSupported rather than silently skipped.
Result<std::vector<uint64_t>> ListCommitLogSegments(FileSystem* fs, const std::string& dir);

// Calls fn(end_of_record, payload) for every intact record of every segment,
// in id order, then offset order. `payload` is valid only during the call.
// A non-OK status from fn stops the replay and is returned.
//
// Damage (truncation, checksum mismatch, zeroed bytes) ends the replay
// cleanly when it is in the LAST segment: a crash tore the write in flight.
// Anywhere else it is Corruption naming the file and offset, because the
// commit log fsyncs a segment completely before starting the next one, so
// an earlier segment cannot have been torn. Likewise a last segment with an
// unreadable header is a torn creation and is skipped; an earlier one is
// Corruption. `stats` may be null.
Status ReplayCommitLog(FileSystem* fs, const std::string& dir,
                       const std::function<Status(const CommitLogPosition&, std::string_view)>& fn,
                       ReplayStats* stats);

// After a replay that reported torn_tail: makes the last segment hold only
// its intact records (a header-torn segment is deleted), atomically (a new
// file is written, fsynced and renamed over the old one, then the directory
// is fsynced). Does nothing when !stats.torn_tail.
Status RepairCommitLogTail(FileSystem* fs, const std::string& dir, const ReplayStats& stats);

}  // namespace cassette
