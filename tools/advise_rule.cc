#include "tools/advise_rule.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

namespace cassette::tools {

namespace {

constexpr int64_t kMinute = 60;
constexpr int64_t kHour = 3600;
constexpr int64_t kDay = 86400;
constexpr int64_t kWeek = 7 * kDay;
constexpr int64_t kYear = 365 * kDay;

// Buckets the rule may pick: whole minutes, hours or days that tile the
// larger ones (the smallest is a minute, TWCS's smallest window).
constexpr int64_t kBucketLadder[] = {
    kMinute, 2 * kMinute, 5 * kMinute, 10 * kMinute, 15 * kMinute, 20 * kMinute, 30 * kMinute,
    kHour,   2 * kHour,   3 * kHour,   4 * kHour,    6 * kHour,    8 * kHour,    12 * kHour,
    kDay,    2 * kDay,    kWeek,       14 * kDay,    30 * kDay,    kYear};

// The buckets every table shows (the ones time-series models use).
constexpr int64_t kShownBuckets[] = {kMinute, 10 * kMinute, kHour, kDay, kWeek, 30 * kDay, kYear};

// TWCS windows below a day: sizes that divide an hour or a day.
constexpr int64_t kSubDayWindows[] = {
    kMinute,      2 * kMinute,  3 * kMinute,  4 * kMinute,  5 * kMinute,  6 * kMinute,
    10 * kMinute, 12 * kMinute, 15 * kMinute, 20 * kMinute, 30 * kMinute, kHour,
    2 * kHour,    3 * kHour,    4 * kHour,    6 * kHour,    8 * kHour,    12 * kHour};

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// A leading decimal number and the rest of the text (its unit, trimmed).
bool SplitNumber(std::string_view text, double* number, std::string* unit) {
  text = Trim(text);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *number);
  if (error != std::errc() || !std::isfinite(*number)) return false;
  *unit = Lower(Trim(std::string_view(end, static_cast<size_t>(text.data() + text.size() - end))));
  return true;
}

int64_t CeilDiv(double numerator, double denominator) {
  return static_cast<int64_t>(std::ceil(numerator / denominator - 1e-9));
}

std::string Significant(double value) {
  char buffer[32];
  if (value >= 100 || value == std::floor(value)) {
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);
  } else if (value >= 10) {
    std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%.2f", value);
  }
  std::string out = buffer;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

BucketChoice Evaluate(const AdviseInput& input, int64_t bucket_seconds) {
  BucketChoice choice;
  choice.bucket_seconds = bucket_seconds;
  choice.rows_per_partition = input.rows_per_second * static_cast<double>(bucket_seconds);
  choice.partition_bytes = choice.rows_per_partition * input.row_bytes;
  choice.sub_buckets_needed =
      std::max<int64_t>(1, CeilDiv(choice.partition_bytes, input.target_partition_bytes));
  choice.window_count = input.ttl_seconds > 0
                            ? CeilDiv(static_cast<double>(input.ttl_seconds), bucket_seconds)
                            : CeilDiv(static_cast<double>(kYear), bucket_seconds);
  if (choice.sub_buckets_needed > 1) {
    choice.note = "over the target: " + std::to_string(choice.sub_buckets_needed) + " sub-buckets";
  } else if (choice.partition_bytes < kSmallPartitionBytes) {
    choice.note = "under 1 MB: overhead dominates";
  } else {
    choice.note = "fits the target";
  }
  return choice;
}

}  // namespace

Result<int64_t> ParseDurationSeconds(std::string_view text) {
  const std::string lowered = Lower(Trim(text));
  if (lowered == "none") return int64_t{0};
  double number = 0;
  std::string unit;
  if (!SplitNumber(text, &number, &unit) || number < 0) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not a duration (e.g. 90s, 30m, 12h, 7d, 2w, 1y, none)");
  }
  double scale = 0;
  if (unit.empty() || unit == "s" || unit == "sec" || unit == "second" || unit == "seconds") {
    scale = 1;
  } else if (unit == "m" || unit == "min" || unit == "minute" || unit == "minutes") {
    scale = kMinute;
  } else if (unit == "h" || unit == "hour" || unit == "hours") {
    scale = kHour;
  } else if (unit == "d" || unit == "day" || unit == "days") {
    scale = kDay;
  } else if (unit == "w" || unit == "week" || unit == "weeks") {
    scale = kWeek;
  } else if (unit == "y" || unit == "year" || unit == "years") {
    scale = kYear;
  } else {
    return Status::InvalidArgument("unknown time unit '" + unit + "' in '" + std::string(text) +
                                   "' (use s, m, h, d, w or y)");
  }
  const double seconds = std::round(number * scale);
  if (seconds > 1e12) {
    return Status::InvalidArgument("'" + std::string(text) + "' is too long a duration");
  }
  return static_cast<int64_t>(seconds);
}

