// SizeTieredCompactionStrategy (Cassandra's STCS; docs/COMPACTION.md): compacts
// together min_threshold..max_threshold files of similar size; when no
// bucket qualifies, rewrites alone the largest file whose droppable
// tombstones are worth a compaction. Fully expired inputs of a task are
// dropped whole, as Cassandra's CompactionTask does. Thread-compatible.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "cassette/status.h"
#include "engine/compaction/compaction_common_options.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/compaction/size_tiered_buckets.h"

namespace cassette {

class SizeTieredCompactionStrategy : public CompactionStrategy {
 public:
  static constexpr std::string_view kName = "SizeTieredCompactionStrategy";

  SizeTieredCompactionStrategy(const CompactionCommonOptions& common,
                               const SizeTieredOptions& size_tiered)
      : common_(common), size_tiered_(size_tiered) {}

  std::string_view name() const override { return kName; }
  std::optional<CompactionTask> NextBackgroundTask(const CompactionSnapshot& snapshot) override;
  CompactionTask MajorTask(const CompactionSnapshot& snapshot) override;

  const CompactionCommonOptions& common_options() const { return common_; }
  const SizeTieredOptions& size_tiered_options() const { return size_tiered_; }

 private:
  CompactionCommonOptions common_;
  SizeTieredOptions size_tiered_;
};

// Validates `options` (the table's compaction map; "class" is ignored)
// with Cassandra's messages and builds the strategy.
Result<std::unique_ptr<CompactionStrategy>> NewSizeTieredCompactionStrategy(
    const std::map<std::string, std::string>& options);

}  // namespace cassette
