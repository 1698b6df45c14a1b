#include "engine/compaction/compaction_common_options.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

#include "engine/compaction/compaction_option_parsing.h"

namespace cassette {
namespace {

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

// Cassandra validates min_threshold and max_threshold in CompactionParams
// with StringUtils.isNumeric, so a sign or blank is "not an integer".
Status ParseThreshold(const std::map<std::string, std::string>& options, std::string_view key,
                      int32_t* out) {
  const std::optional<std::string> v = FindOption(options, key);
  if (!v) return Status::OK();
  if (!IsJavaNumeric(*v) || !ParseJavaInt(*v, out)) {
    return Config("Invalid value " + *v + " for '" + std::string(key) +
                  "' compaction sub-option - must be an integer");
  }
  return Status::OK();
}

}  // namespace

Result<CompactionCommonOptions> ParseCompactionCommonOptions(
    const std::map<std::string, std::string>& options, std::set<std::string>* unconsumed) {
  CompactionCommonOptions out;

  // CompactionParams.create reads this one first, upper-cased.
  if (std::optional<std::string> v = FindOption(options, "provide_overlapping_tombstones")) {
    std::string upper = *v;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper != "NONE" && upper != "ROW" && upper != "CELL") {
      return Config("Invalid value " + upper +
                    " for 'provide_overlapping_tombstones' compaction sub-option - must be one "
                    "of the following [NONE, ROW, CELL].");
    }
  }

  // AbstractCompactionStrategy.validateOptions, in its order.
  if (std::optional<std::string> v = FindOption(options, "tombstone_threshold")) {
    double threshold;
    if (!ParseJavaFloat(*v, &threshold)) {
      return Config(*v + " is not a parsable int (base10) for tombstone_threshold");
    }
    if (threshold < 0) {
      return Config("tombstone_threshold must be greater than 0, but was " +
                    FormatJavaPercentF(threshold));
    }
    out.tombstone_threshold = threshold;
    out.tombstone_options_given = true;
  }
  if (std::optional<std::string> v = FindOption(options, "tombstone_compaction_interval")) {
    int64_t interval;
    if (!ParseJavaLong(*v, &interval)) {
      return Config(*v + " is not a parsable int (base10) for tombstone_compaction_interval");
    }
    if (interval < 0) {
      return Config("tombstone_compaction_interval must be greater than 0, but was " +
                    std::to_string(interval));
    }
    out.tombstone_compaction_interval_seconds = interval;
    out.tombstone_options_given = true;
  }
  if (std::optional<std::string> v = FindOption(options, "unchecked_tombstone_compaction")) {
    if (!IsJavaBooleanLiteral(*v)) {
      return Config("'unchecked_tombstone_compaction' should be either 'true' or 'false', not '" +
                    *v + "'");
    }
    out.unchecked_tombstone_compaction = EqualsIgnoreCase(*v, "true");
    if (out.unchecked_tombstone_compaction) out.tombstone_options_given = true;
  }
  if (std::optional<std::string> v = FindOption(options, "log_all")) {
    if (!IsJavaBooleanLiteral(*v)) {
      return Config("'log_all' should either be 'true' or 'false', not " + *v);
    }
    out.log_all = EqualsIgnoreCase(*v, "true");
  }
  if (std::optional<std::string> v = FindOption(options, "enabled")) {
    if (!IsJavaBooleanLiteral(*v)) {
      return Config("enabled should either be 'true' or 'false', not " + *v);
    }
    out.enabled = EqualsIgnoreCase(*v, "true");
  }
  // Read with Boolean.parseBoolean and never validated: anything but "true"
  // (any case) is false.
  if (std::optional<std::string> v = FindOption(options, "only_purge_repaired_tombstones")) {
    out.only_purge_repaired_tombstones = EqualsIgnoreCase(*v, "true");
  }

  // CompactionParams.validate.
  CASSETTE_RETURN_IF_ERROR(ParseThreshold(options, "min_threshold", &out.min_threshold));
  CASSETTE_RETURN_IF_ERROR(ParseThreshold(options, "max_threshold", &out.max_threshold));
  if (out.min_threshold <= 0 || out.max_threshold <= 0) {
    return Config(
        "Disabling compaction by setting compaction thresholds to 0 has been removed, set the "
        "compaction option 'enabled' to false instead.");
  }
  if (out.min_threshold <= 1) {
    return Config("Min compaction threshold cannot be less than 2 (got " +
                  std::to_string(out.min_threshold) + ")");
  }
  if (out.min_threshold > out.max_threshold) {
    return Config("Min compaction threshold (got " + std::to_string(out.min_threshold) +
                  ") cannot be greater than max compaction threshold (got " +
                  std::to_string(out.max_threshold) + ")");
  }

  if (unconsumed != nullptr) {
    for (const char* key :
         {"class", "tombstone_threshold", "tombstone_compaction_interval",
          "unchecked_tombstone_compaction", "log_all", "enabled", "only_purge_repaired_tombstones",
          "provide_overlapping_tombstones", "min_threshold", "max_threshold"}) {
      unconsumed->erase(key);
    }
  }
  return out;
}

Status RejectUnknownCompactionOptions(const std::set<std::string>& unconsumed,
                                      std::string_view strategy) {
  if (unconsumed.empty()) return Status::OK();
  // Cassandra prints the key set of a HashMap ("[a, b]"); sorted here so the
  // message does not depend on hashing.
  std::string keys;
  for (const std::string& key : unconsumed) {
    if (!keys.empty()) keys += ", ";
    keys += key;
  }
  return Config("Properties specified [" + keys + "] are not understood by " +
                std::string(strategy));
}

}  // namespace cassette
