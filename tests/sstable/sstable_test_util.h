// Random partitions, clustering ranges and helpers shared by the sstable
// tests. Clusterings are two 4-byte big-endian components, so 4-byte
// prefixes are meaningful slice bounds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/sstable/sstable_writer.h"
#include "engine/util/random.h"

namespace cassette {

// Readable failure output for the data-model types.
inline std::string HexOf(std::string_view s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (char c : s) {
    out.push_back(d[static_cast<uint8_t>(c) >> 4]);
    out.push_back(d[static_cast<uint8_t>(c) & 15]);
  }
  return out;
}
inline std::string DebugString(const DeletionTime& d) {
  if (d.IsLive()) return "live";
  return "del(" + std::to_string(d.marked_for_delete_at) + "," +
         std::to_string(d.local_deletion_time) + ")";
}
inline std::string DebugString(const Cell& c) {
  return "cell(ts=" + std::to_string(c.timestamp) + " ttl=" + std::to_string(c.ttl) +
         " ldt=" + std::to_string(c.local_deletion_time) + " v=" + HexOf(c.value) +
         " path=" + HexOf(c.path) + ")";
}
inline std::string DebugString(const Row& r) {
  std::string out =
      "row(ck=" + HexOf(r.clustering) + " marker=" + std::to_string(r.marker.timestamp) + "/" +
      std::to_string(r.marker.ttl) + "/" + std::to_string(r.marker.local_expiration_time) +
      " del=" + DebugString(r.deletion);
  for (const ColumnData& c : r.columns) {
    out += " col" + std::to_string(c.column_id) + (c.is_complex ? "[complex " : "[") +
           DebugString(c.complex_deletion);
    for (const Cell& cell : c.cells) out += " " + DebugString(cell);
    out += "]";
  }
  return out + ")";
}
inline std::string DebugString(const RangeTombstone& rt) {
  return std::string("rt(") + (rt.range.start.inclusive ? "[" : "(") +
         HexOf(rt.range.start.prefix) + "," + HexOf(rt.range.end.prefix) +
         (rt.range.end.inclusive ? "]" : ")") + " " + DebugString(rt.deletion) + ")";
}
inline std::string DebugString(const PartitionUpdate& p) {
  std::string out = "partition(token=" + std::to_string(p.key.token) + " key=" + HexOf(p.key.key) +
                    " del=" + DebugString(p.partition_deletion) +
                    "\n  static=" + DebugString(p.static_row);
  for (const RangeTombstone& rt : p.range_tombstones) out += "\n  " + DebugString(rt);
  for (const Row& r : p.rows) out += "\n  " + DebugString(r);
  return out + ")";
}
inline void PrintTo(const Row& r, std::ostream* os) { *os << DebugString(r); }
inline void PrintTo(const PartitionUpdate& p, std::ostream* os) { *os << DebugString(p); }
inline void PrintTo(const RangeTombstone& rt, std::ostream* os) { *os << DebugString(rt); }

}  // namespace cassette

namespace cassette::sstable_test {

inline uint64_t TestSeed() {
  const char* env = std::getenv("CASSETTE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240101;
}

inline constexpr int64_t kBaseTs = 1'700'000'000'000'000;  // micros
inline constexpr int64_t kNow = 1'700'000'000;             // seconds

inline std::string Be32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (8 * (3 - i)));
  return s;
}
inline std::string Ck(uint32_t a, uint32_t b) { return Be32(a) + Be32(b); }

