#include "engine/commitlog/commit_log_replay.h"

#include <algorithm>
#include <memory>

#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_segment_reader.h"

namespace cassette {
namespace {

Status ReplaySegment(FileSystem* fs, const std::string& dir, uint64_t id, bool last,
                     const std::function<Status(const CommitLogPosition&, std::string_view)>& fn,
                     ReplayStats* stats) {
  const std::string path = dir + "/" + CommitLogSegmentFileName(id);
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CommitLogSegmentReader> reader,
                            CommitLogSegmentReader::Open(fs, path));
  CASSETTE_RETURN_IF_ERROR(reader->ReadHeader(id));
  if (!reader->header_damaged()) {
    ++stats->segments;
    std::string_view payload;
    uint64_t end = 0;
    while (true) {
      CASSETTE_ASSIGN_OR_RETURN(bool more, reader->Next(&payload, &end));
      if (!more) break;
      CASSETTE_RETURN_IF_ERROR(fn(CommitLogPosition{id, end}, payload));
      ++stats->records;
      stats->bytes += payload.size() + kCommitLogRecordOverhead;
    }
  }
  if (!reader->damaged()) return Status::OK();
  if (!last) {
    return Status::Corruption("commit log segment " + path + ": " + reader->damage() +
                              " at offset " + std::to_string(reader->offset()));
  }
  stats->torn_tail = true;
  stats->torn_at = CommitLogPosition{id, reader->offset()};
  stats->discarded_bytes = reader->file_size() - reader->offset();
  return Status::OK();
}

}  // namespace

Result<std::vector<uint64_t>> ListCommitLogSegments(FileSystem* fs, const std::string& dir) {
  Result<std::vector<std::string>> children = fs->GetChildren(dir);
  if (!children.ok()) {
    if (children.status().IsNotFound()) return std::vector<uint64_t>{};
    return children.status();
  }
  std::vector<uint64_t> ids;
  for (const std::string& name : *children) {
    std::optional<ParsedSegmentName> parsed = ParseCommitLogSegmentFileName(name);
    if (!parsed) continue;
    if (parsed->version != kCommitLogFormatVersion) {
      return Status::NotSupported("commit log segment " + dir + "/" + name +
                                  " has format version " + std::to_string(parsed->version) +
                                  " (this build reads version " +
                                  std::to_string(kCommitLogFormatVersion) + ")");
    }
    ids.push_back(parsed->segment_id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

Status ReplayCommitLog(FileSystem* fs, const std::string& dir,
                       const std::function<Status(const CommitLogPosition&, std::string_view)>& fn,
                       ReplayStats* stats) {
  ReplayStats local;
  if (stats == nullptr) stats = &local;
  *stats = ReplayStats{};
  CASSETTE_ASSIGN_OR_RETURN(std::vector<uint64_t> ids, ListCommitLogSegments(fs, dir));
  for (size_t i = 0; i < ids.size(); ++i) {
    CASSETTE_RETURN_IF_ERROR(ReplaySegment(fs, dir, ids[i], i + 1 == ids.size(), fn, stats));
  }
  return Status::OK();
}

Status RepairCommitLogTail(FileSystem* fs, const std::string& dir, const ReplayStats& stats) {
  if (!stats.torn_tail) return Status::OK();
  const std::string path = dir + "/" + CommitLogSegmentFileName(stats.torn_at.segment_id);
  if (stats.torn_at.offset < kCommitLogSegmentHeaderSize) {
    // Nothing in it was ever acknowledged: the header is synced before the
    // first record is written.
    CASSETTE_RETURN_IF_ERROR(fs->DeleteFile(path));
    return fs->SyncDir(dir);
  }
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> in, fs->NewRandomAccessFile(path));
  if (in->Size() < stats.torn_at.offset) {
    return Status::InvalidArgument("commit log segment " + path + " holds " +
                                   std::to_string(in->Size()) + " bytes, fewer than the " +
                                   std::to_string(stats.torn_at.offset) + " to keep");
  }
  const std::string tmp = path + ".repair";
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> out, fs->NewWritableFile(tmp));
  constexpr uint64_t kChunk = 1 << 20;
  std::string chunk;
  for (uint64_t off = 0; off < stats.torn_at.offset; off += chunk.size()) {
    const uint64_t n = std::min(kChunk, stats.torn_at.offset - off);
    CASSETTE_RETURN_IF_ERROR(in->Read(off, static_cast<size_t>(n), &chunk));
    if (chunk.size() != n) {
      return Status::IOError("commit log segment " + path + ": short read at offset " +
                             std::to_string(off));
    }
    CASSETTE_RETURN_IF_ERROR(out->Append(chunk));
  }
  CASSETTE_RETURN_IF_ERROR(out->Sync());
  CASSETTE_RETURN_IF_ERROR(out->Close());
  CASSETTE_RETURN_IF_ERROR(fs->RenameFile(tmp, path));
  return fs->SyncDir(dir);
}

}  // namespace cassette
