#include "engine/commitlog/commit_log_format.h"

#include <charconv>

#include "engine/util/checksum.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

constexpr std::string_view kPrefix = "CommitLog-";
constexpr std::string_view kSuffix = ".log";

// A decimal number without sign, leading '+' or leading zeros (so every id
// has exactly one name), that fits in T.
template <class T>
bool ParseDecimal(std::string_view s, T* v) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string CommitLogSegmentFileName(uint64_t segment_id) {
  return CommitLogSegmentFileName(kCommitLogFormatVersion, segment_id);
}

std::string CommitLogSegmentFileName(uint32_t version, uint64_t segment_id) {
  return std::string(kPrefix) + std::to_string(version) + "-" + std::to_string(segment_id) +
         std::string(kSuffix);
}

std::optional<ParsedSegmentName> ParseCommitLogSegmentFileName(std::string_view name) {
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  name.remove_suffix(kSuffix.size());
  const size_t dash = name.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  ParsedSegmentName parsed;
  if (!ParseDecimal(name.substr(0, dash), &parsed.version) ||
      !ParseDecimal(name.substr(dash + 1), &parsed.segment_id)) {
    return std::nullopt;
  }
  return parsed;
}

void EncodeCommitLogSegmentHeader(uint64_t segment_id, std::string* out) {
  EncodeCommitLogSegmentHeader(kCommitLogFormatVersion, segment_id, out);
}

void EncodeCommitLogSegmentHeader(uint32_t version, uint64_t segment_id, std::string* out) {
  const size_t start = out->size();
  PutFixed32(out, kCommitLogSegmentMagic);
  PutFixed32(out, version);
  PutFixed64(out, segment_id);
  PutFixed32(out, Checksum32(std::string_view(*out).substr(start, 16)));
}

Status DecodeCommitLogSegmentHeader(std::string_view in, uint64_t* segment_id,
                                    uint32_t* version_out) {
  if (in.size() < kCommitLogSegmentHeaderSize) {
    return Status::Corruption("truncated segment header (" + std::to_string(in.size()) + " of " +
                              std::to_string(kCommitLogSegmentHeaderSize) + " bytes)");
  }
  const uint32_t magic = DecodeFixed32(in.data());
  const uint32_t version = DecodeFixed32(in.data() + 4);
  const uint64_t id = DecodeFixed64(in.data() + 8);
  const uint32_t checksum = DecodeFixed32(in.data() + 16);
  if (magic != kCommitLogSegmentMagic) return Status::Corruption("bad segment magic");
  if (checksum != Checksum32(in.substr(0, 16))) {
    return Status::Corruption("segment header checksum mismatch");
  }
  if (version < kOldestCommitLogFormatVersion || version > kNewestCommitLogFormatVersion) {
    return Status::NotSupported("segment format version " + std::to_string(version) +
                                " (this build reads versions " +
                                std::to_string(kOldestCommitLogFormatVersion) + " to " +
                                std::to_string(kNewestCommitLogFormatVersion) + ")");
  }
  *segment_id = id;
  *version_out = version;
  return Status::OK();
}

void EncodeCommitLogRecord(std::string_view payload, std::string* out) {
  char length[4];
  const uint32_t n = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) length[i] = static_cast<char>(n >> (8 * i));
  out->append(length, 4);
  PutFixed32(out, Checksum32(std::string_view(length, 4)));
  out->append(payload);
  PutFixed32(out, Checksum32(payload));
}

void EncodeCommitLogMarker(const CommitLogMarker& marker, std::string* out) {
  const size_t start = out->size();
  PutFixed32(out, kCommitLogMarkerLength);
  PutFixed32(out, Checksum32(std::string_view(*out).substr(start, 4)));
  PutFixed64(out, marker.offset);
  PutFixed64(out, marker.records);
  PutFixed32(out, static_cast<uint32_t>(marker.kind));
  PutFixed32(out, Checksum32(std::string_view(*out).substr(start + 8, 20)));
}

bool DecodeCommitLogMarker(std::string_view in, CommitLogMarker* marker) {
  if (in.size() < kCommitLogMarkerSize || !in.starts_with(CommitLogMarkerHead())) return false;
  const std::string_view body = in.substr(kCommitLogRecordHeaderSize, 20);
  if (DecodeFixed32(in.data() + 28) != Checksum32(body)) return false;
  const uint32_t kind = DecodeFixed32(body.data() + 16);
  if (kind != static_cast<uint32_t>(CommitLogMarkerKind::kSync) &&
      kind != static_cast<uint32_t>(CommitLogMarkerKind::kSeal)) {
    return false;
  }
  marker->offset = DecodeFixed64(body.data());
  marker->records = DecodeFixed64(body.data() + 8);
  marker->kind = static_cast<CommitLogMarkerKind>(kind);
  return true;
}

std::string_view CommitLogMarkerHead() {
  static const std::string head = [] {
    std::string h;
    PutFixed32(&h, kCommitLogMarkerLength);
    PutFixed32(&h, Checksum32(h));
    return h;
  }();
  return head;
}

const char* RecordFrameErrorName(RecordFrameError e) {
  switch (e) {
    case RecordFrameError::kNone:
      return "ok";
    case RecordFrameError::kTruncated:
      return "truncated record";
    case RecordFrameError::kBadLengthChecksum:
      return "record length checksum mismatch";
    case RecordFrameError::kBadPayloadChecksum:
      return "record payload checksum mismatch";
    case RecordFrameError::kBadMarker:
      return "damaged sync marker";
    case RecordFrameError::kBadBlock:
      return "undecodable compressed block";
  }
  return "unknown record error";
}

RecordFrameError DecodeCommitLogRecordHead(std::string_view in, uint32_t* length) {
  if (in.size() < kCommitLogRecordHeaderSize) return RecordFrameError::kTruncated;
  if (DecodeFixed32(in.data() + 4) != Checksum32(in.substr(0, 4))) {
    return RecordFrameError::kBadLengthChecksum;
  }
  *length = DecodeFixed32(in.data());
  return RecordFrameError::kNone;
}

RecordFrameError VerifyCommitLogRecordBody(std::string_view body, std::string_view* payload) {
  if (body.size() < 4) return RecordFrameError::kTruncated;
  std::string_view p = body.substr(0, body.size() - 4);
  if (DecodeFixed32(body.data() + p.size()) != Checksum32(p)) {
    return RecordFrameError::kBadPayloadChecksum;
  }
  *payload = p;
  return RecordFrameError::kNone;
}

}  // namespace cassette
