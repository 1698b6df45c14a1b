#include "engine/commitlog/commit_log_replay.h"

#include <algorithm>
#include <memory>

#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_segment_reader.h"

namespace cassette {
namespace {

using RecordFn = std::function<Status(const CommitLogPosition&, std::string_view)>;

std::string SegmentPath(const std::string& dir, const CommitLogSegmentFile& file) {
  return dir + "/" + CommitLogSegmentFileName(file.version, file.id);
}

// Records that intact frames hold from the reader's position to the end or
// the next damage, for the message that says what follows the damage.
Result<uint64_t> CountRecordsToEnd(CommitLogSegmentReader* reader) {
  uint64_t records = 0;
  while (true) {
    CASSETTE_ASSIGN_OR_RETURN(CommitLogSegmentReader::Frame frame, reader->Next());
    if (frame.kind == CommitLogSegmentReader::FrameKind::kEnd) return records;
    if (frame.kind == CommitLogSegmentReader::FrameKind::kRecord) ++records;
  }
}

// Damage at reader->offset() that the rules call corruption: an error
// under the stop policy, a line in stats->damage (and replay resumes at
// the marker after it, if any) under ignore.
Result<bool> HandleCorruption(CommitLogSegmentReader* reader, uint64_t damaged_at,
                              const std::string& what, const std::optional<CommitLogMarker>& marker,
                              uint64_t records_before, const ReplayOptions& options,
                              ReplayStats* stats) {
  const uint64_t at = damaged_at;
  const uint64_t lost_before_marker =
      marker && marker->records > records_before ? marker->records - records_before : 0;
  if (!options.skip_damage) {
    std::string message =
        "commit log segment " + reader->path() + ": " + what + " at offset " + std::to_string(at);
    if (marker) {
      CASSETTE_ASSIGN_OR_RETURN(uint64_t after, CountRecordsToEnd(reader));
      message += ", before an intact marker at offset " + std::to_string(marker->offset) +
                 ": not a torn write, the segment was fsynced past it. The damage holds " +
                 std::to_string(lost_before_marker) + " records and " + std::to_string(after) +
                 " intact records follow the marker";
    } else {
      message +=
          " in a segment that is not the last one: not a torn write, the segment was fsynced "
          "and sealed whole";
    }
    return Status::Corruption(message + " (commit_failure_policy stop; ignore replays past it)");
  }
  std::string line = "commit log segment " + reader->path() + ": " + what + " at offset " +
                     std::to_string(at) + " skipped";
  if (marker) {
    line += " to offset " + std::to_string(marker->offset) + ", losing " +
            std::to_string(lost_before_marker) + " records";
    stats->records_lost += lost_before_marker;
  } else {
    line += " to the end of the segment (" + std::to_string(reader->file_size() - at) +
            " bytes, records uncounted)";
  }
  stats->damage.push_back(std::move(line));
  return marker.has_value();
}

Status ReplaySegment(FileSystem* fs, const std::string& dir, const CommitLogSegmentFile& file,
                     bool last, const ReplayOptions& options, const RecordFn& fn,
                     ReplayStats* stats) {
  const std::string path = SegmentPath(dir, file);
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CommitLogSegmentReader> reader,
                            CommitLogSegmentReader::Open(fs, path));
  CASSETTE_RETURN_IF_ERROR(reader->ReadHeader(file.id));
  if (reader->header_damaged()) {
    // The header is fsynced before the first record is written, so only a
    // segment that ends within its header can be a creation cut short
    // (nothing in it was ever acknowledged). Bytes past a damaged header
    // are records whose header rotted: corruption, never a torn write.
    if (last && reader->file_size() <= kCommitLogSegmentHeaderSize) {
      stats->torn_tail = true;
      stats->torn_at = CommitLogPosition{file.id, 0};
      stats->discarded_bytes = reader->file_size();
      stats->last = file;
      return Status::OK();
    }
    if (!options.skip_damage) {
      return Status::Corruption(
          "commit log segment " + path + ": " + reader->damage() + " at offset 0, and " +
          std::to_string(reader->file_size() -
                         std::min(reader->file_size(), kCommitLogSegmentHeaderSize)) +
          " bytes follow it: not a torn write, the header is fsynced before any record "
          "(commit_failure_policy stop; ignore replays past it)");
    }
    stats->damage.push_back("commit log segment " + path + ": " + reader->damage() +
                            " at offset 0; the whole segment skipped (records uncounted)");
    return Status::OK();
  }
  ++stats->segments;
  bool skipped_to_end = false;
  while (true) {
    CASSETTE_ASSIGN_OR_RETURN(CommitLogSegmentReader::Frame frame, reader->Next());
    if (frame.kind == CommitLogSegmentReader::FrameKind::kRecord) {
      CASSETTE_RETURN_IF_ERROR(fn(CommitLogPosition{file.id, frame.end_offset}, frame.payload));
      ++stats->records;
      stats->bytes += frame.payload.size() + kCommitLogRecordOverhead;
      continue;
    }
    if (frame.kind == CommitLogSegmentReader::FrameKind::kMarker) continue;
    if (!reader->damaged()) break;
    const uint64_t records_before = reader->records_read();
    const uint64_t damaged_at = reader->offset();
    const std::string what = reader->damage();
    CASSETTE_ASSIGN_OR_RETURN(std::optional<CommitLogMarker> marker,
                              reader->ResyncAfter(damaged_at));
    if (!marker && last) {
      stats->torn_tail = true;
      stats->torn_at = CommitLogPosition{file.id, damaged_at};
      stats->discarded_bytes = reader->file_size() - damaged_at;
      stats->last_end = damaged_at;
      break;
    }
    CASSETTE_ASSIGN_OR_RETURN(bool resumed, HandleCorruption(reader.get(), damaged_at, what, marker,
                                                             records_before, options, stats));
    if (!resumed) {
      skipped_to_end = true;
      break;
    }
  }
  if (last) {
    stats->last = file;
    if (!stats->torn_tail) stats->last_end = reader->offset();
    stats->last_records = reader->records_read();
    stats->last_sealed = reader->sealed();
    return Status::OK();
  }
  if (file.version >= 2 && !reader->sealed() && !skipped_to_end) {
    const std::string what = "segment ends at offset " + std::to_string(reader->offset()) +
                             " without its seal marker: its end is missing (a segment that is "
                             "not the last one was sealed whole)";
    if (!options.skip_damage) return Status::Corruption("commit log segment " + path + ": " + what);
    stats->damage.push_back("commit log segment " + path + ": " + what +
                            "; replayed what remains (records uncounted)");
  }
  return Status::OK();
}

// Segments that must be present and are not, as messages.
std::vector<std::string> MissingSegments(const std::string& dir,
                                         const std::vector<CommitLogSegmentFile>& files,
                                         const ReplayOptions& options) {
  std::vector<std::string> missing;
  auto gap = [&](uint64_t from, uint64_t to, const std::string& why) {
    std::string name = dir + "/" + CommitLogSegmentFileName(from);
    if (to > from) name += " to " + CommitLogSegmentFileName(to);
    missing.push_back("commit log segment " + name + " is missing (" + why + ")");
  };
  uint64_t expected = options.first_required_segment;
  for (const CommitLogSegmentFile& file : files) {
    if (file.id < options.first_required_segment) continue;
    if (expected != 0 && file.id > expected) {
      gap(expected, file.id - 1,
          expected == options.first_required_segment && file.id > expected
              ? "the manifest records that the log starts at segment " +
                    std::to_string(options.first_required_segment)
              : "segment ids follow each other");
    }
    expected = file.id + 1;
  }
  const uint64_t newest = files.empty() ? 0 : files.back().id;
  if (options.newest_known_segment > newest) {
    const uint64_t from = std::max<uint64_t>(
        {newest + 1, options.first_required_segment, expected == 0 ? 1 : expected});
    if (from <= options.newest_known_segment) {
      gap(from, options.newest_known_segment,
          "the manifest names a replay position in segment " +
              std::to_string(options.newest_known_segment));
    }
  }
  return missing;
}

}  // namespace

