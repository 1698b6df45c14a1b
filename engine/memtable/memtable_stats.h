// MemtableStats: minima and maxima over everything applied to a memtable:
// write timestamps (for the SSTable's statistics and TWCS bucketing) and
// the EncodingStats the flush writer encodes deltas against.
//
// Thread safety: Add needs external synchronization (the memtable's
// writer); getters may run concurrently and read each field atomically
// (two getters may straddle an Add).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>

#include "engine/mutation/partition_update.h"
#include "engine/mutation/plain_row.h"
#include "engine/mutation/row_codec.h"

namespace cassette {

class MemtableStats {
 public:
  // Writer.
  void Add(const PartitionUpdate& update);
  void Add(const PlainRow& row);

  // INT64_MAX / kNoTimestamp (INT64_MIN) when nothing carried a timestamp.
  int64_t MinTimestamp() const { return min_timestamp_.load(std::memory_order_relaxed); }
  int64_t MaxTimestamp() const { return max_timestamp_.load(std::memory_order_relaxed); }
  // Minimum timestamp, minimum local deletion time (ignoring the "none"
  // sentinel) and minimum ttl of expiring data; 0 where nothing applies.
  EncodingStats encoding_stats() const;

 private:
  std::atomic<int64_t> min_timestamp_{std::numeric_limits<int64_t>::max()};
  std::atomic<int64_t> max_timestamp_{std::numeric_limits<int64_t>::min()};
  std::atomic<int64_t> min_local_deletion_time_{std::numeric_limits<int64_t>::max()};
  std::atomic<int32_t> min_ttl_{std::numeric_limits<int32_t>::max()};
};

}  // namespace cassette
