// Compressed blocks: what a version-3 segment holds in place of single
// records (FORMAT.md, "Blocks"). Records appended close together (a group
// commit, or a periodic sync's worth) are compressed as one block, so the
// partition keys, column values and timestamps that repeat from record to
// record are stored about once per block instead of once per record: the
// log is what wears an edge device's flash most, and for time series it
// shrinks to a fraction.
//
//   block   := u8 codec | varint content_size | data
//   content := (varint length | payload) * n        n >= 1
//   codec 0: data is the content as is (zstd did not make it smaller)
//   codec 1: data is one zstd frame of the content
//
// The block is the payload of an ordinary record frame, so its checksums
// and the markers around it work as in version 2.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/commitlog/commit_log_format.h"

struct ZSTD_CCtx_s;

namespace cassette {

// The largest content a reader accepts (bounds what a damaged or hostile
// block can make it allocate). A block holds either records up to the
// log's block size or one record up to CommitLogOptions::MaxRecordSize(),
// which is kept below this.
inline constexpr uint64_t kMaxCommitLogBlockContent = 256ull << 20;
// The codec byte and the longest content_size varint.
inline constexpr uint64_t kCommitLogBlockHeaderMax = 1 + 10;
// What a record costs in a block besides its payload: its varint length.
inline constexpr uint64_t kCommitLogBlockRecordOverheadMax = 10;

enum class CommitLogBlockCodec : uint8_t {  // on disk: do not renumber
  kStored = 0,
  kZstd = 1,
};

// Collects the records of one block and frames it. Thread-compatible.
class CommitLogBlockBuilder {
 public:
  explicit CommitLogBlockBuilder(int compression_level);
  ~CommitLogBlockBuilder();
  CommitLogBlockBuilder(const CommitLogBlockBuilder&) = delete;
  CommitLogBlockBuilder& operator=(const CommitLogBlockBuilder&) = delete;

  void Add(std::string_view payload);
  // Forgets the records added after the builder held `records` records
  // and `content_size` bytes (an Append whose write failed).
  void TruncateTo(uint64_t records, uint64_t content_size);
  void Clear();

  bool empty() const { return records_ == 0; }
  uint64_t records() const { return records_; }
  uint64_t content_size() const { return content_.size(); }
  // What Add(payload) would add to content_size().
  static uint64_t ContentCost(uint64_t payload_size);
  // The most bytes FrameTo can append for a content of this size.
  static uint64_t MaxFramedSize(uint64_t content_size);

  // Appends the block, framed as a record (EncodeCommitLogRecord), to *out;
  // the builder keeps its records (Clear() when the write succeeded).
  // REQUIRES: !empty().
  void FrameTo(std::string* out);

 private:
  ZSTD_CCtx_s* ctx_ = nullptr;
  const int level_;
  std::string content_;
  std::string block_;
  uint64_t records_ = 0;
};

// Checks a block (the payload of a frame whose checksum matched) and
// decodes its content into *content: kBadBlock when the codec is unknown,
// the content does not decompress to its stated size, or the content is
// not one or more whole records. *records receives their number.
RecordFrameError DecodeCommitLogBlock(std::string_view block, std::string* content,
                                      uint64_t* records);

// The next record of a content DecodeCommitLogBlock accepted.
// REQUIRES: !content->empty().
std::string_view NextCommitLogBlockRecord(std::string_view* content);

}  // namespace cassette
