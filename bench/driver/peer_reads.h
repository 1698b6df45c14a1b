// What the key-value peers (RocksDB, LevelDB) share: the sensors' key
// parts, the rows of a write batch in the peer layout, and the three reads
// of the workloads over an iterator. Both libraries' iterators have the
// same shape (Seek, Valid, Next, key, value), so the reads are templates.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/driver/bench_engine.h"
#include "bench/driver/sensor_workload.h"

namespace cassette::bench {

// Uuids and tags of every sensor the driver asks about, the missing ones
// of W4 (S..2S-1) included, so no read or write pays to derive them.
class PeerSensors {
 public:
  void Reset(int sensors) {
    uuids_.clear();
    tags_.clear();
    for (int s = 0; s < 2 * sensors; ++s) {
      uuids_.push_back(SensorUuid(s));
      tags_.push_back(Tag(s));
    }
  }
  UuidBytes Uuid(int sensor) const {
    if (sensor >= 0 && static_cast<size_t>(sensor) < uuids_.size()) return uuids_[sensor];
    return SensorUuid(sensor);
  }
  // The cached tag, or one derived into *scratch for a sensor outside it.
  const std::string& SensorTag(int sensor, std::string* scratch) const {
    if (sensor >= 0 && static_cast<size_t>(sensor) < tags_.size()) return tags_[sensor];
    *scratch = Tag(sensor);
    return *scratch;
  }

 private:
  std::vector<UuidBytes> uuids_;
  std::vector<std::string> tags_;
};

// Calls put(key, value) for each reading, in the peer layout.
template <class Put>
void ForEachPeerRow(std::span<const Reading> readings, const PeerSensors& sensors, Put&& put) {
  std::string key;
  std::string value;
  std::string tag;
  for (const Reading& r : readings) {
    key.clear();
    value.clear();
    AppendPeerKey(sensors.Uuid(r.sensor), DayOf(r.second), ReadingTimeMillis(r.second), &key);
    AppendPeerValue(Temperature(r.sensor, r.second), Humidity(r.sensor, r.second),
                    sensors.SensorTag(r.sensor, &tag), &value);
    put(key, value);
  }
}

namespace peer_internal {

template <class Slice>
std::string_view View(const Slice& s) {
  return std::string_view(s.data(), s.size());
}

inline bool HasPrefix(std::string_view key, std::string_view prefix) {
  return key.size() >= prefix.size() && key.compare(0, prefix.size(), prefix) == 0;
}

inline uint64_t ReversedTimeOf(std::string_view key) {
  uint64_t v = 0;
  for (size_t i = kPeerPartitionPrefixSize; i < kPeerKeySize; ++i) {
    v = (v << 8) | static_cast<uint8_t>(key[i]);
  }
  return v;
}

// The temperature is the value's first double, stored as in memory.
inline double TemperatureOf(std::string_view value) {
  double t = 0;
  if (value.size() >= sizeof(t)) std::memcpy(&t, value.data(), sizeof(t));
  return t;
}

}  // namespace peer_internal

// The newest `n` rows of the partition `prefix`: keys hold the reversed
// time, so the partition's first key is its newest.
template <class Iterator>
ReadOutcome ScanNewest(Iterator* it, std::string_view prefix, int n) {
  using namespace peer_internal;  // NOLINT: the helpers above
  ReadOutcome out;
  for (it->Seek({prefix.data(), prefix.size()}); it->Valid() && out.rows < n; it->Next()) {
    if (!HasPrefix(View(it->key()), prefix)) break;
    out.temperature_sum += TemperatureOf(View(it->value()));
    ++out.rows;
  }
  return out;
}

// The rows of a sensor's day with from_ms <= time < to_ms, newest first:
// from the newest time inside the slice (to_ms - 1) to past the oldest
// (from_ms), whose reversed time is the largest.
template <class Iterator>
ReadOutcome ScanSlice(Iterator* it, const UuidBytes& uuid, int32_t day, int64_t from_ms,
                      int64_t to_ms) {
  using namespace peer_internal;  // NOLINT: the helpers above
  ReadOutcome out;
  if (to_ms <= from_ms) return out;
  const std::string prefix = PeerPartitionPrefix(uuid, day);
  std::string start;
  AppendPeerKey(uuid, day, to_ms - 1, &start);
  const uint64_t last = PeerReversedTime(from_ms);
  for (it->Seek({start.data(), start.size()}); it->Valid(); it->Next()) {
    const std::string_view key = View(it->key());
    if (!HasPrefix(key, prefix) || key.size() < kPeerKeySize) break;
    if (ReversedTimeOf(key) > last) break;
    out.temperature_sum += TemperatureOf(View(it->value()));
    ++out.rows;
  }
  return out;
}

// Whether the partition `prefix` holds any key.
template <class Iterator>
bool SeekPartition(Iterator* it, std::string_view prefix) {
  it->Seek({prefix.data(), prefix.size()});
  return it->Valid() && peer_internal::HasPrefix(peer_internal::View(it->key()), prefix);
}

}  // namespace cassette::bench