Result<double> ParseRatePerSecond(std::string_view text) {
  const std::string_view trimmed = Trim(text);
  const size_t slash = trimmed.find('/');
  double rows = 0;
  std::string rest;
  const std::string_view count =
      slash == std::string_view::npos ? trimmed : trimmed.substr(0, slash);
  if (!SplitNumber(count, &rows, &rest) || !rest.empty() || rows <= 0) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not a positive rate (e.g. 0.1/s, 6/min, 1/10s, 360/h)");
  }
  if (slash == std::string_view::npos) return rows;
  std::string period(Trim(trimmed.substr(slash + 1)));
  // "/s", "/min": one unit of time.
  if (!period.empty() && std::isalpha(static_cast<unsigned char>(period.front()))) {
    period = "1" + period;
  }
  Result<int64_t> seconds = ParseDurationSeconds(period);
  if (!seconds.ok() || *seconds <= 0) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "': the period after '/' must be a duration such as s, min, "
                                   "h, d or 10s");
  }
  return rows / static_cast<double>(*seconds);
}

Result<double> ParseByteSize(std::string_view text) {
  double number = 0;
  std::string unit;
  if (!SplitNumber(text, &number, &unit) || number <= 0) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not a positive size (e.g. 60, 60B, 1.5KB, 2KiB)");
  }
  static const std::pair<const char*, double> kUnits[] = {
      {"", 1},     {"b", 1},        {"kb", 1e3},        {"mb", 1e6},
      {"gb", 1e9}, {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0},
      {"k", 1e3},  {"m", 1e6},      {"g", 1e9}};
  for (const auto& [name, scale] : kUnits) {
    if (unit == name) return number * scale;
  }
  return Status::InvalidArgument("unknown size unit '" + unit + "' in '" + std::string(text) +
                                 "' (use B, KB, MB, GB, KiB, MiB or GiB)");
}

std::string DurationLabel(int64_t seconds) {
  if (seconds == kWeek) return "1 week";
  if (seconds % kDay == 0) return std::to_string(seconds / kDay) + " d";
  if (seconds % kHour == 0) return std::to_string(seconds / kHour) + " h";
  if (seconds % kMinute == 0) return std::to_string(seconds / kMinute) + " min";
  return std::to_string(seconds) + " s";
}

