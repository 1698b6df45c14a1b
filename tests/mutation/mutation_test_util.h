// Builders and random generators shared by the mutation tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/mutation/partition_update.h"
#include "engine/util/random.h"

namespace cassette::testing {

// The seed of randomized tests: CASSETTE_SEED from the environment, else a
// fixed default so that runs are reproducible. Tests print it on failure.
inline uint64_t TestSeed() {
  const char* env = std::getenv("CASSETTE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240101;
}

// A 4-byte comparable int clustering component (sign bit flipped, big-endian).
inline std::string Ck(int32_t v) {
  uint32_t u = static_cast<uint32_t>(v) ^ 0x80000000u;
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(u >> (8 * (3 - i)));
  return s;
}

inline ColumnData Simple(uint32_t id, Cell c) {
  ColumnData col;
  col.column_id = id;
  col.cells.push_back(std::move(c));
  return col;
}

inline ColumnData Complex(uint32_t id, CellVector cells, DeletionTime d = {}) {
  ColumnData col;
  col.column_id = id;
  col.is_complex = true;
  col.complex_deletion = d;
  col.cells = std::move(cells);
  return col;
}

inline LivenessInfo Marker(int64_t ts) { return LivenessInfo{ts, 0, kNoDeletionTime}; }
inline LivenessInfo ExpiringMarker(int64_t ts, int32_t ttl, int64_t expiry) {
  return LivenessInfo{ts, ttl, expiry};
}
inline DeletionTime Del(int64_t ts, int64_t ldt) { return DeletionTime{ts, ldt}; }

// Random data drawn from small domains so that ties (equal timestamps,
// equal expiry, equal values) are frequent.
class Generator {
 public:
  explicit Generator(uint64_t seed, bool wide = false) : rnd_(seed), wide_(wide) {}

  Random& rnd() { return rnd_; }

  int64_t Timestamp() {
    if (!wide_) return rnd_.Range(1, 4);
    switch (rnd_.Uniform(6)) {
      case 0:
        return INT64_MIN + 1;
      case 1:
        return INT64_MAX;
      case 2:
        return rnd_.Range(-1000, 1000);
      case 3:
        return -static_cast<int64_t>(rnd_.Uniform(1ull << 62));
      default:
        return 1700000000000000 + rnd_.Range(0, 100000000);
    }
  }
  int64_t Second() { return wide_ ? 1700000000 + rnd_.Range(-5, 5) : rnd_.Range(100, 102); }

  std::string Value() {
    static const char* kValues[] = {"", "a", "ab", "b", "\xff", "\x00\x01", "\xff\xff\xff\xff"};
    if (!wide_ || rnd_.OneIn(2)) {
      const char* v = kValues[rnd_.Uniform(7)];
      return std::string(v, v == kValues[5] ? 2 : std::char_traits<char>::length(v));
    }
    return rnd_.Bytes(rnd_.Uniform(300));
  }

  Cell RandomCell(std::string path = {}) {
    switch (rnd_.Uniform(3)) {
      case 0:
        return Cell::Live(Timestamp(), Value(), std::move(path));
      case 1: {
        int32_t ttl = static_cast<int32_t>(rnd_.Range(1, 3));
        return Cell::Expiring(Timestamp(), ttl, Second(), Value(), std::move(path));
      }
      default:
        return Cell::Tombstone(Timestamp(), Second(), std::move(path));
    }
  }

  DeletionTime RandomDeletion() {
    if (rnd_.OneIn(2)) return DeletionTime::Live();
    return Del(Timestamp(), Second());
  }

  LivenessInfo RandomMarker() {
    switch (rnd_.Uniform(3)) {
      case 0:
        return LivenessInfo{};
      case 1:
        return Marker(Timestamp());
      default: {
        int32_t ttl = static_cast<int32_t>(rnd_.Range(1, 3));
        return ExpiringMarker(Timestamp(), ttl, Second() + ttl);
      }
    }
  }

  // A valid row: columns sorted and unique, collection cells sorted by path.
  Row RandomRow(std::string clustering = {}) {
    Row r;
    r.clustering = std::move(clustering);
    r.marker = RandomMarker();
    r.deletion = RandomDeletion();
    uint32_t id = static_cast<uint32_t>(rnd_.Uniform(3));
    size_t ncols = rnd_.Uniform(5);
    for (size_t i = 0; i < ncols; ++i) {
      if (rnd_.OneIn(3)) {
        CellVector cells;
        std::string path;
        size_t n = rnd_.Uniform(4);
        for (size_t j = 0; j < n; ++j) {
          path += static_cast<char>(1 + rnd_.Uniform(3));
          cells.push_back(RandomCell(path));
        }
        r.columns.push_back(Complex(id, std::move(cells), RandomDeletion()));
      } else {
        r.columns.push_back(Simple(id, RandomCell()));
      }
      id += 1 + static_cast<uint32_t>(rnd_.Uniform(wide_ ? 300 : 2));
    }
    return r;
  }

  PartitionUpdate RandomUpdate() {
    PartitionUpdate u;
    u.table_id = rnd_.Uniform(1000);
    u.key = DecoratedKey::FromKey(rnd_.Bytes(rnd_.Uniform(6)));
    u.partition_deletion = RandomDeletion();
    if (rnd_.OneIn(2)) u.static_row = RandomRow();
    size_t nrt = rnd_.Uniform(3);
    for (size_t i = 0; i < nrt; ++i) {
      RangeTombstone rt;
      rt.range.start =
          Bound{rnd_.OneIn(3) ? "" : Ck(static_cast<int32_t>(rnd_.Range(-3, 3))), rnd_.OneIn(2)};
      rt.range.end =
          Bound{rnd_.OneIn(3) ? "" : Ck(static_cast<int32_t>(rnd_.Range(-3, 3))), rnd_.OneIn(2)};
      rt.deletion = Del(Timestamp(), Second());
      u.range_tombstones.push_back(rt);
    }
    int32_t ck = static_cast<int32_t>(rnd_.Range(-5, 0));
    size_t nrows = rnd_.Uniform(5);
    for (size_t i = 0; i < nrows; ++i) {
      u.rows.push_back(RandomRow(Ck(ck)));
      ck += 1 + static_cast<int32_t>(rnd_.Uniform(2));
    }
    return u;
  }

 private:
  Random rnd_;
  bool wide_;
};

}  // namespace cassette::testing
