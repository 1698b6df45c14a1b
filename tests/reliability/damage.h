// Ways to damage a file for the corruption campaign, and where the schema
// records lie inside a MANIFEST (engine/db/FORMAT.md), so the campaign can
// aim at them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/util/checksum.h"
#include "engine/util/coding.h"

namespace cassette::reliability {

struct Damage {
  std::string description;
  std::function<std::string(std::string)> apply;
};

// One byte at `offset` XORed with 0x5a (nothing when past the end).
inline Damage Flip(uint64_t offset) {
  return {"flip at offset " + std::to_string(offset), [offset](std::string bytes) {
            if (offset < bytes.size()) bytes[offset] = static_cast<char>(bytes[offset] ^ 0x5a);
            return bytes;
          }};
}

// The first `length` bytes only.
inline Damage Truncate(uint64_t length) {
  return {"truncation to " + std::to_string(length) + " bytes", [length](std::string bytes) {
            if (length < bytes.size()) bytes.resize(length);
            return bytes;
          }};
}

// Flip(offset) in a MANIFEST, then its payload checksum recomputed, as if
// the damage had happened before the checksum was computed (a bug, not the
// disk): the bytes reach the manifest's and schema's decoders.
inline Damage FlipAndResealManifest(uint64_t offset) {
  return {"flip at offset " + std::to_string(offset) + " (checksum re-sealed)",
          [offset](std::string bytes) {
            bytes = Flip(offset).apply(std::move(bytes));
            if (bytes.size() < 16) return bytes;
            std::string checksum;
            PutFixed32(&checksum,
                       Checksum32(std::string_view(bytes).substr(12, bytes.size() - 16)));
            bytes.replace(bytes.size() - 4, 4, checksum);
            return bytes;
          }};
}

// (offset, length) in the file of every keyspace and table schema record
// of a version-5 MANIFEST (engine/db/FORMAT.md); empty when it does not
// parse.
inline std::vector<std::pair<uint64_t, uint64_t>> SchemaRecords(std::string_view manifest) {
  // magic, version, payload length; the payload's checksum follows it.
  constexpr size_t kHeader = 12;
  std::vector<std::pair<uint64_t, uint64_t>> out;
  if (manifest.size() < kHeader || DecodeFixed32(manifest.data() + 4) != 5) return out;
  std::string_view in = manifest.substr(kHeader);
  auto offset_of = [&](std::string_view s) {
    return static_cast<uint64_t>(s.data() - manifest.data());
  };
  uint64_t v = 0, count = 0;
  std::string_view record;
  // next table id, next generation, the commit log's first segment, the
  // three device counters.
  for (int i = 0; i < 6; ++i) {
    if (!GetVarint64(&in, &v)) return {};
  }
  if (!GetVarint64(&in, &count)) return {};
  for (uint64_t i = 0; i < count; ++i) {
    if (!GetLengthPrefixed(&in, &record)) return {};
    out.emplace_back(offset_of(record), record.size());
  }
  if (!GetVarint64(&in, &count)) return {};
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t sstables = 0;
    if (!GetVarint64(&in, &v) || !GetLengthPrefixed(&in, &record)) return {};
    out.emplace_back(offset_of(record), record.size());
    if (!GetVarint64(&in, &v) || !GetVarint64(&in, &v) || !GetVarint64(&in, &sstables)) return {};
    for (uint64_t j = 0; j < sstables; ++j) {
      uint32_t level = 0;
      if (!GetVarint64(&in, &v) || !GetVarint32(&in, &level) || in.empty()) return {};
      const bool bounded = in[0] != 0;
      in.remove_prefix(1);
      if (bounded && !GetFixed64(&in, &v)) return {};
    }
    for (int counter = 0; counter < 7; ++counter) {
      if (!GetVarint64(&in, &v)) return {};
    }
    uint64_t out_of_service = 0;
    if (!GetVarint64(&in, &out_of_service)) return {};
    for (uint64_t j = 0; j < out_of_service; ++j) {
      if (!GetVarint64(&in, &v) || !GetLengthPrefixed(&in, &record) ||
          !GetLengthPrefixed(&in, &record)) {
        return {};
      }
    }
  }
  return out;
}

}  // namespace cassette::reliability
