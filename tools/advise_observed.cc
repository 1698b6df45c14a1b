#include "tools/advise_observed.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <unordered_map>
#include <utility>

#include "engine/types/type_codec.h"

namespace cassette::tools {

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
// Bytes a cell carries besides its value in the data stream (timestamp
// and TTL deltas, flags, column id), added to the values' bytes to
// estimate a row's share of its partition.
constexpr double kCellOverheadBytes = 8;
// A bucket column is recognized when at least this share of the rows
// carries the bucket of its write time.
constexpr double kBucketMatchShare = 0.9;
// Rows kept to recognize the bucket length: enough to judge, bounded so a
// table of billions of rows does not hold a copy of each bucket value.
constexpr size_t kMaxBucketSamples = 100000;

constexpr int64_t kBucketCandidates[] = {60,    120,    300,    600,     900,     1200,    1800,
                                         3600,  7200,   10800,  14400,   21600,   28800,   43200,
                                         86400, 172800, 604800, 1209600, 2592000, 31536000};

bool Contains(const std::string& name, const char* word) {
  return name.find(word) != std::string::npos;
}

bool IsInteger(TypeKind kind) {
  return kind == TypeKind::kInt || kind == TypeKind::kBigint || kind == TypeKind::kSmallint ||
         kind == TypeKind::kTinyint;
}

bool HasTimeWord(const std::string& name) {
  for (const char* word : {"time", "date", "day", "hour", "minute", "week", "month", "year",
                           "period", "slice", "epoch"}) {
    if (Contains(name, word)) return true;
  }
  return false;
}

enum class KeyRole : uint8_t { kIdentifier, kBucket, kSubBucket };

KeyRole RoleOf(const ColumnDefinition& column) {
  const TypeKind kind = column.type.kind();
  if (kind == TypeKind::kDate || kind == TypeKind::kTimestamp) return KeyRole::kBucket;
  if (!IsInteger(kind)) return KeyRole::kIdentifier;
  if (HasTimeWord(column.name)) return KeyRole::kBucket;
  for (const char* word : {"bucket", "shard", "split", "hash", "part"}) {
    if (Contains(column.name, word)) return KeyRole::kSubBucket;
  }
  return KeyRole::kIdentifier;
}

// Integer buckets named for a calendar unit, holding that unit's number.
std::optional<int64_t> CalendarBucket(const std::string& name) {
  if (Contains(name, "year")) return 365 * 86400;
  if (Contains(name, "month")) return 30 * 86400;
  if (Contains(name, "week")) return 7 * 86400;
  return std::nullopt;
}

// Does `value` hold the bucket of `write_seconds` when buckets last
// `bucket` seconds?
bool HoldsBucket(const Value& value, int64_t write_seconds, int64_t bucket) {
  const int64_t start = write_seconds - (((write_seconds % bucket) + bucket) % bucket);
  switch (value.type().kind()) {
    case TypeKind::kDate:
      return bucket == 86400 && static_cast<int64_t>(value.view().AsDate()) * 86400 == start;
    case TypeKind::kTimestamp: {
      const int64_t millis = value.view().AsInt64();
      return millis % 1000 == 0 && millis / 1000 == start;
    }
    default:
      return value.view().AsInt64() == start / bucket;
  }
}

struct BucketSample {
  Value value;
  int64_t write_seconds = 0;
};

std::optional<int64_t> InferBucketSeconds(const ColumnDefinition& column,
                                          const std::vector<BucketSample>& samples) {
  if (IsInteger(column.type.kind())) {
    if (auto calendar = CalendarBucket(column.name)) return calendar;
  }
  if (samples.empty()) return std::nullopt;
  for (int64_t bucket : kBucketCandidates) {
    size_t matches = 0;
    for (const BucketSample& sample : samples) {
      if (HoldsBucket(sample.value, sample.write_seconds, bucket)) ++matches;
    }
    if (static_cast<double>(matches) >= kBucketMatchShare * static_cast<double>(samples.size())) {
      return bucket;
    }
  }
  return std::nullopt;
}

struct IdentifierSpan {
  int64_t rows = 0;
  int64_t first_micros = INT64_MAX;
  int64_t last_micros = INT64_MIN;
};

void AppendKeyPart(std::string* key, std::string_view bytes) {
  key->append(std::to_string(bytes.size()));
  key->push_back(':');
  key->append(bytes);
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "(none)" : out;
}

std::string JsonNames(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i > 0 ? "," : "") + JsonQuote(names[i]);
  return out + "]";
}