std::string BytesLabel(double bytes) {
  static const std::pair<double, const char*> kUnits[] = {
      {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"}};
  for (const auto& [scale, name] : kUnits) {
    if (bytes >= scale) return Significant(bytes / scale) + " " + name;
  }
  return Significant(bytes) + " B";
}

int64_t TwcsWindow::seconds() const {
  const int64_t unit_seconds = unit == "MINUTES" ? kMinute : unit == "HOURS" ? kHour : kDay;
  return unit_seconds * size;
}

TwcsWindow WindowOfSeconds(int64_t seconds) {
  if (seconds % kDay == 0) return {"DAYS", seconds / kDay};
  if (seconds % kHour == 0) return {"HOURS", seconds / kHour};
  return {"MINUTES", std::max<int64_t>(1, seconds / kMinute)};
}

TwcsWindow WindowForTtl(int64_t ttl_seconds) {
  std::vector<int64_t> windows(std::begin(kSubDayWindows), std::end(kSubDayWindows));
  const int64_t days = std::max<int64_t>(1, CeilDiv(static_cast<double>(ttl_seconds), kDay));
  for (int64_t d = 1; d <= days; ++d) windows.push_back(d * kDay);
  int64_t best = windows.front();
  int64_t best_distance = INT64_MAX;
  for (int64_t window : windows) {
    const int64_t count = CeilDiv(static_cast<double>(ttl_seconds), window);
    const int64_t distance = std::abs(count - kTargetWindowCount);
    if (distance <= best_distance) {  // ties: the larger window (fewer files)
      best = window;
      best_distance = distance;
    }
  }
  return WindowOfSeconds(best);
}

Result<Advice> Advise(const AdviseInput& input) {
  if (!(input.rows_per_second > 0) || !std::isfinite(input.rows_per_second)) {
    return Status::InvalidArgument("the rate must be positive");
  }
  if (!(input.row_bytes > 0) || !std::isfinite(input.row_bytes)) {
    return Status::InvalidArgument("the row size must be positive");
  }
  if (!(input.target_partition_bytes > 0) || !std::isfinite(input.target_partition_bytes)) {
    return Status::InvalidArgument("the target partition size must be positive");
  }
  if (input.ttl_seconds < 0) return Status::InvalidArgument("the TTL cannot be negative");
  if (input.identifiers < 1) return Status::InvalidArgument("--identifiers must be at least 1");

  Advice advice;
  advice.input = input;
  const std::string target = BytesLabel(input.target_partition_bytes);
  const bool ttl = input.ttl_seconds > 0;
  advice.twcs_recommended = ttl;

  // The buckets allowed: with a TTL, those that tile the TWCS window, so a
  // partition is written inside one window and expires with it.
  std::vector<int64_t> allowed;
  if (ttl) {
    advice.window = WindowForTtl(input.ttl_seconds);
    const int64_t window = advice.window.seconds();
    for (int64_t bucket : kBucketLadder) {
      if (bucket <= window && window % bucket == 0) allowed.push_back(bucket);
    }
    if (allowed.empty() || allowed.back() != window) allowed.push_back(window);
  } else {
    allowed.assign(std::begin(kBucketLadder), std::end(kBucketLadder));
  }
  int64_t chosen = 0;
  for (int64_t bucket : allowed) {
    if (Evaluate(input, bucket).partition_bytes <= input.target_partition_bytes) chosen = bucket;
  }
  const bool needs_sub_buckets = chosen == 0;
  if (needs_sub_buckets) chosen = allowed.front();
  advice.bucket = Evaluate(input, chosen);
  advice.bucket.recommended = true;
  advice.sub_buckets = advice.bucket.sub_buckets_needed;
  advice.partition_bytes = advice.bucket.partition_bytes / static_cast<double>(advice.sub_buckets);
  if (!ttl) advice.window = WindowOfSeconds(chosen);
  advice.window_count =
      ttl ? CeilDiv(static_cast<double>(input.ttl_seconds), advice.window.seconds())
          : CeilDiv(static_cast<double>(kYear), advice.window.seconds());

  std::set<int64_t> shown(std::begin(kShownBuckets), std::end(kShownBuckets));
  shown.insert(chosen);
  for (int64_t bucket : shown) {
    BucketChoice choice = Evaluate(input, bucket);
    choice.recommended = bucket == chosen;
    advice.candidates.push_back(choice);
  }

  const std::string bucket_label = DurationLabel(chosen);
  const std::string window_label = std::to_string(advice.window.size) + " " + advice.window.unit;
  if (ttl) {
    std::string reason = "TWCS window " + window_label + ": " +
                         std::to_string(advice.window_count) + " windows over the " +
                         DurationLabel(input.ttl_seconds) +
                         " TTL, the count closest to 25 (TWCS guidance: 20-30 windows over the "
                         "data's lifetime)";
    if (advice.window_count < kMinWindowCount) {
      reason += " (the TTL is too short for 20 windows of at least a minute)";
    }
    advice.reasons.push_back(reason);
    if (needs_sub_buckets) {
      // Said below with the sub-buckets.
    } else if (chosen == advice.window.seconds()) {
      advice.reasons.push_back("bucket " + bucket_label +
                               ": equal to the window, so each partition is written inside one "
                               "window and expires with it; one identifier's bucket holds " +
                               BytesLabel(advice.bucket.partition_bytes) + ", within the " +
                               target + " target");
    } else {
      advice.reasons.push_back(
          "bucket " + bucket_label + ": one identifier writes " +
          BytesLabel(Evaluate(input, advice.window.seconds()).partition_bytes) +
          " per window, over the " + target + " target; " + bucket_label +
          " is the largest bucket that tiles the window and fits (" +
          BytesLabel(advice.bucket.partition_bytes) + ")");
    }
    if (!needs_sub_buckets && advice.partition_bytes < kSmallPartitionBytes) {
      advice.reasons.push_back(
          "partitions stay under 1 MB because one identifier writes little per window; a bucket "
          "longer than the window would put each partition in several windows' SSTables, so "
          "reads of one partition would touch more files");
    }
    advice.reasons.push_back(
        "keep one TTL per table, much longer than the window, and prefer TTL to DELETE: a "
        "window's SSTables are dropped whole once their newest data is past TTL + "
        "gc_grace_seconds");
  } else {
    if (!needs_sub_buckets) {
      advice.reasons.push_back("bucket " + bucket_label +
                               ": the largest bucket whose partition for one identifier (" +
                               BytesLabel(advice.bucket.partition_bytes) + ") fits the " + target +
                               " target; fewer, larger partitions mean fewer partitions for a "
                               "time-range read to visit");
    }
    advice.reasons.push_back(
        "no TTL: nothing expires, so TWCS never drops a window; windows of " + window_label +
        " would add " + std::to_string(advice.window_count) +
        " SSTables per year for good. Keep STCS or UCS unless whole time ranges are deleted");
  }
  if (needs_sub_buckets) {
    advice.reasons.push_back(
        "sub-buckets: even a " + bucket_label + " bucket of one identifier holds " +
        BytesLabel(advice.bucket.partition_bytes) + ", over the " + target + " target; spread " +
        "each bucket over " + std::to_string(advice.sub_buckets) +
        " partitions (id, bucket, sub_bucket) of about " + BytesLabel(advice.partition_bytes) +
        ", writing round-robin or by hash and reading all of them, merged in clustering order");
  }
  const double identifiers = static_cast<double>(input.identifiers);
  advice.bytes_per_day = input.rows_per_second * kDay * input.row_bytes * identifiers;
  if (ttl) {
    advice.live_bytes = input.rows_per_second * static_cast<double>(input.ttl_seconds) *
                        input.row_bytes * identifiers;
  }
  return advice;
}

}  // namespace cassette::tools
