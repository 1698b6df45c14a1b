// Options::Validate: every problem reported at once, nothing clamped.
#include "cassette/options.h"

#include <string>
#include <vector>

namespace cassette {
namespace {

// engine/commitlog/commit_log_block.h's kMaxCommitLogBlockContent less a
// record's length prefix (options.cc does not depend on the commit log).
constexpr uint64_t kMaxCompressedMutationSize = (256ull << 20) - 16;

}  // namespace

Status Options::Validate() const {
  std::vector<std::string> problems;
  if (!file_system) problems.push_back("file_system must be set");
  if (!clock) problems.push_back("clock must be set");
  if (!scheduler && background_threads < 1) {
    problems.push_back("background_threads must be >= 1 when no scheduler is given");
  }
  if (commitlog_sync_period_ms <= 0) problems.push_back("commitlog_sync_period_ms must be > 0");
  if (commitlog_sync_group_window_ms <= 0) {
    problems.push_back("commitlog_sync_group_window_ms must be > 0");
  }
  if (commitlog_segment_size < (1u << 16)) {
    problems.push_back("commitlog_segment_size must be >= 65536");
  }
  if (max_mutation_size == 0 || max_mutation_size > commitlog_segment_size / 2) {
    problems.push_back("max_mutation_size must be > 0 and <= commitlog_segment_size / 2");
  }
  if (commitlog_compression_level < 1 || commitlog_compression_level > 19) {
    problems.push_back("commitlog_compression_level must be in 1..19");
  }
  if (commitlog_compression_block_size < 1 || commitlog_compression_block_size > (16ull << 20)) {
    problems.push_back("commitlog_compression_block_size must be in 1..16777216");
  }
  if (commitlog_compression != CommitLogCompression::kNone &&
      max_mutation_size > kMaxCompressedMutationSize) {
    problems.push_back(
        "max_mutation_size must be <= " + std::to_string(kMaxCompressedMutationSize) +
        " with commitlog_compression (a compressed block holds at most 256 MiB)");
  }
  if (memtable_flush_threshold < 4096)
    problems.push_back("memtable_flush_threshold must be >= 4096");
  if (compaction_threads < 0) problems.push_back("compaction_threads must be >= 0");
  if (compaction_thread_nice < 0 || compaction_thread_nice > 19) {
    problems.push_back("compaction_thread_nice must be in 0..19");
  }
  if (late_write_tolerance_seconds < 0) {
    problems.push_back("late_write_tolerance_seconds must be >= 0");
  }
  if (tombstone_warn_threshold <= 0 || tombstone_failure_threshold <= 0) {
    problems.push_back("tombstone thresholds must be > 0");
  }
  if (log_file_max_size < 1024) problems.push_back("log_file_max_size must be >= 1024");
  if (log_file_keep < 0) problems.push_back("log_file_keep must be >= 0");
  if (background_retry_initial_ms <= 0 || background_retry_max_ms < background_retry_initial_ms) {
    problems.push_back("background_retry_initial_ms must be > 0 and <= background_retry_max_ms");
  }
  if (problems.empty()) return Status::OK();
  std::string message = "invalid options:";
  for (const std::string& p : problems) message += " " + p + ";";
  message.pop_back();
  return Status::InvalidArgument(message);
}

}  // namespace cassette
