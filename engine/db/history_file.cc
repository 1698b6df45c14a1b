#include "engine/db/history_file.h"

#include "engine/util/checksum.h"
#include "engine/util/coding.h"

namespace cassette {

namespace {

constexpr uint32_t kHistoryMagic = 0x53485343;  // "CSHS" little-endian
constexpr uint32_t kHistoryVersion = 1;
constexpr size_t kHeaderSize = 8;
constexpr size_t kFrameSize = 8;  // length:fixed32 checksum:fixed32
// No record comes near this; a larger length is damage, not a record.
constexpr uint32_t kMaxRecordBody = 16u << 20;

enum RecordKind : uint8_t {
  kCompaction = 1,
  kWriteStalls = 2,
};

constexpr uint64_t kMajor = 1;
constexpr uint64_t kTombstoneCompaction = 2;

// The checksum covers the length too, so a damaged length is caught.
uint32_t FrameChecksum(std::string_view length_bytes, std::string_view body) {
  std::string covered(length_bytes);
  covered.append(body);
  return Checksum32(covered);
}

std::string Frame(const std::string& body) {
  std::string length;
  PutFixed32(&length, static_cast<uint32_t>(body.size()));
  std::string out = length;
  PutFixed32(&out, FrameChecksum(length, body));
  return out + body;
}

void PutGenerations(std::string* out, const std::vector<uint64_t>& generations) {
  PutVarint64(out, generations.size());
  for (uint64_t generation : generations) PutVarint64(out, generation);
}

bool GetGenerations(std::string_view* in, std::vector<uint64_t>* generations) {
  uint64_t count = 0;
  if (!GetVarint64(in, &count) || count > in->size()) return false;
  generations->resize(count);
  for (uint64_t& generation : *generations) {
    if (!GetVarint64(in, &generation)) return false;
  }
  return true;
}

bool DecodeCompaction(std::string_view in, CompactionRecord* record) {
  std::string_view strategy, reason;
  uint64_t flags = 0;
  if (!GetLengthPrefixed(&in, &strategy) || !GetLengthPrefixed(&in, &reason) ||
      !GetVarint64(&in, &flags) || !GetGenerations(&in, &record->inputs) ||
      !GetGenerations(&in, &record->expired) || !GetGenerations(&in, &record->outputs)) {
    return false;
  }
  record->strategy = std::string(strategy);
  record->reason = std::string(reason);
  record->major = (flags & kMajor) != 0;
  record->tombstone_compaction = (flags & kTombstoneCompaction) != 0;
  uint64_t* const counts[] = {&record->bytes_read,     &record->bytes_written,
                              &record->bytes_dropped,  &record->partitions_in,
                              &record->partitions_out, &record->rows_in,
                              &record->rows_out,       &record->tombstones_purged};
  for (uint64_t* count : counts) {
    if (!GetVarint64(&in, count)) return false;
  }
  uint64_t lags = 0;
  if (!GetVarint64(&in, &lags) || lags > in.size()) return false;
  for (uint64_t i = 0; i < lags; ++i) {
    int64_t lag = 0;
    uint64_t bytes = 0;
    if (!GetSignedVarint64(&in, &lag) || !GetVarint64(&in, &bytes)) return false;
    record->purged_bytes_by_lag[lag] = bytes;
  }
  return GetSignedVarint64(&in, &record->started_micros) &&
         GetSignedVarint64(&in, &record->duration_micros) && in.empty();
}

bool DecodeWriteStalls(std::string_view in, WriteStallTotals* totals) {
  return GetSignedVarint64(&in, &totals->stalls) &&
         GetSignedVarint64(&in, &totals->stalled_micros) &&
         GetSignedVarint64(&in, &totals->last_stall_micros) && in.empty();
}

std::string At(const std::string& path, const std::string& what, uint64_t offset) {
  return path + ": " + what + " at offset " + std::to_string(offset);
}

}  // namespace

std::string EncodeHistoryHeader() {
  std::string out;
  PutFixed32(&out, kHistoryMagic);
  PutFixed32(&out, kHistoryVersion);
  return out;
}

std::string EncodeCompactionHistoryRecord(const CompactionRecord& record) {
  std::string body(1, static_cast<char>(kCompaction));
  PutLengthPrefixed(&body, record.strategy);
  PutLengthPrefixed(&body, record.reason);
  PutVarint64(&body, (record.major ? kMajor : 0) |
                         (record.tombstone_compaction ? kTombstoneCompaction : 0));
  PutGenerations(&body, record.inputs);
  PutGenerations(&body, record.expired);
  PutGenerations(&body, record.outputs);
  for (uint64_t count :
       {record.bytes_read, record.bytes_written, record.bytes_dropped, record.partitions_in,
        record.partitions_out, record.rows_in, record.rows_out, record.tombstones_purged}) {
    PutVarint64(&body, count);
  }
  PutVarint64(&body, record.purged_bytes_by_lag.size());
  for (const auto& [lag, bytes] : record.purged_bytes_by_lag) {
    PutSignedVarint64(&body, lag);
    PutVarint64(&body, bytes);
  }
  PutSignedVarint64(&body, record.started_micros);
  PutSignedVarint64(&body, record.duration_micros);
  return Frame(body);
}

std::string EncodeWriteStallHistoryRecord(const WriteStallTotals& totals) {
  std::string body(1, static_cast<char>(kWriteStalls));
  PutSignedVarint64(&body, totals.stalls);
  PutSignedVarint64(&body, totals.stalled_micros);
  PutSignedVarint64(&body, totals.last_stall_micros);
  return Frame(body);
}

HistoryFileContents DecodeHistoryFile(std::string_view bytes, const std::string& path) {
  HistoryFileContents contents;
  if (bytes.empty()) return contents;
  if (bytes.size() < kHeaderSize) {  // the creating write was cut short
    contents.torn_tail_bytes = bytes.size();
    return contents;
  }
  if (DecodeFixed32(bytes.data()) != kHistoryMagic) {
    contents.damage.push_back(At(path, "not a history file (bad magic)", 0));
    return contents;
  }
  if (DecodeFixed32(bytes.data() + 4) != kHistoryVersion) {
    contents.damage.push_back(At(path, "unsupported version", 4));
    return contents;
  }
  uint64_t offset = kHeaderSize;
  contents.valid_bytes = offset;
  while (offset < bytes.size()) {
    const uint64_t left = bytes.size() - offset;
    const uint32_t length = left >= 4 ? DecodeFixed32(bytes.data() + offset) : 0;
    if (left < kFrameSize || length > kMaxRecordBody) {
      if (length > kMaxRecordBody) {
        contents.damage.push_back(At(path, "record length out of range", offset));
      } else {
        contents.torn_tail_bytes = left;
      }
      return contents;
    }
    if (kFrameSize + length > left) {  // runs past the end: cut short
      contents.torn_tail_bytes = left;
      return contents;
    }
    const std::string_view length_bytes = bytes.substr(offset, 4);
    const uint32_t checksum = DecodeFixed32(bytes.data() + offset + 4);
    const std::string_view body = bytes.substr(offset + kFrameSize, length);
    const uint64_t end = offset + kFrameSize + length;
    if (FrameChecksum(length_bytes, body) != checksum) {
      // The last record may hold garbage where a power loss interrupted
      // its write; anything followed by more bytes is damage.
      if (end == bytes.size()) {
        contents.torn_tail_bytes = left;
      } else {
        contents.damage.push_back(At(path, "checksum mismatch", offset));
      }
      return contents;
    }
    const uint8_t kind = body.empty() ? 0 : static_cast<uint8_t>(body[0]);
    const std::string_view payload = body.empty() ? body : body.substr(1);
    bool decoded = true;
    if (kind == kCompaction) {
      CompactionRecord record;
      decoded = DecodeCompaction(payload, &record);
      if (decoded) contents.compactions.push_back(std::move(record));
    } else if (kind == kWriteStalls) {
      WriteStallTotals totals;
      decoded = DecodeWriteStalls(payload, &totals);
      if (decoded) contents.stalls = totals;
    }
    // Any other kind is a later version's record: its frame checks out,
    // so it is skipped and reading goes on.
    if (!decoded) contents.damage.push_back(At(path, "malformed record", offset));
    offset = end;
    contents.valid_bytes = offset;
  }
  return contents;
}

HistoryFileContents ReadHistoryFile(FileSystem* fs, const std::string& path) {
  HistoryFileContents empty;
  if (!fs->FileExists(path)) return empty;
  Result<std::unique_ptr<SequentialFile>> file = fs->NewSequentialFile(path);
  std::string bytes, chunk;
  Status s = file.status();
  while (s.ok()) {
    s = (*file)->Read(1 << 20, &chunk);
    if (!s.ok() || chunk.empty()) break;
    bytes += chunk;
  }
  if (!s.ok()) {
    empty.damage.push_back(path + ": cannot read: " + s.ToString());
    return empty;
  }
  return DecodeHistoryFile(bytes, path);
}

}  // namespace cassette