std::string Number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) return "null";
  return std::string(buffer, end);
}

bool IsTwcs(const std::string& compaction_class) {
  return compaction_class == "TimeWindowCompactionStrategy" ||
         compaction_class == "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy";
}

}  // namespace

Result<ObservedWorkload> ObserveTable(Database* db, const std::string& keyspace,
                                      const std::string& table) {
  CASSETTE_ASSIGN_OR_RETURN(TableSchema schema, db->GetTable(keyspace, table));
  CASSETTE_ASSIGN_OR_RETURN(TableStats stats, db->GetTableStats(keyspace, table));
  ObservedWorkload observed;
  observed.keyspace = keyspace;
  observed.table = table;
  observed.default_time_to_live = schema.options().default_time_to_live;
  const auto& compaction = schema.options().compaction;
  if (auto it = compaction.find("class"); it != compaction.end()) {
    observed.compaction_class = it->second;
  }
  if (IsTwcs(observed.compaction_class)) {
    TwcsWindow window{"DAYS", 1};
    if (auto it = compaction.find("compaction_window_unit"); it != compaction.end()) {
      window.unit = it->second;
      for (char& c : window.unit)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (auto it = compaction.find("compaction_window_size"); it != compaction.end()) {
      window.size = std::max<int64_t>(1, std::atoll(it->second.c_str()));
    }
    observed.window = window;
  }
  observed.partition_size_p50 = stats.partition_size_p50;
  observed.partition_size_p99 = stats.partition_size_p99;
  observed.partition_size_max = stats.partition_size_max;

  // SELECT pk..., clustering..., the rest, with WRITETIME and TTL.
  ReadQuery query;
  query.keyspace = keyspace;
  query.table = table;
  query.with_cell_metadata = true;
  std::vector<KeyRole> roles;
  for (size_t index : schema.partition_key()) {
    const ColumnDefinition& column = schema.columns()[index];
    query.columns.push_back(column.name);
    roles.push_back(RoleOf(column));
    std::vector<std::string>* names = roles.back() == KeyRole::kBucket ? &observed.bucket_columns
                                      : roles.back() == KeyRole::kSubBucket
                                          ? &observed.sub_bucket_columns
                                          : &observed.identifier_columns;
    names->push_back(column.name);
  }
  const size_t key_columns = query.columns.size();
  // A time-series row's own time is its timestamp clustering column (the
  // event time, which may differ from when it was written); tables
  // without one fall back on the write time.
  std::optional<size_t> event_time_column;
  for (const ColumnDefinition& column : schema.columns()) {
    if (column.kind == ColumnKind::kPartitionKey) continue;
    if (!event_time_column && column.kind == ColumnKind::kClustering &&
        column.type.kind() == TypeKind::kTimestamp) {
      event_time_column = query.columns.size();
    }
    query.columns.push_back(column.name);
  }

  std::unordered_map<std::string, IdentifierSpan> identifiers;
  std::unordered_map<std::string, int64_t> partition_rows;
  std::set<std::string> sub_bucket_values;
  std::vector<BucketSample> bucket_samples;  // of the first bucket column
  size_t first_bucket = key_columns;
  for (size_t i = 0; i < key_columns; ++i) {
    if (roles[i] == KeyRole::kBucket) {
      first_bucket = i;
      break;
    }
  }
  double value_bytes = 0;
  const int64_t now_micros = db->NowMicros();
  RowVisitor visit = [&](const RowView& row) -> Status {
    std::string identifier;
    std::string partition;
    std::string sub_bucket;
    for (size_t i = 0; i < key_columns; ++i) {
      const std::string_view bytes = row.values[i].bytes();
      AppendKeyPart(&partition, bytes);
      if (roles[i] == KeyRole::kIdentifier) AppendKeyPart(&identifier, bytes);
      if (roles[i] == KeyRole::kSubBucket) AppendKeyPart(&sub_bucket, bytes);
    }
    ++observed.rows;
    ++partition_rows[partition];
    if (!observed.sub_bucket_columns.empty()) sub_bucket_values.insert(sub_bucket);
    std::optional<int64_t> writetime;
    std::optional<int32_t> ttl;
    for (size_t i = key_columns; i < row.values.size(); ++i) {
      if (row.values[i].is_null()) continue;
      value_bytes += static_cast<double>(row.values[i].bytes().size());
      if (i < row.writetimes.size() && row.writetimes[i]) {
        value_bytes += kCellOverheadBytes;
        writetime = std::max(writetime.value_or(INT64_MIN), *row.writetimes[i]);
      }
      if (i < row.ttls.size() && row.ttls[i]) ttl = std::max(ttl.value_or(0), *row.ttls[i]);
    }
    std::optional<int64_t> row_time = writetime;
    if (event_time_column && !row.values[*event_time_column].is_null()) {
      row_time = row.values[*event_time_column].AsInt64() * 1000;
    }
    if (!row_time) return Status::OK();  // a key-only row: no time to learn from
    IdentifierSpan& span = identifiers[identifier];
    ++span.rows;
    span.first_micros = std::min(span.first_micros, *row_time);
    span.last_micros = std::max(span.last_micros, *row_time);
    // The TTL given at write: what remains plus the time since the write,
    // to the minute (the remaining TTL is read a little later).
    int64_t given = 0;
    if (ttl && writetime) {
      given = *ttl + std::max<int64_t>(0, (now_micros - *writetime) / kMicrosPerSecond);
      if (given >= 120) given = (given + 30) / 60 * 60;
    }
    ++observed.ttl_mix[given];
    if (first_bucket < key_columns && bucket_samples.size() < kMaxBucketSamples) {
      bucket_samples.push_back({row.values[first_bucket].ToValue(), *row_time / kMicrosPerSecond});
    }
    return Status::OK();
  };
  CASSETTE_RETURN_IF_ERROR(db->ReadEach(query, visit).status());

  observed.partitions = static_cast<int64_t>(partition_rows.size());
  for (const auto& [key, rows] : partition_rows) {
    observed.max_rows_per_partition = std::max(observed.max_rows_per_partition, rows);
  }
  observed.identifiers = static_cast<int64_t>(identifiers.size());
  double spread_rows = 0;
  double spread_seconds = 0;
  int64_t busiest_rows = 0;
  for (const auto& [key, span] : identifiers) {
    const double seconds =
        static_cast<double>(span.last_micros - span.first_micros) / kMicrosPerSecond;
    if (span.rows < 2 || seconds < 1) continue;
    // N rows at a steady rate span N-1 intervals.
    const double rate = static_cast<double>(span.rows - 1) / seconds;
    spread_rows += static_cast<double>(span.rows - 1);
    spread_seconds += seconds;
    if (span.rows > busiest_rows ||
        (span.rows == busiest_rows && rate > observed.busiest_rows_per_second)) {
      busiest_rows = span.rows;
      observed.busiest_rows_per_second = rate;
    }
  }
  if (spread_seconds <= 0) {
    return Status::InvalidArgument(
        "cannot derive a write rate: no identifier has rows at least a second apart "
        "(" +
        std::to_string(observed.rows) + " rows read)");
  }
  observed.mean_rows_per_second = spread_rows / spread_seconds;

  // Row size from the values read: the SSTables' byte counts cannot tell
  // rows still in the memtable apart, nor expired rows no read returns.
  observed.row_bytes = value_bytes / static_cast<double>(observed.rows);
  int64_t dominant_rows = 0;
  for (const auto& [given, rows] : observed.ttl_mix) {
    if (rows > dominant_rows) {
      dominant_rows = rows;
      observed.dominant_ttl_seconds = given;
    }
  }
  if (!observed.bucket_columns.empty()) {
    const ColumnDefinition* column = schema.Find(observed.bucket_columns.front());
    observed.bucket_seconds = InferBucketSeconds(*column, bucket_samples);
  }
  observed.sub_buckets = std::max<int64_t>(1, static_cast<int64_t>(sub_bucket_values.size()));
  return observed;
}

std::vector<std::string> CompareWithAdvice(const ObservedWorkload& observed, const Advice& advice) {
  std::vector<std::string> findings;
  const double target = advice.input.target_partition_bytes;
  const std::string recommended_bucket = DurationLabel(advice.bucket.bucket_seconds);
  if (observed.bucket_columns.empty()) {
    findings.push_back("no time bucket in the partition key (" +
                       Joined(observed.identifier_columns) +
                       "): partitions grow without end; add a " + recommended_bucket + " bucket");
  } else if (!observed.bucket_seconds) {
    findings.push_back("the bucket column " + observed.bucket_columns.front() +
                       " does not match the rows' times at any usual bucket size; the "
                       "recommended bucket is " +
                       recommended_bucket);
  } else {
    const int64_t bucket = *observed.bucket_seconds;
    const double projected = advice.input.rows_per_second * static_cast<double>(bucket) *
                             advice.input.row_bytes / static_cast<double>(observed.sub_buckets);
    std::string text =
        "current bucket " + DurationLabel(bucket) +
        (observed.sub_buckets > 1 ? " x " + std::to_string(observed.sub_buckets) + " sub-buckets"
                                  : std::string()) +
        ": a full partition of the busiest identifier holds about " + BytesLabel(projected);
    if (projected > target) {
      text +=
          ", over the " + BytesLabel(target) + " target: change to " + recommended_bucket +
          (advice.sub_buckets > 1 ? " with " + std::to_string(advice.sub_buckets) + " sub-buckets"
                                  : std::string());
    } else if (bucket != advice.bucket.bucket_seconds) {
      text += ", within the target; the rule would pick " + recommended_bucket;
    } else {
      text += ", within the target: fits";
    }
    findings.push_back(text);
    if (observed.window && bucket > observed.window->seconds()) {
      findings.push_back("each partition spans " +
                         std::to_string(bucket / std::max<int64_t>(1, observed.window->seconds())) +
                         " TWCS windows: reads of one partition touch that many windows' "
                         "SSTables");
    }
  }
  if (observed.partition_size_max > target) {
    findings.push_back("the SSTables already hold a partition of " +
                       BytesLabel(static_cast<double>(observed.partition_size_max)) +
                       ", over the target");
  }
  const std::string advised_window = std::to_string(advice.window.size) + " " + advice.window.unit;
  if (observed.dominant_ttl_seconds > 0) {
    if (!observed.window) {
      findings.push_back("compaction " + observed.compaction_class + " with TTL data: TWCS with " +
                         advised_window +
                         " windows drops expired data whole instead of rewriting it");
    } else {
      const int64_t count = (observed.dominant_ttl_seconds + observed.window->seconds() - 1) /
                            observed.window->seconds();
      std::string text = "current TWCS window " + std::to_string(observed.window->size) + " " +
                         observed.window->unit + ": " + std::to_string(count) +
                         " windows over the " + DurationLabel(observed.dominant_ttl_seconds) +
                         " TTL";
      if (count >= kMinWindowCount && count <= kMaxWindowCount) {
        text += ", within 20-30: fits";
      } else {
        text += ", outside 20-30: change to " + advised_window + " (" +
                std::to_string(advice.window_count) + " windows)";
      }
      findings.push_back(text);
    }
  } else if (observed.window) {
    findings.push_back(
        "TWCS on data without a TTL: no window is ever dropped; STCS or UCS suit this data "
        "unless whole time ranges are deleted");
  }
  if (observed.ttl_mix.size() > 1) {
    findings.push_back("rows carry " + std::to_string(observed.ttl_mix.size()) +
                       " different TTLs: a window is dropped only when its longest-lived data "
                       "has expired; keep one TTL per table");
  }
  return findings;
}

std::string ObservedText(const ObservedWorkload& observed,
                         const std::vector<std::string>& findings) {
  std::string out = "Table " + observed.keyspace + "." + observed.table + ":\n";
  out += "  identifier columns: " + Joined(observed.identifier_columns) +
         "; time bucket: " + Joined(observed.bucket_columns) +
         "; sub-bucket: " + Joined(observed.sub_bucket_columns) + "\n";
  out += "  " + std::to_string(observed.rows) + " rows in " + std::to_string(observed.partitions) +
         " partitions of " + std::to_string(observed.identifiers) + " identifiers (at most " +
         std::to_string(observed.max_rows_per_partition) + " rows in one partition)\n";
  char rates[96];
  std::snprintf(rates, sizeof(rates), "%.6g rows/s on average, %.6g rows/s for the busiest",
                observed.mean_rows_per_second, observed.busiest_rows_per_second);
  out += "  rate per identifier: " + std::string(rates) + "\n";
  out += "  row size: " + BytesLabel(observed.row_bytes) +
         " (values read, plus 8 bytes per cell)\n  TTLs:";
  for (const auto& [ttl, rows] : observed.ttl_mix) {
    out += " " + (ttl > 0 ? DurationLabel(ttl) : std::string("none")) + " (" +
           std::to_string(rows) + " rows)";
  }
  out += "\n  compaction: " + observed.compaction_class;
  if (observed.window) {
    out += " (" + std::to_string(observed.window->size) + " " + observed.window->unit + ")";
  }
  if (observed.partition_size_max > 0) {
    out += "\n  partition sizes in SSTables: p50 " +
           BytesLabel(static_cast<double>(observed.partition_size_p50)) + ", p99 " +
           BytesLabel(static_cast<double>(observed.partition_size_p99)) + ", max " +
           BytesLabel(static_cast<double>(observed.partition_size_max));
  }
  out += "\nFindings:\n";
  for (const std::string& finding : findings) out += "  - " + finding + "\n";
  return out;
}

std::string ObservedJsonMembers(const ObservedWorkload& observed,
                                const std::vector<std::string>& findings) {
  std::string out =
      "\"observed\":{\"keyspace\":" + JsonQuote(observed.keyspace) +
      ",\"table\":" + JsonQuote(observed.table) +
      ",\"identifier_columns\":" + JsonNames(observed.identifier_columns) +
      ",\"bucket_columns\":" + JsonNames(observed.bucket_columns) +
      ",\"sub_bucket_columns\":" + JsonNames(observed.sub_bucket_columns) +
      ",\"rows\":" + std::to_string(observed.rows) +
      ",\"partitions\":" + std::to_string(observed.partitions) +
      ",\"identifiers\":" + std::to_string(observed.identifiers) +
      ",\"max_rows_per_partition\":" + std::to_string(observed.max_rows_per_partition) +
      ",\"mean_rows_per_second\":" + Number(observed.mean_rows_per_second) +
      ",\"busiest_rows_per_second\":" + Number(observed.busiest_rows_per_second) +
      ",\"row_bytes\":" + Number(observed.row_bytes) + ",\"ttl_mix\":[";
  bool first = true;
  for (const auto& [ttl, rows] : observed.ttl_mix) {
    out += (first ? "" : ",") + std::string("{\"ttl_seconds\":") + std::to_string(ttl) +
           ",\"rows\":" + std::to_string(rows) + "}";
    first = false;
  }
  out += "],\"bucket_seconds\":" +
         (observed.bucket_seconds ? std::to_string(*observed.bucket_seconds) : "null") +
         ",\"sub_buckets\":" + std::to_string(observed.sub_buckets) +
         ",\"compaction_class\":" + JsonQuote(observed.compaction_class) + ",\"window\":" +
         (observed.window ? "{\"unit\":" + JsonQuote(observed.window->unit) +
                                ",\"size\":" + std::to_string(observed.window->size) + "}"
                          : std::string("null")) +
         ",\"partition_size_p50\":" + std::to_string(observed.partition_size_p50) +
         ",\"partition_size_p99\":" + std::to_string(observed.partition_size_p99) +
         ",\"partition_size_max\":" + std::to_string(observed.partition_size_max) + "}";
  out += ",\"findings\":[";
  for (size_t i = 0; i < findings.size(); ++i) {
    out += (i > 0 ? "," : "") + JsonQuote(findings[i]);
  }
  return out + "]";
}

}  // namespace cassette::tools