inline ColumnData SimpleColumn(uint32_t id, Cell c) {
  ColumnData col;
  col.column_id = id;
  col.cells.push_back(std::move(c));
  return col;
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : rnd_(seed) {}

  Random& rnd() { return rnd_; }

  int64_t Ts() { return kBaseTs + rnd_.Range(0, 1'000'000'000); }
  int64_t Ldt() { return kNow + rnd_.Range(-100000, 100000); }

  DeletionTime Deletion() { return DeletionTime{Ts(), Ldt()}; }

  Cell RandomCell(std::string path = {}) {
    switch (rnd_.Uniform(4)) {
      case 0:
        return Cell::Tombstone(Ts(), Ldt(), std::move(path));
      case 1:
        return Cell::Expiring(Ts(), static_cast<int32_t>(rnd_.Range(1, 86400 * 30)), Ldt(), Value(),
                              std::move(path));
      default:
        return Cell::Live(Ts(), Value(), std::move(path));
    }
  }

  std::string Value() { return rnd_.OneIn(8) ? std::string() : rnd_.Bytes(rnd_.Uniform(24) + 1); }

  Row RandomRow(std::string clustering) {
    Row row;
    row.clustering = std::move(clustering);
    switch (rnd_.Uniform(4)) {
      case 0:
        break;
      case 1: {
        const int32_t ttl = static_cast<int32_t>(rnd_.Range(1, 86400));
        row.marker = LivenessInfo{Ts(), ttl, kNow + ttl};
        break;
      }
      default:
        row.marker = LivenessInfo{Ts(), 0, kNoDeletionTime};
    }
    if (rnd_.OneIn(8)) row.deletion = Deletion();
    uint32_t id = static_cast<uint32_t>(rnd_.Uniform(3));
    const int columns = static_cast<int>(rnd_.Uniform(4));
    for (int i = 0; i < columns; ++i, id += 1 + static_cast<uint32_t>(rnd_.Uniform(3))) {
      if (rnd_.OneIn(4)) {
        ColumnData col;
        col.column_id = id;
        col.is_complex = true;
        if (rnd_.OneIn(3)) col.complex_deletion = Deletion();
        std::vector<std::string> paths;
        const int n = static_cast<int>(rnd_.Uniform(4));
        for (int j = 0; j < n; ++j) paths.push_back(rnd_.Bytes(1 + rnd_.Uniform(4)));
        std::sort(paths.begin(), paths.end());
        paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
        for (std::string& p : paths) col.cells.push_back(RandomCell(std::move(p)));
        row.columns.push_back(std::move(col));
      } else {
        row.columns.push_back(SimpleColumn(id, RandomCell()));
      }
    }
    if (row.IsEmpty()) row.marker = LivenessInfo{Ts(), 0, kNoDeletionTime};
    return row;
  }

  Bound RandomBound() {
    Bound b;
    switch (rnd_.Uniform(4)) {
      case 0:
        return b;  // unbounded
      case 1:
        b.prefix = Be32(static_cast<uint32_t>(rnd_.Uniform(kDomain)));
        break;
      default:
        b.prefix = Ck(static_cast<uint32_t>(rnd_.Uniform(kDomain)),
                      static_cast<uint32_t>(rnd_.Uniform(kDomain)));
    }
    b.inclusive = rnd_.OneIn(2);
    return b;
  }

  ClusteringRange RandomRange() { return ClusteringRange{RandomBound(), RandomBound()}; }

  // Rows with clusterings drawn from the kDomain x kDomain grid.
  std::vector<Row> RandomRows(size_t max_rows) {
    std::vector<std::string> cks;
    const size_t n = rnd_.Uniform(max_rows + 1);
    for (size_t i = 0; i < n; ++i) {
      cks.push_back(Ck(static_cast<uint32_t>(rnd_.Uniform(kDomain)),
                       static_cast<uint32_t>(rnd_.Uniform(kDomain))));
    }
    std::sort(cks.begin(), cks.end());
    cks.erase(std::unique(cks.begin(), cks.end()), cks.end());
    std::vector<Row> rows;
    for (std::string& ck : cks) rows.push_back(RandomRow(std::move(ck)));
    return rows;
  }

  PartitionUpdate RandomPartition(DecoratedKey key, size_t max_rows) {
    PartitionUpdate p;
    p.key = std::move(key);
    if (rnd_.OneIn(5)) p.partition_deletion = Deletion();
    if (rnd_.OneIn(3)) {
      p.static_row = RandomRow("");
      p.static_row.marker = LivenessInfo{};  // static rows carry no marker
      if (p.static_row.IsEmpty())
        p.static_row.columns.push_back(SimpleColumn(9, Cell::Live(Ts(), "s")));
    }
    const int rts = rnd_.OneIn(3) ? static_cast<int>(rnd_.Uniform(4)) : 0;
    for (int i = 0; i < rts; ++i) {
      ClusteringRange range = RandomRange();
      while (range.IsEmpty()) range = RandomRange();  // a DELETE never writes one
      p.range_tombstones.push_back({range, Deletion()});
    }
    p.rows = RandomRows(max_rows);
    return p;
  }

  // n partitions with distinct random keys, in partition order.
  std::vector<PartitionUpdate> RandomPartitions(size_t n, size_t max_rows) {
    std::map<DecoratedKey, bool> keys;
    while (keys.size() < n) keys[DecoratedKey::FromKey(rnd_.Bytes(1 + rnd_.Uniform(12)))] = true;
    std::vector<PartitionUpdate> out;
    for (const auto& [key, unused] : keys) out.push_back(RandomPartition(key, max_rows));
    return out;
  }

  static constexpr uint64_t kDomain = 40;

 private:
  Random rnd_;
};

inline std::vector<Row> Drain(RowIterator* it) {
  std::vector<Row> rows;
  for (; it->Valid(); it->Next()) rows.push_back(it->row());
  return rows;
}

inline std::vector<Row> Filter(const std::vector<Row>& rows, const ClusteringRange& range,
                               bool reversed) {
  std::vector<Row> out;
  for (const Row& r : rows) {
    if (range.Contains(r.clustering)) out.push_back(r);
  }
  if (reversed) std::reverse(out.begin(), out.end());
  return out;
}

inline Result<SSTableStats> WriteTable(FileSystem* fs, const std::string& path,
                                       const std::vector<PartitionUpdate>& partitions,
                                       SSTableWriterOptions options = {}) {
  options.expected_partitions = std::max<uint64_t>(partitions.size(), 1);
  CASSETTE_ASSIGN_OR_RETURN(auto writer, SSTableWriter::Create(fs, path, options));
  for (const PartitionUpdate& p : partitions) CASSETTE_RETURN_IF_ERROR(writer->Add(p));
  return writer->Finish();
}

// Reads a whole partition back as a PartitionUpdate.
inline Result<std::optional<PartitionUpdate>> ReadWhole(const SSTableReader& reader,
                                                        const DecoratedKey& key,
                                                        int64_t* blocks_read = nullptr) {
  CASSETTE_ASSIGN_OR_RETURN(auto content,
                            reader.ReadPartition(key, ClusteringRange::All(), false, blocks_read));
  if (!content.has_value()) return std::optional<PartitionUpdate>();
  CASSETTE_ASSIGN_OR_RETURN(PartitionUpdate p, Materialize(*content));
  return std::optional<PartitionUpdate>(std::move(p));
}

}  // namespace cassette::sstable_test
