// CreateCompactionStrategy: maps the `class` of a table's compaction option
// to a strategy, as Cassandra's CompactionParams does: a name without a dot
// is looked up in org.apache.cassandra.db.compaction.
#include <string_view>

#include "engine/compaction/compaction_strategy.h"
#include "engine/compaction/leveled_compaction_strategy.h"
#include "engine/compaction/size_tiered_compaction_strategy.h"
#include "engine/compaction/time_window_compaction_strategy.h"
#include "engine/compaction/unified_compaction_strategy.h"

namespace cassette {

namespace {
constexpr std::string_view kPackage = "org.apache.cassandra.db.compaction.";
}  // namespace

Result<std::unique_ptr<CompactionStrategy>> CreateCompactionStrategy(
    const std::map<std::string, std::string>& options) {
  auto class_option = options.find("class");
  if (class_option == options.end()) {
    return Status::ConfigurationError("Missing sub-option 'class' for the 'compaction' option.");
  }
  const std::string qualified = class_option->second.find('.') == std::string::npos
                                    ? std::string(kPackage) + class_option->second
                                    : class_option->second;
  std::string_view name = qualified;
  if (name.substr(0, kPackage.size()) == kPackage) {
    name.remove_prefix(kPackage.size());
  } else {
    name = {};  // another package: no strategy of ours
  }
  if (name == "SizeTieredCompactionStrategy") return NewSizeTieredCompactionStrategy(options);
  if (name == "LeveledCompactionStrategy") return NewLeveledCompactionStrategy(options);
  if (name == "TimeWindowCompactionStrategy") return NewTimeWindowCompactionStrategy(options);
  if (name == "UnifiedCompactionStrategy") return NewUnifiedCompactionStrategy(options);
  return Status::ConfigurationError("Unable to find compaction strategy class '" + qualified + "'");
}

}  // namespace cassette
