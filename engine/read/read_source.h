// ReadSource: where a read finds the raw data of a table (the memtables and
// SSTables of one consistent view). Sources return unreconciled data; the
// read path merges it and applies deletions and TTL at `now`.
#pragma once

#include <memory>
#include <vector>

#include "cassette/query.h"
#include "cassette/status.h"
#include "engine/mutation/clustering_bound.h"
#include "engine/mutation/decorated_key.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/token_interval.h"

namespace cassette {

class ReadSource {
 public:
  virtual ~ReadSource() = default;
  // One content per source that holds the key, rows restricted to `range`
  // and in reversed order when asked. Sources add what they touched
  // (memtables, SSTables, blocks) to *stats.
  virtual Result<std::vector<PartitionContent>> ReadPartition(const DecoratedKey& key,
                                                              const ClusteringRange& range,
                                                              bool reversed, ReadStats* stats) = 0;
  // One iterator per source over its partitions whose tokens are in
  // `tokens`, in partition order. The read path only uses their keys.
  virtual Result<std::vector<std::unique_ptr<PartitionIterator>>> ScanPartitions(
      const TokenInterval& tokens, ReadStats* stats) = 0;
};

}  // namespace cassette