Result<std::vector<CommitLogSegmentFile>> ListCommitLogSegmentFiles(FileSystem* fs,
                                                                    const std::string& dir) {
  Result<std::vector<std::string>> children = fs->GetChildren(dir);
  if (!children.ok()) {
    if (children.status().IsNotFound()) return std::vector<CommitLogSegmentFile>{};
    return children.status();
  }
  std::vector<CommitLogSegmentFile> files;
  for (const std::string& name : *children) {
    std::optional<ParsedSegmentName> parsed = ParseCommitLogSegmentFileName(name);
    if (!parsed) continue;
    if (parsed->version < kOldestCommitLogFormatVersion ||
        parsed->version > kNewestCommitLogFormatVersion) {
      return Status::NotSupported("commit log segment " + dir + "/" + name +
                                  " has format version " + std::to_string(parsed->version) +
                                  " (this build reads versions " +
                                  std::to_string(kOldestCommitLogFormatVersion) + " to " +
                                  std::to_string(kNewestCommitLogFormatVersion) + ")");
    }
    files.push_back({parsed->segment_id, parsed->version});
  }
  std::sort(
      files.begin(), files.end(),
      [](const CommitLogSegmentFile& a, const CommitLogSegmentFile& b) { return a.id < b.id; });
  for (size_t i = 1; i < files.size(); ++i) {
    if (files[i].id == files[i - 1].id) {
      return Status::Corruption("commit log " + dir + " holds segment " +
                                std::to_string(files[i].id) + " in two format versions");
    }
  }
  return files;
}

