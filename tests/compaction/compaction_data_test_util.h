// Builders, SSTable helpers and a compact text dump shared by the tests of
// the compaction controller, iterator and output writer.
//
// Dump notation (one partition per line):
//   <key> [pdel=ts/ldt] [static{cells}] [rt[lo,hi)=ts/ldt ...] | <ck>{...} ...
// where a row is <ck>{[m=ts|m=ts~ttl/exp] [del=ts/ldt] cells} and a cell
//   c<id>=<value>@ts             live
//   c<id>=<value>@ts~ttl/exp     expiring
//   c<id>=X@ts/ldt               tombstone
// Collections print c<id>{[del=ts/ldt] <path>=... ...}. Clusterings and
// range tombstone bounds are 4-byte ints (Ck) printed as numbers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cassette/file_system.h"
#include "engine/compaction/compaction_controller.h"
#include "engine/compaction/compaction_iterator.h"
#include "engine/compaction/compaction_output_writer.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/sstable/sstable_writer.h"
#include "tests/mutation/partition_maker.h"

namespace cassette::compaction_data_test {

// A comparable 4-byte int clustering (sign bit flipped, big-endian).
inline std::string Ck(int32_t v) {
  uint32_t u = static_cast<uint32_t>(v) ^ 0x80000000u;
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(u >> (8 * (3 - i)));
  return s;
}

inline std::string CkText(const std::string& ck) {
  if (ck.size() != 4) return "?" + std::to_string(ck.size());
  uint32_t u = 0;
  for (char c : ck) u = (u << 8) | static_cast<uint8_t>(c);
  return std::to_string(static_cast<int32_t>(u ^ 0x80000000u));
}

inline DecoratedKey Key(const std::string& k) { return DecoratedKey::FromKey(k); }

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

inline DeletionTime Del(int64_t ts, int64_t ldt) { return DeletionTime{ts, ldt}; }
inline LivenessInfo Marker(int64_t ts) { return LivenessInfo{ts, 0, kNoDeletionTime}; }

// A row with the given clustering and columns (sorted by id by the caller).
inline Row MakeRow(int32_t ck, std::vector<ColumnData> columns, LivenessInfo marker = {},
                   DeletionTime deletion = {}) {
  Row r;
  r.clustering = Ck(ck);
  r.marker = marker;
  r.deletion = deletion;
  r.columns = std::move(columns);
  return r;
}

// [lo, hi] with inclusive ends, over Ck ints.
inline RangeTombstone Rt(int32_t lo, int32_t hi, DeletionTime d, bool hi_inclusive = true) {
  RangeTombstone rt;
  rt.range.start = Bound{Ck(lo), true};
  rt.range.end = Bound{Ck(hi), hi_inclusive};
  rt.deletion = d;
  return rt;
}

inline PartitionUpdate Partition(const std::string& key, std::vector<Row> rows = {}) {
  PartitionUpdate p;
  p.key = Key(key);
  p.rows = std::move(rows);
  return p;
}

inline std::string DeletionText(const DeletionTime& d) {
  return std::to_string(d.marked_for_delete_at) + "/" + std::to_string(d.local_deletion_time);
}

inline std::string CellText(const Cell& c) {
  if (c.IsTombstone())
    return "X@" + std::to_string(c.timestamp) + "/" + std::to_string(c.local_deletion_time);
  std::string out = c.value + "@" + std::to_string(c.timestamp);
  if (c.IsExpiring()) {
    out += "~" + std::to_string(c.ttl) + "/" + std::to_string(c.local_deletion_time);
  }
  return out;
}

inline std::string RowBody(const Row& r) {
  std::string out;
  auto add = [&](const std::string& s) {
    if (!out.empty()) out += " ";
    out += s;
  };
  if (!r.marker.IsEmpty()) {
    std::string m = "m=" + std::to_string(r.marker.timestamp);
    if (r.marker.IsExpiring()) {
      m +=
          "~" + std::to_string(r.marker.ttl) + "/" + std::to_string(r.marker.local_expiration_time);
    }
    add(m);
  }
  if (!r.deletion.IsLive()) add("del=" + DeletionText(r.deletion));
  for (const ColumnData& col : r.columns) {
    const std::string name = "c" + std::to_string(col.column_id);
    if (!col.is_complex) {
      for (const Cell& c : col.cells) add(name + "=" + CellText(c));
      continue;
    }
    std::string inner;
    if (!col.complex_deletion.IsLive()) inner = "del=" + DeletionText(col.complex_deletion);
    for (const Cell& c : col.cells) {
      if (!inner.empty()) inner += " ";
      inner += c.path + "=" + CellText(c);
    }
    add(name + "{" + inner + "}");
  }
  return out;
}

inline std::string PartitionText(const PartitionUpdate& p) {
  std::string out = p.key.key;
  if (!p.partition_deletion.IsLive()) out += " pdel=" + DeletionText(p.partition_deletion);
  if (!p.static_row.IsEmpty()) out += " static{" + RowBody(p.static_row) + "}";
  for (const RangeTombstone& rt : p.range_tombstones) {
    out += std::string(" rt") + (rt.range.start.inclusive ? "[" : "(") +
           CkText(rt.range.start.prefix) + "," + CkText(rt.range.end.prefix) +
           (rt.range.end.inclusive ? "]" : ")") + "=" + DeletionText(rt.deletion);
  }
  if (!p.rows.empty()) out += " |";
  for (const Row& r : p.rows) out += " " + CkText(r.clustering) + "{" + RowBody(r) + "}";
  return out;
}

// Partitions in partition order, one per line.
inline std::string Dump(const std::vector<PartitionUpdate>& partitions) {
  std::string out;
  for (const PartitionUpdate& p : partitions) out += PartitionText(p) + "\n";
  return out;
}

// Sorts the partitions into partition order and writes them.
inline Result<std::shared_ptr<SSTableReader>> WriteSSTable(FileSystem* fs, const std::string& path,
                                                           std::vector<PartitionUpdate> partitions,
                                                           SSTableWriterOptions options = {}) {
  std::sort(partitions.begin(), partitions.end(),
            [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
  CASSETTE_ASSIGN_OR_RETURN(auto writer, SSTableWriter::Create(fs, path, options));
  for (const PartitionUpdate& p : partitions) CASSETTE_RETURN_IF_ERROR(writer->Add(p));
  CASSETTE_RETURN_IF_ERROR(writer->Finish().status());
  CASSETTE_ASSIGN_OR_RETURN(auto reader, SSTableReader::Open(fs, path));
  return reader;
}

inline Result<std::vector<PartitionUpdate>> Drain(PartitionIterator* it) {
  std::vector<PartitionUpdate> out;
  for (; it->Valid(); it->Next()) {
    CASSETTE_ASSIGN_OR_RETURN(PartitionUpdate p, Materialize(it->partition()));
    out.push_back(std::move(p));
  }
  CASSETTE_RETURN_IF_ERROR(it->status());
  return out;
}

inline Result<std::vector<PartitionUpdate>> ReadSSTable(FileSystem* fs, const std::string& path) {
  CASSETTE_ASSIGN_OR_RETURN(auto reader, SSTableReader::Open(fs, path));
  std::unique_ptr<PartitionIterator> scanner = reader->NewScanner(TokenInterval::All(), nullptr);
  return Drain(scanner.get());
}

// The lines of a dump, sorted: for tests whose keys' token order does not matter.
inline std::vector<std::string> SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// The dump of one SSTable, or the error text.
inline std::string DumpSSTable(FileSystem* fs, const std::string& path) {
  auto partitions = ReadSSTable(fs, path);
  if (!partitions.ok()) return "error: " + partitions.status().ToString();
  return Dump(*partitions);
}

inline std::vector<std::unique_ptr<PartitionIterator>> Scanners(
    const std::vector<std::shared_ptr<SSTableReader>>& inputs) {
  std::vector<std::unique_ptr<PartitionIterator>> out;
  for (const auto& r : inputs) out.push_back(r->NewScanner(TokenInterval::All(), nullptr));
  return out;
}

// Allocates outputs <dir>/<generation>.sst, generations from `first` up.
inline std::function<Result<std::pair<uint64_t, std::string>>()> PathAllocator(
    std::string dir, uint64_t first = 100) {
  auto next = std::make_shared<uint64_t>(first);
  return [dir = std::move(dir), next]() -> Result<std::pair<uint64_t, std::string>> {
    const uint64_t g = (*next)++;
    return std::make_pair(g, dir + "/" + std::to_string(g) + ".sst");
  };
}

struct CompactionRun {
  CompactionOutputResult result;
  CompactionIteratorStats stats;
  // Every output's dump, concatenated in generation order.
  std::string dump;
};

// Compacts `inputs` under `controller` at `now_sec` into `dir`.
inline Result<CompactionRun> RunCompaction(
    FileSystem* fs, const std::string& dir,
    const std::vector<std::shared_ptr<SSTableReader>>& inputs,
    const CompactionController& controller, int64_t now_sec, CompactionOutputShape shape = {}) {
  CompactionIterator it(Scanners(inputs), &controller, now_sec);
  std::vector<const SSTableStats*> stats;
  for (const auto& r : inputs) stats.push_back(&r->stats());
  CompactionOutputOptions options;
  options.fs = fs;
  options.new_output = PathAllocator(dir);
  options.writer_options = CompactionWriterOptions({}, stats, now_sec * 1000000);
  options.shape = std::move(shape);
  CompactionOutputWriter writer(std::move(options));
  CompactionRun run;
  CASSETTE_ASSIGN_OR_RETURN(run.result, writer.Write(&it));
  run.stats = it.stats();
  for (const CompactionOutput& out : run.result.outputs) run.dump += DumpSSTable(fs, out.path);
  return run;
}

using mutation_test::VectorPartitionIterator;

}  // namespace cassette::compaction_data_test
