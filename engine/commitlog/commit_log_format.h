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

// Format version written into file names and segment headers. Bump it for
// any incompatible change; a reader refuses versions it does not know.
inline constexpr uint32_t kCommitLogFormatVersion = 1;

// "CSCL" read as little-endian bytes 'C' 'S' 'C' 'L'.
inline constexpr uint32_t kCommitLogSegmentMagic = 0x4C435343;

// magic u32 | version u32 | segment id u64 | Checksum32 of the 16 bytes before.
inline constexpr uint64_t kCommitLogSegmentHeaderSize = 20;

// length u32 | Checksum32(length bytes) u32 | payload | Checksum32(payload) u32.
inline constexpr uint64_t kCommitLogRecordHeaderSize = 8;
inline constexpr uint64_t kCommitLogRecordOverhead = kCommitLogRecordHeaderSize + 4;

// "CommitLog-1-<id>.log".
std::string CommitLogSegmentFileName(uint64_t segment_id);

// What a directory entry is, as far as the commit log is concerned.
struct ParsedSegmentName {
  uint32_t version = 0;
  uint64_t segment_id = 0;
};
// Recognizes "CommitLog-<version>-<id>.log" with decimal numbers (any
// version, so a caller can refuse a newer format instead of ignoring it);
// nullopt for every other name.
std::optional<ParsedSegmentName> ParseCommitLogSegmentFileName(std::string_view name);

void EncodeCommitLogSegmentHeader(uint64_t segment_id, std::string* out);

// Decodes the first kCommitLogSegmentHeaderSize bytes of `in`.
// Corruption when they are missing, the magic or the checksum is wrong (a
// torn or foreign header); NotSupported when the header is intact but names
// another format version. The message starts with what went wrong; the
// caller prefixes the file name.
Status DecodeCommitLogSegmentHeader(std::string_view in, uint64_t* segment_id);

// Appends the framed record to *out. REQUIRES: payload.size() <= UINT32_MAX.
void EncodeCommitLogRecord(std::string_view payload, std::string* out);

// Why a frame could not be decoded.
enum class RecordFrameError : uint8_t {
  kNone,
  kTruncated,           // the file ends inside the frame
  kBadLengthChecksum,   // the length field is torn, zeroed or corrupt
  kBadPayloadChecksum,  // the payload or its checksum is torn or corrupt
};
const char* RecordFrameErrorName(RecordFrameError e);

// Decodes the 8-byte frame head at the front of `in`: the payload length
// once its checksum matches. kTruncated when fewer than 8 bytes remain.
RecordFrameError DecodeCommitLogRecordHead(std::string_view in, uint32_t* length);

// Checks `body` = payload followed by its 4-byte checksum and returns the
// payload. REQUIRES: body.size() == length + 4 for the decoded length.
RecordFrameError VerifyCommitLogRecordBody(std::string_view body, std::string_view* payload);

}  // namespace cassette
