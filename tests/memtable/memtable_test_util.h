// Builders, a random update generator and a reference model for the
// memtable tests. The model is the obvious one: a std::map from sort key to
// the PartitionUpdate that MergePartition accumulates.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/memtable/memtable.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/reconcile.h"
#include "engine/util/random.h"

namespace cassette::memtable_test {

// CASSETTE_SEED from the environment, else a fixed default.
inline uint64_t TestSeed() {
  const char* env = std::getenv("CASSETTE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240101;
}

// prefix followed by n in decimal. (Not `"lit" + std::to_string(n)`: g++ 12
// at -O3 reports a false -Wrestrict on that.)
inline std::string Name(std::string_view prefix, int64_t n) {
  std::string s(prefix);
  s += std::to_string(n);
  return s;
}

// A comparable int component: sign bit flipped, big-endian.
inline std::string Ck(int32_t v) {
  uint32_t u = static_cast<uint32_t>(v) ^ 0x80000000u;
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(u >> (8 * (3 - i)));
  return s;
}
inline std::string Ck2(int32_t a, int32_t b) { return Ck(a) + Ck(b); }

inline Row LiveRow(std::string clustering, int64_t ts, uint32_t column, std::string value) {
  Row r;
  r.clustering = std::move(clustering);
  r.marker = LivenessInfo{ts, 0, kNoDeletionTime};
  ColumnData col;
  col.column_id = column;
  col.cells.push_back(Cell::Live(ts, std::move(value)));
  r.columns.push_back(std::move(col));
  return r;
}

inline PartitionUpdate Update(const std::string& key) {
  PartitionUpdate u;
  u.key = DecoratedKey::FromKey(key);
  return u;
}

inline ClusteringRange Range(std::string start, bool start_incl, std::string end, bool end_incl) {
  return ClusteringRange{Bound{std::move(start), start_incl}, Bound{std::move(end), end_incl}};
}

// Reads a partition and materializes it (rows in storage order).
inline PartitionUpdate ReadAll(const Memtable& m, const DecoratedKey& key,
                               const ClusteringRange& range = ClusteringRange::All(),
                               bool reversed = false) {
  std::optional<PartitionContent> content = m.ReadPartition(key, range, reversed);
  EXPECT_TRUE(content.has_value());
  if (!content) return {};
  Result<PartitionUpdate> u = Materialize(*content);
  EXPECT_TRUE(u.ok()) << u.status().ToString();
  return u.ok() ? std::move(u).value() : PartitionUpdate{};
}

// The rows a RowIterator yields, in its order.
inline std::vector<Row> Drain(RowIterator* it) {
  std::vector<Row> rows;
  for (; it->Valid(); it->Next()) rows.push_back(it->row());
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return rows;
}

// Range tombstones without repeats, first occurrence kept: the memtable
// keeps a re-applied delete twice, MergePartition once.
inline std::vector<RangeTombstone> Unique(std::vector<RangeTombstone> rts) {
  std::vector<RangeTombstone> out;
  for (RangeTombstone& rt : rts) {
    if (std::find(out.begin(), out.end(), rt) == out.end()) out.push_back(std::move(rt));
  }
  return out;
}

// Random updates over small domains (keys, clusterings, timestamps) so that
// overwrites and reconciliation ties are frequent. Clusterings have two int
// components a in [0, 4), b in [0, 5), so bounds can be prefixes.
class UpdateGenerator {
 public:
  explicit UpdateGenerator(uint64_t seed) : rnd_(seed) {}
  Random& rnd() { return rnd_; }

  static std::vector<std::string> Keys() {
    return {"",         "a",
            "b",        "c",
            "sensor-1", "sensor-2",
            "sensor-3", std::string("\0\xff", 2),
            "\xff",     "key-with-a-longer-name"};
  }

  std::string Clustering() {
    return Ck2(static_cast<int32_t>(rnd_.Uniform(4)), static_cast<int32_t>(rnd_.Uniform(5)));
  }
  // Empty (unbounded), one component, or a full clustering.
  Bound RandomBound() {
    switch (rnd_.Uniform(4)) {
      case 0:
        return Bound{"", true};
      case 1:
        return Bound{Ck(static_cast<int32_t>(rnd_.Uniform(4))), rnd_.OneIn(2)};
      default:
        return Bound{Clustering(), rnd_.OneIn(2)};
    }
  }
  ClusteringRange RandomRange() { return ClusteringRange{RandomBound(), RandomBound()}; }

  int64_t Timestamp() { return rnd_.Range(1, 6); }
  int64_t Second() { return rnd_.Range(100, 102); }
  std::string Value() {
    return std::string(1 + rnd_.Uniform(3), static_cast<char>('a' + rnd_.Uniform(3)));
  }

  Cell RandomCell(std::string path = {}) {
    switch (rnd_.Uniform(4)) {
      case 0:
        return Cell::Expiring(Timestamp(), static_cast<int32_t>(rnd_.Range(1, 3)), Second(),
                              Value(), std::move(path));
      case 1:
        return Cell::Tombstone(Timestamp(), Second(), std::move(path));
      default:
        return Cell::Live(Timestamp(), Value(), std::move(path));
    }
  }
  DeletionTime RandomDeletion(int live_one_in) {
    if (!rnd_.OneIn(live_one_in)) return DeletionTime::Live();
    return DeletionTime{Timestamp(), Second()};
  }

  // A row the row codec round-trips: simple columns hold one cell, complex
  // columns hold cells sorted by path, columns sorted by id.
  Row RandomRow(std::string clustering) {
    Row r;
    r.clustering = std::move(clustering);
    if (rnd_.OneIn(2)) r.marker = LivenessInfo{Timestamp(), 0, kNoDeletionTime};
    r.deletion = RandomDeletion(6);
    uint32_t id = static_cast<uint32_t>(rnd_.Uniform(2));
    size_t ncols = rnd_.Uniform(4);
    for (size_t i = 0; i < ncols; ++i) {
      ColumnData col;
      col.column_id = id;
      if (rnd_.OneIn(4)) {
        col.is_complex = true;
        col.complex_deletion = RandomDeletion(4);
        std::string path;
        for (size_t j = rnd_.Uniform(3); j > 0; --j) {
          path += static_cast<char>('0' + rnd_.Uniform(3));
          col.cells.push_back(RandomCell(path));
        }
      } else {
        col.cells.push_back(RandomCell());
      }
      r.columns.push_back(std::move(col));
      id += 1 + static_cast<uint32_t>(rnd_.Uniform(2));
    }
    return r;
  }

  PartitionUpdate RandomUpdate() {
    std::vector<std::string> keys = Keys();
    PartitionUpdate u = Update(keys[rnd_.Uniform(keys.size())]);
    u.partition_deletion = RandomDeletion(10);
    if (rnd_.OneIn(4)) u.static_row = RandomRow("");
    if (rnd_.OneIn(5)) {
      RangeTombstone rt;
      rt.range = RandomRange();
      rt.deletion = DeletionTime{Timestamp(), Second()};
      u.range_tombstones.push_back(rt);
    }
    std::map<std::string, bool> clusterings;
    for (size_t n = rnd_.Uniform(5); n > 0; --n) clusterings[Clustering()] = true;
    for (const auto& [c, unused] : clusterings) u.rows.push_back(RandomRow(c));
    return u;
  }

 private:
  Random rnd_;
};

// The reference: every partition merged with MergePartition.
class ModelMemtable {
 public:
  void Apply(const PartitionUpdate& u) {
    if (u.partition_deletion.IsLive() && u.static_row.IsEmpty() && u.range_tombstones.empty() &&
        u.rows.empty()) {
      return;  // the memtable ignores updates without content
    }
    auto [it, inserted] = partitions_.try_emplace(u.key.SortKey());
    if (inserted) it->second.key = u.key;
    MergePartition(&it->second, u);
  }
  const std::map<std::string, PartitionUpdate>& partitions() const { return partitions_; }

 private:
  std::map<std::string, PartitionUpdate> partitions_;
};

}  // namespace cassette::memtable_test
