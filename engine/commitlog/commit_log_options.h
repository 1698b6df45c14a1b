// CommitLogOptions: how the commit log lays out and syncs its segments. The
// database fills it from Options (commitlog_* fields).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "cassette/options.h"
#include "cassette/status.h"

namespace cassette {

struct CommitLogOptions {
  // Directory holding the segments; created when missing.
  std::string dir;
  // A segment is closed and a new one started when the next record would
  // make it larger than this. Also bounds a record: payload + 12 bytes of
  // framing + the 20-byte segment header must fit.
  uint64_t segment_size = 32ull << 20;
  CommitLogSync sync = CommitLogSync::kPeriodic;
  // periodic: at most this long between fsyncs while records arrive.
  int64_t sync_period_ms = 10000;
  // group: at most one fsync per window while writers keep arriving.
  int64_t group_window_ms = 1000;
  // periodic: also sync from a background thread every period, so the last
  // records of a burst become durable without waiting for the next write.
  // Runs on real time: only for the system clock.
  bool background_sync = false;
  // kZstd: segments in format 3, records compressed in blocks at this zstd
  // level; in periodic mode a block is written once it holds block_size
  // bytes of records (or at the next sync), in the other modes at once.
  // Called once, by the writer that saw it, when the log fails for good (a
  // failed fsync or an uncut failed write), after the failure is recorded
  // (the database's commit_failure_policy die terminates the process).
  std::function<void(const Status&)> on_failure;
  CommitLogCompression compression = CommitLogCompression::kNone;
  int compression_level = 1;
  uint64_t block_size = 64ull << 10;

  // InvalidArgument listing every problem at once.
  Status Validate() const;
  // The largest payload Append accepts.
  uint64_t MaxRecordSize() const;
};

}  // namespace cassette
