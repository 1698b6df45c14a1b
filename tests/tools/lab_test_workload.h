// What the compaction lab's tests share: a tiny pure-TTL workload and the
// JSON without its wall-clock keys.
#pragma once

#include <string>

namespace cassette::tools::lab_test {

// The table of the lab tests' workloads: a reading per sensor and
// second, kept an hour, expired data kept 60 s more (gc_grace).
inline std::string TableToml() {
  return R"(
[table]
cql = """CREATE TABLE lab.r (id text, day date, ts timestamp, payload blob,
         PRIMARY KEY ((id, day), ts))
         WITH default_time_to_live = 3600 AND gc_grace_seconds = 60"""
identifier_column = "id"
bucket_column = "day"
bucket = "1d"
time_column = "ts"
payload_column = "payload"
)";
}

// 10 sensors, a reading every 2 s, replayed for `hours`, reads of every
// kind; `extra` is appended (more sections).
inline std::string TinyWorkload(int hours, const std::string& extra = "") {
  return TableToml() + R"(
[writes]
identifiers = 10
interval_seconds = 2
row_bytes = 40
row_bytes_spread = 10

[reads]
interval_seconds = 10
newest_fraction = 0.5
range_fraction = 0.3
point_fraction = 0.1
missing_fraction = 0.1

[run]
duration = ")" +
         std::to_string(hours) +
         R"(h"
sample_every = "10m"
memtable_bytes = 262144
)" + extra;
}

// The JSON without its wall-clock keys, the only ones allowed to differ
// between two runs of the same workload and seed.
inline std::string WithoutWallClock(std::string text) {
  for (size_t at = text.find(",\"wall\":{"); at != std::string::npos;
       at = text.find(",\"wall\":{")) {
    text.erase(at, text.find('}', at) - at + 1);
  }
  const std::string speed = ",\"simulated_days_per_minute\":";
  for (size_t at = text.find(speed); at != std::string::npos; at = text.find(speed)) {
    text.erase(at, text.find_first_of(",}", at + speed.size()) - at);
  }
  return text;
}

}  // namespace cassette::tools::lab_test
