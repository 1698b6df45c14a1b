#include "bench/driver/sensor_workload.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace cassette::bench {
namespace {

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void AppendBigEndian32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

void AppendBigEndian64(uint64_t v, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

}  // namespace

UuidBytes SensorUuid(int sensor) {
  uint64_t state = static_cast<uint64_t>(sensor);
  const uint64_t hi = SplitMix64(&state);
  const uint64_t lo = SplitMix64(&state);
  UuidBytes uuid;
  for (int i = 0; i < 8; ++i) {
    uuid[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
    uuid[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
  }
  return uuid;
}

int32_t DayOf(int64_t second) {
  return static_cast<int32_t>((kWorkloadStartSeconds + second) / 86400);
}

double Temperature(int sensor, int64_t second) {
  return 20.0 + 10.0 * std::sin(static_cast<double>(second) / 3600.0 + sensor);
}

double Humidity(int sensor, int64_t second) {
  return 50.0 + static_cast<double>((second * 7 + sensor) % 40);
}

std::string Tag(int sensor) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "zone-%011d", sensor % 97);
  return buf;
}

std::string PeerPartitionPrefix(const UuidBytes& uuid, int32_t day) {
  std::string prefix(reinterpret_cast<const char*>(uuid.data()), uuid.size());
  AppendBigEndian32(static_cast<uint32_t>(day), &prefix);
  return prefix;
}

uint64_t PeerReversedTime(int64_t millis) {
  return static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(millis);
}

void AppendPeerKey(const UuidBytes& uuid, int32_t day, int64_t millis, std::string* out) {
  out->append(reinterpret_cast<const char*>(uuid.data()), uuid.size());
  AppendBigEndian32(static_cast<uint32_t>(day), out);
  AppendBigEndian64(PeerReversedTime(millis), out);
}

void AppendPeerValue(double temperature, double humidity, const std::string& tag,
                     std::string* out) {
  char doubles[16];
  std::memcpy(doubles, &temperature, 8);
  std::memcpy(doubles + 8, &humidity, 8);
  out->append(doubles, sizeof(doubles));
  out->append(tag);
}

}  // namespace cassette::bench
