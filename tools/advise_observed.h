// The observed form of `cassette advise`: the workload an existing table
// has seen (rate per identifier, row size, TTL mix), read from its data and
// statistics, and how its current bucketing and TWCS window compare with
// what the rule recommends for that workload.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/status.h"
#include "tools/advise_rule.h"

namespace cassette::tools {

struct ObservedWorkload {
  std::string keyspace;
  std::string table;
  // The partition key's columns by role (docs/ADVISE.md says how they are
  // told apart: type and name).
  std::vector<std::string> identifier_columns;
  std::vector<std::string> bucket_columns;
  std::vector<std::string> sub_bucket_columns;

  int64_t rows = 0;
  int64_t partitions = 0;
  int64_t identifiers = 0;
  int64_t max_rows_per_partition = 0;
  // Rows per second per identifier: over all identifiers with rows spread
  // over at least a second, and for the identifier with the most rows.
  double mean_rows_per_second = 0;
  double busiest_rows_per_second = 0;
  // Mean bytes of a row's clustering and cell values, plus 8 per cell.
  double row_bytes = 0;
  // TTL given at write (seconds, 0 = none) -> rows.
  std::map<int64_t, int64_t> ttl_mix;
  int64_t dominant_ttl_seconds = 0;  // the TTL of the most rows
  int32_t default_time_to_live = 0;

  // The table's current layout.
  std::optional<int64_t> bucket_seconds;  // nullopt: no time bucket, or not recognized
  int64_t sub_buckets = 1;                // distinct sub-bucket values
  std::string compaction_class;
  std::optional<TwcsWindow> window;  // TWCS tables

  // From the SSTables' statistics (0 when nothing is flushed).
  int64_t partition_size_p50 = 0;
  int64_t partition_size_p99 = 0;
  int64_t partition_size_max = 0;
};

// Reads `keyspace.table` of `db` (every row, with WRITETIME and TTL) and
// its statistics. InvalidRequest for a missing table; InvalidArgument
// when the data cannot give a rate (no identifier with rows a second apart).
Result<ObservedWorkload> ObserveTable(Database* db, const std::string& keyspace,
                                      const std::string& table);

// What fits and what to change, one sentence each, comparing the table's
// layout with `advice` (made from the observed workload).
std::vector<std::string> CompareWithAdvice(const ObservedWorkload& observed, const Advice& advice);

std::string ObservedText(const ObservedWorkload& observed,
                         const std::vector<std::string>& findings);
// The "observed" and "findings" members of the JSON object (no braces).
std::string ObservedJsonMembers(const ObservedWorkload& observed,
                                const std::vector<std::string>& findings);

}  // namespace cassette::tools
