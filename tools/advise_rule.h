// The sizing rule behind `cassette advise` (docs/ADVISE.md): from a write
// rate per identifier, a row size and a TTL, a time bucket for the
// partition key, hash sub-buckets when one bucket of one identifier is
// still too big, and a TimeWindowCompactionStrategy window. Engine
// independent: plain arithmetic on plain values, so the rule is tested on
// its own and reused by the form that reads an existing table.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"

namespace cassette::tools {

// Readable units. InvalidArgument quoting the text when it is not one.
// A rate: "0.1/s", "6/min", "360/h", "8640/d", "1/10s" (one row every
// 10 s); a bare number is per second.
Result<double> ParseRatePerSecond(std::string_view text);
// A duration: "90s", "30m" or "30min", "12h", "7d", "2w", "1y" (365 d);
// a bare number is seconds; "none" is 0.
Result<int64_t> ParseDurationSeconds(std::string_view text);
// A size in bytes: "60", "60B", "1.5KB" (10^3), "2KiB" (2^10), "MB", "MiB".
Result<double> ParseByteSize(std::string_view text);

// "6 h", "10 min", "1 d", "1 week", "30 d", "365 d".
std::string DurationLabel(int64_t seconds);
// "518.4 KB", "8.64 MB" (decimal units, three significant digits).
std::string BytesLabel(double bytes);

struct AdviseInput {
  double rows_per_second = 0;  // per identifier (one sensor, one symbol)
  double row_bytes = 0;        // bytes one row adds to its partition
  int64_t ttl_seconds = 0;     // 0: the data never expires
  double target_partition_bytes = 100e6;
  int64_t identifiers = 1;  // only scales the table totals
};

struct TwcsWindow {
  std::string unit;  // MINUTES, HOURS or DAYS
  int64_t size = 1;
  int64_t seconds() const;
};

// One time bucket and what it gives for one identifier.
struct BucketChoice {
  int64_t bucket_seconds = 0;
  double rows_per_partition = 0;
  double partition_bytes = 0;  // one identifier, one bucket, no sub-buckets
  // Hash sub-buckets needed to bring each partition under the target.
  int64_t sub_buckets_needed = 1;
  // With a TTL: TWCS windows holding live data if the window equals the
  // bucket (ceil(TTL / bucket)). Without: windows added per year.
  int64_t window_count = 0;
  std::string note;  // "over the target", "under 1 MB: overhead dominates", ...
  bool recommended = false;
};

struct Advice {
  AdviseInput input;
  std::vector<BucketChoice> candidates;  // the usual buckets and the recommended one
  BucketChoice bucket;                   // the recommendation
  int64_t sub_buckets = 1;
  double partition_bytes = 0;  // of each sub-bucket of the recommendation
  TwcsWindow window;
  // ceil(TTL / window) with a TTL; windows added per year without.
  int64_t window_count = 0;
  // Without a TTL TWCS has nothing to drop: the window is given for
  // completeness and the reasons say so.
  bool twcs_recommended = false;
  std::vector<std::string> reasons;
  double bytes_per_day = 0;  // the whole table (identifiers x rate x row size)
  double live_bytes = 0;     // the whole table at steady state (TTL only)
};

// Partitions under this are dominated by per-partition overhead.
inline constexpr double kSmallPartitionBytes = 1e6;
// TWCS guidance (docs/ADVISE.md): about 20-30 windows over the data's life.
inline constexpr int64_t kTargetWindowCount = 25;
inline constexpr int64_t kMinWindowCount = 20;
inline constexpr int64_t kMaxWindowCount = 30;

// InvalidArgument when an input is out of range (rate, row size or target
// not positive, TTL negative, identifiers below 1).
Result<Advice> Advise(const AdviseInput& input);

// The TWCS window the rule picks for a TTL (> 0): the count of windows
// over the TTL closest to kTargetWindowCount, ties to the larger window.
TwcsWindow WindowForTtl(int64_t ttl_seconds);
// A bucket expressed as a TWCS window (buckets are whole minutes).
TwcsWindow WindowOfSeconds(int64_t seconds);

}  // namespace cassette::tools
