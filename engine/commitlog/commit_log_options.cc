#include "engine/commitlog/commit_log_options.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/commitlog/commit_log_block.h"
#include "engine/commitlog/commit_log_format.h"

namespace cassette {

Status CommitLogOptions::Validate() const {
  std::vector<std::string> problems;
  if (dir.empty()) problems.push_back("dir must not be empty");
  const uint64_t min_segment =
      kCommitLogSegmentHeaderSize + kCommitLogRecordOverhead + 2 * kCommitLogMarkerSize + 1;
  if (segment_size < min_segment) {
    problems.push_back("segment_size " + std::to_string(segment_size) + " must be at least " +
                       std::to_string(min_segment));
  }
  if (sync_period_ms < 0) {
    problems.push_back("sync_period_ms " + std::to_string(sync_period_ms) +
                       " must not be negative");
  }
  if (group_window_ms < 0) {
    problems.push_back("group_window_ms " + std::to_string(group_window_ms) +
                       " must not be negative");
  }
  if (compression_level < 1 || compression_level > 19) {
    problems.push_back("compression_level " + std::to_string(compression_level) +
                       " must be in 1..19");
  }
  if (block_size == 0 || block_size > kMaxCommitLogBlockContent) {
    problems.push_back("block_size " + std::to_string(block_size) + " must be in 1.." +
                       std::to_string(kMaxCommitLogBlockContent));
  }
  if (background_sync && sync == CommitLogSync::kPeriodic && sync_period_ms <= 0) {
    problems.push_back("background_sync needs sync_period_ms > 0");
  }
  if (problems.empty()) return Status::OK();
  std::string message = "invalid commit log options: ";
  for (size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) message += "; ";
    message += problems[i];
  }
  return Status::InvalidArgument(std::move(message));
}

uint64_t CommitLogOptions::MaxRecordSize() const {
  // A record must fit in an empty segment with the sync marker and the
  // seal after it; its length must not be the marker's. Compressed, it
  // may be stored in a block of its own, with the block's header and its
  // length prefix, and a block's content is bounded.
  uint64_t framing =
      kCommitLogSegmentHeaderSize + kCommitLogRecordOverhead + 2 * kCommitLogMarkerSize;
  uint64_t largest = kCommitLogMarkerLength - 1;
  if (compression != CommitLogCompression::kNone) {
    framing += kCommitLogBlockHeaderMax + kCommitLogBlockRecordOverheadMax;
    largest = kMaxCommitLogBlockContent - kCommitLogBlockRecordOverheadMax;
  }
  if (segment_size <= framing) return 0;
  return std::min<uint64_t>(segment_size - framing, largest);
}

}  // namespace cassette
