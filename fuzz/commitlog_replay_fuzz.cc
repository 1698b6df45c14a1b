// libFuzzer target: commit-log replay (engine/commitlog) of arbitrary
// segment files on the in-memory file system, each replayed record decoded
// as the database decodes it (DecodeCommitRecord). Input: a first byte
// whose low bit says one segment or two and whose bit 1 names the files as
// format 3 (compressed blocks) instead of 2; with two, a 4-byte
// little-endian length of the first segment follows; the rest is the
// segment bytes.
// Segments get ids 1 and 2. Properties:
//   - replay never crashes; an error is Corruption or NotSupported naming
//     the segment file and an offset, or a record decoder's Corruption;
//   - a replay that reports a torn tail, once sealed (SealCommitLogTail),
//     replays again cleanly with the same records and no torn tail.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/file_system.h"
#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_replay.h"
#include "engine/db/commit_record.h"
#include "engine/util/coding.h"

namespace {

constexpr char kDir[] = "/commitlog";

void Put(cassette::FileSystem* fs, uint32_t version, uint64_t id, std::string_view bytes) {
  auto out = fs->NewWritableFile(std::string(kDir) + "/" +
                                 cassette::CommitLogSegmentFileName(version, id));
  if (!out.ok() || !(*out)->Append(bytes).ok() || !(*out)->Close().ok()) std::abort();
}

struct Replayed {
  cassette::Status status;
  cassette::ReplayStats stats;
  std::vector<std::string> records;
  bool record_error = false;
};

Replayed Replay(cassette::FileSystem* fs) {
  Replayed r;
  r.status = cassette::ReplayCommitLog(
      fs, kDir, {},
      [&r](const cassette::CommitLogPosition&, std::string_view payload) {
        r.records.emplace_back(payload);
        std::vector<cassette::PartitionUpdate> updates;
        cassette::Status s = cassette::DecodeCommitRecord(payload, &updates);
        if (!s.ok()) r.record_error = true;
        return s;
      },
      &r.stats);
  return r;
}

void Fail(const char* why, const cassette::Status& s) {
  std::fprintf(stderr, "%s: %s\n", why, s.ToString().c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (in.empty()) return 0;
  const bool two = (in[0] & 1) != 0;
  const uint32_t version = (in[0] & 2) != 0 ? cassette::kCompressedCommitLogFormatVersion
                                            : cassette::kCommitLogFormatVersion;
  in.remove_prefix(1);
  std::shared_ptr<cassette::MemFileSystem> fs = cassette::NewMemFileSystem();
  if (!fs->CreateDirs(kDir).ok()) std::abort();
  if (two) {
    if (in.size() < 4) return 0;
    const uint32_t first = cassette::DecodeFixed32(in.data());
    in.remove_prefix(4);
    const size_t cut = first < in.size() ? first : in.size();
    Put(fs.get(), version, 1, in.substr(0, cut));
    Put(fs.get(), version, 2, in.substr(cut));
  } else {
    Put(fs.get(), version, 1, in);
  }

  Replayed r = Replay(fs.get());
  if (!r.status.ok()) {
    const std::string& m = r.status.message();
    const bool names_file = m.find("CommitLog-") != std::string::npos;
    const bool names_offset = m.find("offset") != std::string::npos;
    const bool clear =
        r.record_error
            ? r.status.IsCorruption()
            : (r.status.IsCorruption() && names_file && names_offset) ||
                  (r.status.code() == cassette::Status::Code::kNotSupported && names_file);
    if (!clear) Fail("unexpected replay error", r.status);
    return 0;
  }
  if (!r.stats.torn_tail) return 0;
  cassette::Status repaired = cassette::SealCommitLogTail(fs.get(), kDir, r.stats);
  if (!repaired.ok()) Fail("seal failed", repaired);
  Replayed again = Replay(fs.get());
  if (!again.status.ok()) Fail("replay after repair failed", again.status);
  if (again.stats.torn_tail || again.records != r.records) {
    std::fprintf(stderr, "replay after repair differs: %zu records, then %zu\n", r.records.size(),
                 again.records.size());
    std::abort();
  }
  return 0;
}
