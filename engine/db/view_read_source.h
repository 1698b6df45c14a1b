// ViewReadSource: the read path's window onto one Table::View. Chooses the
// sources that may hold a partition (memtables always; SSTables only when
// their key range and bloom filter admit the key and their clustering
// bounds intersect the slice) and skips SSTables whose newest data is older
// than a partition deletion already found in a newer source. An SSTable
// holding only rows is read only when the merge reaches its clustering
// bounds (DeferredRowIterator), so a limited read skips the files whose
// rows all come after the ones it returned.
#pragma once

#include <memory>
#include <optional>

#include "cassette/query.h"
#include "engine/db/table.h"
#include "engine/mutation/token_interval.h"
#include "engine/read/read_source.h"

namespace cassette {

// The tokens of `tokens` above `start_after_token` (a partially released
// compaction input); nullopt when none is left.
std::optional<TokenInterval> CoveredRange(const TokenInterval& tokens,
                                          std::optional<int64_t> start_after_token);

// For tests only (tests/db/sstable_skip_pairing_test.cc): while false,
// ReadPartition reads every SSTable that covers the key, skipping none by
// bloom filter, key range, clustering bounds or an older partition
// deletion and deferring none, so that the test can pair the skips with
// reading everything. True unless a test sets it; production code never does.
void SetSSTableSkipsForTesting(bool enabled);

class ViewReadSource final : public ReadSource {
 public:
  explicit ViewReadSource(std::shared_ptr<const Table::View> view) : view_(std::move(view)) {}

  Result<std::vector<PartitionContent>> ReadPartition(const DecoratedKey& key,
                                                      const ClusteringRange& range, bool reversed,
                                                      ReadStats* stats) override;
  Result<std::vector<std::unique_ptr<PartitionIterator>>> ScanPartitions(
      const TokenInterval& tokens, ReadStats* stats) override;

 private:
  std::shared_ptr<const Table::View> view_;
};

}  // namespace cassette
