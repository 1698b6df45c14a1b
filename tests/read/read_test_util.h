// Test helpers for the read path: a small table, the builders of raw rows
// and partitions (tests/mutation/partition_maker.h), a ReadSource over
// in-memory partition updates (one vector per source), and a rendering of
// result sets.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/query.h"
#include "cassette/schema.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"
#include "engine/read/read_source.h"
#include "engine/schema/key_codec.h"
#include "engine/types/comparable.h"
#include "engine/util/coding.h"
#include "tests/mutation/partition_maker.h"

namespace cassette::read_test {

inline std::string Int(int32_t v) {
  std::string s;
  PutBigEndian32(&s, static_cast<uint32_t>(v));
  return s;
}

// CREATE TABLE ks.t (pk int, ck int, s int static, v int, w int,
//   l list<int>, st set<text>, m map<text, int>, PRIMARY KEY (pk, ck))
// Column ids follow declaration order.
enum ColumnId : uint32_t { kPk = 0, kCk = 1, kS = 2, kV = 3, kW = 4, kL = 5, kSt = 6, kM = 7 };

inline TableSchema TestSchema() {
  TableSchema schema("ks", "t");
  schema.AddPartitionKey("pk", DataType::Int())
      .AddClustering("ck", DataType::Int())
      .AddStatic("s", DataType::Int())
      .AddRegular("v", DataType::Int())
      .AddRegular("w", DataType::Int())
      .AddRegular("l", DataType::List(DataType::Int()))
      .AddRegular("st", DataType::Set(DataType::Text()))
      .AddRegular("m", DataType::Map(DataType::Text(), DataType::Int()));
  return schema;
}

inline DecoratedKey Key(const TableSchema& schema, int32_t pk) {
  Result<std::string> key = SerializePartitionKey(schema, {Int(pk)});
  return DecoratedKey::FromKey(key.ok() ? std::move(key).value() : std::string());
}

inline std::string Ck(const TableSchema& schema, std::vector<int32_t> values) {
  std::vector<std::string> serialized;
  for (int32_t v : values) serialized.push_back(Int(v));
  return EncodeClustering(schema, serialized);
}

// A collection element path (set element or map key, ascending encoding).
inline std::string Path(const DataType& type, std::string_view serialized) {
  std::string out;
  EncodeComparable(type, serialized, /*descending=*/false, &out);
  return out;
}

using mutation_test::PartitionMaker;
using mutation_test::RowMaker;
using mutation_test::VectorPartitionIterator;

// A ReadSource over in-memory sources. Each source holds partition updates
// (any order, one per key); rows are filtered to the requested range.
class FakeReadSource final : public ReadSource {
 public:
  void AddSource(std::vector<PartitionUpdate> partitions, bool is_sstable = false) {
    std::sort(partitions.begin(), partitions.end(),
              [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
    sources_.push_back({std::move(partitions), is_sstable});
  }

  Result<std::vector<PartitionContent>> ReadPartition(const DecoratedKey& key,
                                                      const ClusteringRange& range, bool reversed,
                                                      ReadStats* stats) override {
    ++read_partition_calls;
    keys_requested.push_back(key);
    ranges_requested.push_back(range);
    std::vector<PartitionContent> out;
    for (const Source& source : sources_) {
      (source.is_sstable ? stats->sstables_read : stats->memtables_read)++;
      for (const PartitionUpdate& p : source.partitions) {
        if (!(p.key == key)) continue;
        PartitionContent content;
        content.key = p.key;
        content.partition_deletion = p.partition_deletion;
        content.static_row = p.static_row;
        content.range_tombstones = p.range_tombstones;  // the read path clips them
        std::vector<Row> rows;
        for (const Row& row : p.rows) {
          if (range.Contains(row.clustering)) rows.push_back(row);
        }
        content.rows = std::make_unique<VectorRowIterator>(std::move(rows), reversed);
        out.push_back(std::move(content));
      }
    }
    return out;
  }

  Result<std::vector<std::unique_ptr<PartitionIterator>>> ScanPartitions(
      const TokenInterval& tokens, ReadStats* /*stats*/) override {
    ++scan_calls;
    std::vector<std::unique_ptr<PartitionIterator>> out;
    for (const Source& source : sources_) {
      std::vector<PartitionUpdate> in_range;
      for (const PartitionUpdate& p : source.partitions) {
        if (tokens.Contains(p.key.token)) in_range.push_back(p);
      }
      out.push_back(std::make_unique<VectorPartitionIterator>(std::move(in_range)));
    }
    return out;
  }

  int read_partition_calls = 0;
  int scan_calls = 0;
  std::vector<DecoratedKey> keys_requested;
  std::vector<ClusteringRange> ranges_requested;

 private:
  struct Source {
    std::vector<PartitionUpdate> partitions;
    bool is_sstable;
  };
  std::vector<Source> sources_;
};

// "(1, 2, null)" per row, values rendered as cqlsh does.
inline std::string RowString(const ResultRow& row) {
  std::string out = "(";
  for (size_t i = 0; i < row.values.size(); ++i) {
    if (i > 0) out += ", ";
    out += row.values[i].ToString();
  }
  return out + ")";
}

inline std::vector<std::string> RowStrings(const ResultSet& rs) {
  std::vector<std::string> out;
  for (const ResultRow& row : rs.rows) out.push_back(RowString(row));
  return out;
}

}  // namespace cassette::read_test
