// Guardrails for TimeWindowCompactionStrategy tables, checked when a
// table is created or its options altered: TWCS works when a table's data
// expires by TTL and the TTL spans a modest number of windows (Cassandra's
// documentation recommends at most 50). The warnings say what goes wrong
// and suggest a window size. Pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cassette {

// Cassandra's recommended ceiling on TTL / window.
constexpr int64_t kTwcsMaxRecommendedWindows = 50;

// Warnings for a table with `compaction_options` (its compaction map,
// "class" included) and `default_time_to_live_seconds` (0 = none). Empty
// when the class is not TimeWindowCompactionStrategy, when the options do
// not validate (validation reports that), or when all is well.
std::vector<std::string> TwcsGuardrailWarnings(
    const std::map<std::string, std::string>& compaction_options,
    int32_t default_time_to_live_seconds);

}  // namespace cassette