Result<std::vector<uint64_t>> ListCommitLogSegments(FileSystem* fs, const std::string& dir) {
  CASSETTE_ASSIGN_OR_RETURN(std::vector<CommitLogSegmentFile> files,
                            ListCommitLogSegmentFiles(fs, dir));
  std::vector<uint64_t> ids;
  ids.reserve(files.size());
  for (const CommitLogSegmentFile& file : files) ids.push_back(file.id);
  return ids;
}

Status ReplayCommitLog(FileSystem* fs, const std::string& dir, const ReplayOptions& options,
                       const RecordFn& fn, ReplayStats* stats) {
  ReplayStats local;
  if (stats == nullptr) stats = &local;
  *stats = ReplayStats{};
  CASSETTE_ASSIGN_OR_RETURN(std::vector<CommitLogSegmentFile> files,
                            ListCommitLogSegmentFiles(fs, dir));
  for (std::string& missing : MissingSegments(dir, files, options)) {
    if (!options.skip_damage) return Status::Corruption(missing);
    stats->damage.push_back(std::move(missing) + "; replayed without it (records uncounted)");
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].id < options.first_required_segment) continue;  // flushed; deleted later
    CASSETTE_RETURN_IF_ERROR(
        ReplaySegment(fs, dir, files[i], i + 1 == files.size(), options, fn, stats));
  }
  return Status::OK();
}

Status SealCommitLogTail(FileSystem* fs, const std::string& dir, const ReplayStats& stats) {
  if (stats.last.id == 0) return Status::OK();
  const std::string path = SegmentPath(dir, stats.last);
  if (stats.torn_tail && stats.torn_at.offset < kCommitLogSegmentHeaderSize) {
    CASSETTE_RETURN_IF_ERROR(fs->DeleteFile(path));
    return fs->SyncDir(dir);
  }
  const bool seal = stats.last.version >= 2 && !stats.last_sealed;
  if (!stats.torn_tail && !seal) return Status::OK();
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewAppendableFile(path));
  if (file->Size() < stats.last_end) {
    return Status::InvalidArgument("commit log segment " + path + " holds " +
                                   std::to_string(file->Size()) + " bytes, fewer than the " +
                                   std::to_string(stats.last_end) + " replayed");
  }
  // In place: cutting a tail off needs no free space (a full disk is a
  // common reason to be recovering at all).
  if (file->Size() > stats.last_end) CASSETTE_RETURN_IF_ERROR(file->Truncate(stats.last_end));
  if (seal) {
    std::string marker;
    EncodeCommitLogMarker({stats.last_end, stats.last_records, CommitLogMarkerKind::kSeal},
                          &marker);
    CASSETTE_RETURN_IF_ERROR(file->Append(marker));
  }
  CASSETTE_RETURN_IF_ERROR(file->Sync());
  return file->Close();
}

}  // namespace cassette
