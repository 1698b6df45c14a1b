// The sensor workload of docs/BENCHMARKS.md, defined once for
// every engine the driver compares: which sensor and second each row is,
// its values, and how a key-value peer lays a row out.
#pragma once

#include <cstdint>
#include <string>

#include "cassette/value.h"

namespace cassette::bench {

// 2024-01-01T00:00:00Z, where simulated time starts.
inline constexpr int64_t kWorkloadStartSeconds = 1'704'067'200;
// uuid + date + timestamp + two doubles + a 16-character tag.
inline constexpr int kLogicalBytesPerRow = 60;
// Peer layout: uuid ‖ big-endian day ‖ big-endian (2^63 − 1 − ms).
inline constexpr size_t kPeerPartitionPrefixSize = 20;
inline constexpr size_t kPeerKeySize = 28;
inline constexpr size_t kPeerValueSize = 32;

// One reading: sensor `sensor` at `second` seconds after the start.
struct Reading {
  int sensor = 0;
  int64_t second = 0;
};

// Row r of an ingest that interleaves `sensors` sensors in time order.
inline Reading ReadingAt(int64_t r, int sensors) {
  return {static_cast<int>(r % sensors), r / sensors};
}

// The 16 bytes of two successive splitmix64 outputs seeded with `sensor`,
// each big-endian.
UuidBytes SensorUuid(int sensor);
// Days since the epoch of the reading taken `second` seconds into the run.
int32_t DayOf(int64_t second);
// reading_time in milliseconds since the epoch.
inline int64_t ReadingTimeMillis(int64_t second) { return (kWorkloadStartSeconds + second) * 1000; }
double Temperature(int sensor, int64_t second);
double Humidity(int sensor, int64_t second);
// "zone-" and 11 digits of (sensor mod 97), zero-padded.
std::string Tag(int sensor);

// The partition prefix and the full key of a row for a key-value store.
std::string PeerPartitionPrefix(const UuidBytes& uuid, int32_t day);
void AppendPeerKey(const UuidBytes& uuid, int32_t day, int64_t millis, std::string* out);
// 2^63 − 1 − millis, as the key stores it (newest first).
uint64_t PeerReversedTime(int64_t millis);
// The two doubles (IEEE-754, little-endian as in memory) and the tag.
void AppendPeerValue(double temperature, double humidity, const std::string& tag, std::string* out);

}  // namespace cassette::bench
