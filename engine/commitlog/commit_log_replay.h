// Replay: reading the commit log back after a restart, and sealing the
// previous run's last segment so the log can grow past it.
//
// Recovery sequence for the database:
//   ReplayCommitLog(fs, dir, options, apply, &stats);   // re-apply every record
//   SealCommitLogTail(fs, dir, stats);                  // cut a torn tail, seal
//   CommitLog::Open(fs, clock, opts, 1 + highest id);
//   log->AdoptSegments(files);                          // discarded once flushed
// Sealing must come before Open: once a newer segment exists, the old one
// is no longer the last, and a second replay would (rightly, by the rules
// below) call a torn tail or a missing seal corruption.
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

struct CommitLogSegmentFile {
  uint64_t id = 0;
  uint32_t version = 0;  // from the file name
};

struct ReplayOptions {
  // Replay past damage instead of refusing (Cassandra's
  // commit_failure_policy ignore): each damaged stretch and missing segment
  // is listed in ReplayStats::damage.
  bool skip_damage = false;
  // Every segment from this id to the newest must be present: the ones
  // before it may have been deleted once flushed, and are not replayed
  // when still there. 0: unknown (the oldest present).
  uint64_t first_required_segment = 0;
  // A segment the log is known to have reached (the newest one a durable
  // replay position names): the log must hold it. 0: unknown.
  uint64_t newest_known_segment = 0;
};

struct ReplayStats {
  // Segments whose header was read (a last segment with a torn header is
  // not counted), records passed to the callback, and their framed bytes.
  uint64_t segments = 0;
  uint64_t records = 0;
  uint64_t bytes = 0;
  // The last segment ended in bytes that do not form a frame (a write cut
  // short by a crash), or its header itself was torn.
  bool torn_tail = false;
  uint64_t discarded_bytes = 0;
  // Where the discarded tail starts (offset 0: the whole file, header
  // included). Meaningful when torn_tail.
  CommitLogPosition torn_at;
  // The last segment (before any torn tail): its format version, where its
  // intact frames end, the records in them, and whether it is sealed.
  CommitLogSegmentFile last;
  uint64_t last_end = 0;
  uint64_t last_records = 0;
  bool last_sealed = false;
  // skip_damage: what was replayed past, one line each, and the records
  // the markers say were lost with it (damage with no marker after it in a
  // sealed segment loses a number of records no marker tells).
  std::vector<std::string> damage;
  uint64_t records_lost = 0;
};

// The segments in `dir`, ascending by id; empty when `dir` does not exist.
// Other files are ignored; a segment of a format version this build does
// not read ("CommitLog-9-7.log") is NotSupported rather than skipped.
Result<std::vector<CommitLogSegmentFile>> ListCommitLogSegmentFiles(FileSystem* fs,
                                                                    const std::string& dir);
// Their ids only.
Result<std::vector<uint64_t>> ListCommitLogSegments(FileSystem* fs, const std::string& dir);

// Calls fn(end_of_record, payload) for every intact record of every
// segment from options.first_required_segment on, in id order, then offset
// order. `payload` is valid only during the call. A non-OK status from fn
// stops the replay and is returned.
//
// A crash can tear only the end of the last segment (every other one was
// fsynced and sealed before the next was started). So:
// - damage in the last segment after which no intact marker follows is a
//   torn write: replay ends there cleanly (torn_tail);
// - damage followed by an intact marker was fsynced, so it is corruption;
//   so is any damage in an earlier segment, an earlier (version 2) segment
//   that does not end with its seal, and a segment missing from the range
//   that must be present.
// Corruption names the file and the offset and how many records follow the
// damage, unless options.skip_damage, which replays past it (resuming at
// the next marker) and lists it in stats->damage. `stats` may be null.
Status ReplayCommitLog(FileSystem* fs, const std::string& dir, const ReplayOptions& options,
                       const std::function<Status(const CommitLogPosition&, std::string_view)>& fn,
                       ReplayStats* stats);

// After a replay: makes the last segment hold only its intact frames (a
// header-torn segment is deleted) by truncating it in place, so it needs
// no free space, and appends its seal marker when it has none (a version 1
// segment gets none), then fsyncs. Nothing to do for an empty log.
Status SealCommitLogTail(FileSystem* fs, const std::string& dir, const ReplayStats& stats);

}  // namespace cassette
