// The compaction lab's workload: what `cassette simulate` replays on a
// virtual clock (docs/LAB.md has the file format). A WorkloadSpec is read
// from a TOML file (toml++, Debian's libtomlplusplus-dev) and checked as a
// whole: every problem is reported at once, with its line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"

namespace cassette::tools {

// A write's TTL: `seconds` (0: none; -1: the table's default) for this
// fraction of the writes.
struct TtlShare {
  int64_t seconds = -1;
  double fraction = 1;
};

struct WorkloadSpec {
  // [table]
  std::string create_table_cql;  // CREATE TABLE ks.t (...) WITH ...
  std::string keyspace;          // taken from the statement
  std::string table;
  std::string identifier_column;  // partition key column naming the source
  std::string bucket_column;      // partition key column of the time bucket ("": none)
  // A partition key column of hash sub-buckets (int or bigint, 0 to
  // hash_buckets - 1): each identifier's bucket spread over that many
  // partitions, which the newest and range reads all read ("": none).
  std::string hash_column;
  int64_t hash_buckets = 1;
  int64_t bucket_seconds = 86400;
  std::string time_column;  // the event time: a timestamp clustering (or regular) column
  // An int or bigint column numbering each identifier's writes from 1 (a
  // tick table's seq_number), clustering or regular ("": none).
  std::string sequence_column;
  std::string payload_column;  // a blob or text column filled to the row size

  // [writes]
  int64_t identifiers = 100;
  double interval_seconds = 10;  // between two writes of one identifier
  // "constant", or "diurnal": the rate follows the day, from
  // 1 - amplitude at 03:00 to 1 + amplitude at 15:00 (UTC).
  std::string shape = "constant";
  double amplitude = 0.5;
  int64_t row_bytes = 60;         // payload bytes, mean
  int64_t row_bytes_spread = 0;   // uniform in mean ± spread
  std::vector<TtlShare> ttl_mix;  // empty: every write takes the table's default
  double late_fraction = 0;       // writes whose event time lags
  int64_t late_max_seconds = 0;   // lateness uniform in (0, max]
  // writes.timestamps: "arrival" (false; the server's clock, as a plain
  // INSERT gets) or "event" (true): late writes carry their event time
  // as USING TIMESTAMP.
  bool event_timestamps = false;

  // [deletes], fractions of writes
  double row_delete_fraction = 0;
  double partition_delete_fraction = 0;
  double range_delete_fraction = 0;    // a range of event times in one partition
  int64_t range_delete_seconds = 600;  // its length

  // [reads]
  double read_interval_seconds = 0;  // 0: no reads
  double newest_fraction = 1;        // the newest `newest_rows` rows of a partition
  int64_t newest_rows = 10;
  double range_fraction = 0;  // the last `range_seconds` of a partition
  int64_t range_seconds = 3600;
  double point_fraction = 0;    // one row written earlier
  double missing_fraction = 0;  // a partition never written

  // [run]
  int64_t duration_seconds = 86400;
  int64_t start_seconds = 1704067200;  // 2024-01-01T00:00:00Z
  int64_t sample_seconds = 3600;       // a point of the time series every
  uint64_t seed = 1;
  uint64_t memtable_bytes = 4 << 20;
  std::vector<std::string> strategies;  // SPECs, as --strategy takes them
  // Sampling (tools/lab_sampling.h): replay this fraction of the
  // identifiers, with the sizes scaled to match, and measure the error
  // that makes over `sample_check_seconds` (0: a tenth of the duration,
  // at least a day, at most the duration).
  double sample = 1;
  int64_t sample_check_seconds = 0;
  // Set by sampling, not read from the file: what the byte sizes of the
  // strategy's options are multiplied by.
  double size_scale = 1;
};

// Parses and checks a workload. InvalidArgument listing every problem
// ("workload.toml:12: writes.identifiers must be at least 1"); `name` is
// what messages call the text.
Result<WorkloadSpec> ParseWorkload(std::string_view toml, const std::string& name);
Result<WorkloadSpec> LoadWorkloadFile(const std::string& path);

// "30s", "15m", "12h", "7d", "2w" or plain seconds.
Result<int64_t> ParseDuration(std::string_view text);

}  // namespace cassette::tools
