#include "tools/commitlog_command.h"

#include <algorithm>

#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_replay.h"
#include "engine/commitlog/commit_log_segment_reader.h"
#include "engine/db/commit_record.h"
#include "engine/db/manifest.h"

namespace cassette::tools {
namespace {

// What one segment holds, read frame by frame.
struct SegmentSummary {
  uint64_t bytes = 0;
  uint64_t records = 0;
  uint64_t markers = 0;
  bool sealed = false;
  std::vector<std::string> damage;  // "offset N: what" (resynced past, when possible)
};

std::string Describe(const CommitLogSegmentReader::Frame& frame, uint64_t offset) {
  if (frame.kind == CommitLogSegmentReader::FrameKind::kMarker) {
    return "offset " + std::to_string(offset) + " " +
           (frame.marker.kind == CommitLogMarkerKind::kSeal ? "seal" : "sync") + " marker after " +
           std::to_string(frame.marker.records) + " records";
  }
  std::string line = "offset " + std::to_string(offset) + " record of " +
                     std::to_string(frame.payload.size()) + " bytes";
  std::vector<PartitionUpdate> updates;
  Status s = DecodeCommitRecord(frame.payload, &updates);
  if (!s.ok()) return line + ": undecodable (" + s.message() + ")";
  line += ": " + std::to_string(updates.size()) + " partition updates";
  for (const PartitionUpdate& u : updates) {
    line += " [table " + std::to_string(u.table_id) + " token " + std::to_string(u.key.token) +
            " rows " + std::to_string(u.rows.size()) + "]";
  }
  return line;
}

// Reads one segment; with `dump`, prints each frame.
Result<SegmentSummary> ReadSegment(FileSystem* fs, const std::string& path, uint64_t id,
                                   std::ostream* dump) {
  SegmentSummary summary;
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CommitLogSegmentReader> reader,
                            CommitLogSegmentReader::Open(fs, path));
  summary.bytes = reader->file_size();
  CASSETTE_RETURN_IF_ERROR(reader->ReadHeader(id));
  if (reader->header_damaged()) {
    summary.damage.push_back("offset 0: " + reader->damage());
    return summary;
  }
  while (true) {
    const uint64_t offset = reader->offset();
    CASSETTE_ASSIGN_OR_RETURN(CommitLogSegmentReader::Frame frame, reader->Next());
    if (frame.kind == CommitLogSegmentReader::FrameKind::kEnd) {
      if (!reader->damaged()) break;
      const uint64_t at = reader->offset();
      std::string line = "offset " + std::to_string(at) + ": " + reader->damage();
      CASSETTE_ASSIGN_OR_RETURN(std::optional<CommitLogMarker> marker, reader->ResyncAfter(at));
      line += marker ? ", next intact marker at offset " + std::to_string(marker->offset)
                     : ", no intact marker after it";
      summary.damage.push_back(line);
      if (dump) *dump << "  " << line << "\n";
      if (!marker) break;
      continue;
    }
    if (frame.kind == CommitLogSegmentReader::FrameKind::kRecord) ++summary.records;
    if (frame.kind == CommitLogSegmentReader::FrameKind::kMarker) ++summary.markers;
    if (dump) *dump << "  " << Describe(frame, offset) << "\n";
  }
  summary.sealed = reader->sealed();
  return summary;
}

}  // namespace

Result<CommitLogSettings> ParseCommitLogArguments(const std::vector<std::string>& args) {
  CommitLogSettings settings;
  if (args.empty()) return Status::InvalidArgument("commitlog: missing action (verify or dump)");
  if (args[0] == "verify") {
    settings.action = CommitLogSettings::Action::kVerify;
  } else if (args[0] == "dump") {
    settings.action = CommitLogSettings::Action::kDump;
  } else {
    return Status::InvalidArgument("commitlog: unknown action '" + args[0] + "' (verify or dump)");
  }
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--data" && i + 1 < args.size()) {
      settings.data_dir = args[++i];
    } else {
      return Status::InvalidArgument("commitlog: unexpected argument '" + args[i] + "'");
    }
  }
  return settings;
}

int RunCommitLogCommand(const CommitLogSettings& settings, std::shared_ptr<FileSystem> file_system,
                        std::ostream& out, std::ostream& err) {
  FileSystem* fs = file_system.get();
  const std::string dir = settings.data_dir + "/commitlog";
  auto files = ListCommitLogSegmentFiles(fs, dir);
  if (!files.ok()) {
    err << "cassette commitlog: " << files.status().ToString() << "\n";
    return 1;
  }
  // The manifest's bounds, as Open uses them (a directory without one has
  // none to check).
  ReplayOptions options;
  auto manifest = ReadManifest(fs, settings.data_dir);
  if (!manifest.ok()) {
    err << "cassette commitlog: " << manifest.status().ToString() << "\n";
    return 1;
  }
  if (*manifest) {
    options.first_required_segment = (*manifest)->commitlog_first_segment;
    for (const auto& [id, table] : (*manifest)->tables) {
      options.newest_known_segment =
          std::max(options.newest_known_segment, table.persisted.segment_id);
    }
  }
  const bool dump = settings.action == CommitLogSettings::Action::kDump;
  uint64_t records = 0;
  for (size_t i = 0; i < files->size(); ++i) {
    const CommitLogSegmentFile& file = (*files)[i];
    const std::string name = CommitLogSegmentFileName(file.version, file.id);
    if (dump) out << name << "\n";
    auto summary = ReadSegment(fs, dir + "/" + name, file.id, dump ? &out : nullptr);
    if (!summary.ok()) {
      err << "cassette commitlog: " << summary.status().ToString() << "\n";
      return 1;
    }
    records += summary->records;
    const bool last = i + 1 == files->size();
    out << name << ": version " << file.version << ", " << summary->bytes << " bytes, "
        << summary->records << " records, " << summary->markers << " markers, "
        << (summary->sealed ? "sealed"
            : last          ? "open (the newest segment)"
                            : "NOT sealed")
        << (file.id < options.first_required_segment ? ", already flushed (not replayed)" : "")
        << "\n";
    for (const std::string& damage : summary->damage) out << "  damage at " << damage << "\n";
  }
  ReplayStats stats;
  Status verdict = ReplayCommitLog(
      fs, dir, options, [](const CommitLogPosition&, std::string_view) { return Status::OK(); },
      &stats);
  if (!verdict.ok()) {
    out << "commit log " << dir << ": CORRUPT: " << verdict.message() << "\n";
    return 1;
  }
  out << "commit log " << dir << ": OK, " << files->size() << " segments, " << records
      << " records";
  if (stats.torn_tail) {
    out << "; a torn final write of " << stats.discarded_bytes << " bytes that the next open drops";
  }
  out << "\n";
  return 0;
}

}  // namespace cassette::tools
