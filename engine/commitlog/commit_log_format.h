// The commit log's on-disk format: segment file names, the segment header
// and the record frame. Pure functions over bytes; I/O lives in the segment
// writer and reader. FORMAT.md beside this file has the byte diagrams.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette {

// Format versions, written into file names and segment headers. Bump for
// any incompatible change; a reader refuses versions it does not know.
// Version 2 added sync and seal markers; version 1 segments are still read.
// Version 3 is version 2 with compressed blocks of records in place of
// single records (commit_log_block.h); it is written only when the log is
// configured to compress, so a log without compression stays readable by
// builds that predate it.
inline constexpr uint32_t kCommitLogFormatVersion = 2;
inline constexpr uint32_t kCompressedCommitLogFormatVersion = 3;
inline constexpr uint32_t kOldestCommitLogFormatVersion = 1;
inline constexpr uint32_t kNewestCommitLogFormatVersion = kCompressedCommitLogFormatVersion;

// "CSCL" read as little-endian bytes 'C' 'S' 'C' 'L'.
inline constexpr uint32_t kCommitLogSegmentMagic = 0x4C435343;

// magic u32 | version u32 | segment id u64 | Checksum32 of the 16 bytes before.
inline constexpr uint64_t kCommitLogSegmentHeaderSize = 20;

// length u32 | Checksum32(length bytes) u32 | payload | Checksum32(payload) u32.
inline constexpr uint64_t kCommitLogRecordHeaderSize = 8;
inline constexpr uint64_t kCommitLogRecordOverhead = kCommitLogRecordHeaderSize + 4;

// "CommitLog-2-<id>.log" (the version this build writes).
std::string CommitLogSegmentFileName(uint64_t segment_id);
// The name of a segment written in `version`.
std::string CommitLogSegmentFileName(uint32_t version, uint64_t segment_id);

// What a directory entry is, as far as the commit log is concerned.
struct ParsedSegmentName {
  uint32_t version = 0;
  uint64_t segment_id = 0;
};
// Recognizes "CommitLog-<version>-<id>.log" with decimal numbers (any
// version, so a caller can refuse a newer format instead of ignoring it);
// nullopt for every other name.
std::optional<ParsedSegmentName> ParseCommitLogSegmentFileName(std::string_view name);

// The header of a segment in kCommitLogFormatVersion, or in `version`.
void EncodeCommitLogSegmentHeader(uint64_t segment_id, std::string* out);
void EncodeCommitLogSegmentHeader(uint32_t version, uint64_t segment_id, std::string* out);

// Decodes the first kCommitLogSegmentHeaderSize bytes of `in`.
// Corruption when they are missing, the magic or the checksum is wrong (a
// torn or foreign header); NotSupported when the header is intact but names
// a format version this build does not read. *version receives the
// header's version. The message starts with what went wrong; the caller
// prefixes the file name.
Status DecodeCommitLogSegmentHeader(std::string_view in, uint64_t* segment_id, uint32_t* version);

// Appends the framed record to *out.
// REQUIRES: payload.size() < kCommitLogMarkerLength.
void EncodeCommitLogRecord(std::string_view payload, std::string* out);

// Markers (version 2). A marker is a frame whose length field holds
// kCommitLogMarkerLength, a value no record can have. Its body says where
// it stands and how many records precede it in the segment, so a reader
// can find a marker past damaged bytes and know what the damage cost:
//   kSync: written just before each fsync of the segment. Damage before
//     a valid marker was fsynced, so it is corruption, not a torn write.
//   kSeal: the last frame of every segment that is not the newest
//     (written when the log moves on to the next segment, or at open for
//     the previous run's last segment). A segment that lost its end lost
//     its seal.
inline constexpr uint32_t kCommitLogMarkerLength = UINT32_MAX;
// head (8) | own offset u64 | records u64 | kind u32 | Checksum32 of the 20 bytes before.
inline constexpr uint64_t kCommitLogMarkerSize = kCommitLogRecordHeaderSize + 24;

enum class CommitLogMarkerKind : uint32_t {  // on disk: do not renumber
  kSync = 1,
  kSeal = 2,
};

struct CommitLogMarker {
  uint64_t offset = 0;   // where the marker starts in its segment
  uint64_t records = 0;  // records of the segment before it
  CommitLogMarkerKind kind = CommitLogMarkerKind::kSync;
};

void EncodeCommitLogMarker(const CommitLogMarker& marker, std::string* out);
// True when `in` starts with kCommitLogMarkerSize bytes forming a marker
// whose checksum matches and whose kind is known (the caller checks the
// offset against where it read it).
bool DecodeCommitLogMarker(std::string_view in, CommitLogMarker* marker);
// The 8 bytes every marker starts with, to search for after damage.
std::string_view CommitLogMarkerHead();

// Why a frame could not be decoded.
enum class RecordFrameError : uint8_t {
  kNone,
  kTruncated,           // the file ends inside the frame
  kBadLengthChecksum,   // the length field is torn, zeroed or corrupt
  kBadPayloadChecksum,  // the payload or its checksum is torn or corrupt
  kBadMarker,           // a marker that fails its checksum or is out of place
  kBadBlock,            // (version 3) a block whose checksum matches but that does not decode
};
const char* RecordFrameErrorName(RecordFrameError e);

// Decodes the 8-byte frame head at the front of `in`: the payload length
// once its checksum matches (kCommitLogMarkerLength for a marker in version
// 2). kTruncated when fewer than 8 bytes remain.
RecordFrameError DecodeCommitLogRecordHead(std::string_view in, uint32_t* length);

// Checks `body` = payload followed by its 4-byte checksum and returns the
// payload. REQUIRES: body.size() == length + 4 for the decoded length.
RecordFrameError VerifyCommitLogRecordBody(std::string_view body, std::string_view* payload);

}  // namespace cassette
