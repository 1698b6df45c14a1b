#include "tests/crash/crash_workload.h"

#include <random>
#include <sstream>

namespace cassette::crash {

namespace {

using testing::ModelWrite;

const char* const kTableNames[kTables] = {"t_stcs", "t_lcs", "t_twcs", "t_ucs", "counters"};

// Distinct streams per (seed, index), so operation i is the same whether
// the run got there in one process or across many kills.
std::mt19937_64 OpRng(uint64_t seed, int64_t index) {
  std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                    static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32)};
  return std::mt19937_64(seq);
}

struct Picker {
  std::mt19937_64 rng;
  int operator()(int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); }
};

// The first draws of every operation: its kind and, for an LWT UPDATE, the
// row it reads (so LwtReadTarget and GenerateOp agree).
struct Skeleton {
  OpKind kind;
  RowRef row;
};

Skeleton DrawSkeleton(Picker& pick, const Shape& shape) {
  const int r = pick(100);
  OpKind kind = OpKind::kWrite;
  if (r < 50) {
    kind = OpKind::kWrite;
  } else if (r < 62) {
    kind = OpKind::kLoggedBatch;
  } else if (r < 70) {
    kind = OpKind::kCounter;
  } else if (r < 73) {
    kind = OpKind::kCounterBatch;
  } else if (r < 77) {
    kind = OpKind::kLwtInsert;
  } else if (r < 81) {
    kind = OpKind::kLwtUpdate;
  } else if (r < 86) {
    kind = OpKind::kFlushTable;
  } else if (r < 87) {
    kind = OpKind::kFlushAll;
  } else if (r < 89) {
    kind = OpKind::kCompact;
  } else if (r < 90) {
    kind = OpKind::kCompactMajor;
  }
  RowRef row{pick(kDataTables), pick(shape.partitions), pick(shape.clusterings)};
  return {kind, row};
}

int64_t NowSeconds(int64_t index) { return OpMicros(index) / 1'000'000; }

// A timestamp no other operation uses: OpMicros(index) itself, or (one time
// in six) a "late" one inside an earlier operation's millisecond band, so
// that it may lose to writes acknowledged before it.
int64_t DrawTimestamp(Picker& pick, int64_t index) {
  if (pick(6) == 0) {
    const int64_t back = 1 + pick(50);
    if (index - back >= 0) return OpMicros(index - back) + 1 + index % 9000;
  }
  return OpMicros(index);
}

DataWrite DrawDataWrite(Picker& pick, int64_t index, int table, int64_t timestamp,
                        const Shape& shape) {
  DataWrite d;
  d.table = table;
  ModelWrite& w = d.write;
  w.pk = pick(shape.partitions);
  w.ck = pick(shape.clusterings);
  w.timestamp = timestamp;
  w.now_sec = NowSeconds(index);
  w.value = static_cast<int32_t>(index);  // unique: a lost write cannot hide behind an equal one
  bool may_expire = false;
  switch (pick(11)) {
    case 0:
    case 1:
    case 2:
      w.kind = ModelWrite::kInsert;
      may_expire = true;
      break;
    case 3:
    case 4:
      w.kind = ModelWrite::kUpdate;
      may_expire = true;
      break;
    case 5:
      w.kind = ModelWrite::kDeleteCell;
      break;
    case 6:
      w.kind = ModelWrite::kDeleteRow;
      break;
    case 7: {
      w.kind = ModelWrite::kDeleteRange;
      const int32_t hi = w.ck + pick(3);
      const bool lo_inclusive = hi == w.ck || pick(2) == 0;
      const bool hi_inclusive = hi == w.ck || pick(2) == 0;
      w.range = {w.ck, lo_inclusive, hi, hi_inclusive};
      break;
    }
    case 8:
      if (pick(3) == 0) {
        w.kind = ModelWrite::kDeletePartition;
      } else {
        w.kind = ModelWrite::kStatic;
        may_expire = true;
      }
      break;
    case 9:
      w.kind = ModelWrite::kAddTag;
      may_expire = true;
      d.tag_id = pick(3);
      d.tag_padding = shape.tag_padding;
      w.tag = d.Tag();
      break;
    default:
      w.kind = ModelWrite::kInsertMarkerOnly;
      may_expire = true;
      break;
  }
  if (may_expire && pick(4) == 0) w.ttl = 1 + pick(5);
  return d;
}

std::string Using(const ModelWrite& w) {
  std::string out = " USING TIMESTAMP " + std::to_string(*w.timestamp);
  if (w.ttl > 0) out += " AND TTL " + std::to_string(w.ttl);
  return out;
}

std::string RowWhere(const ModelWrite& w) {
  return " WHERE pk = " + std::to_string(w.pk) + " AND ck = " + std::to_string(w.ck);
}

std::string DataStatement(const DataWrite& d) {
  const ModelWrite& w = d.write;
  const std::string table = std::string("ks.") + TableName(d.table);
  const std::string pk = std::to_string(w.pk), ck = std::to_string(w.ck);
  const std::string value = std::to_string(w.value);
  switch (w.kind) {
    case ModelWrite::kInsert:
      return "INSERT INTO " + table + " (pk, ck, v) VALUES (" + pk + ", " + ck + ", " + value +
             ")" + Using(w);
    case ModelWrite::kInsertMarkerOnly:
      return "INSERT INTO " + table + " (pk, ck) VALUES (" + pk + ", " + ck + ")" + Using(w);
    case ModelWrite::kUpdate:
      return "UPDATE " + table + Using(w) + " SET v = " + value + RowWhere(w);
    case ModelWrite::kDeleteCell:
      return "DELETE v FROM " + table + Using(w) + RowWhere(w);
    case ModelWrite::kDeleteRow:
      return "DELETE FROM " + table + Using(w) + RowWhere(w);
    case ModelWrite::kDeleteRange:
      return "DELETE FROM " + table + Using(w) + " WHERE pk = " + pk + " AND ck " +
             (w.range.lo_inclusive ? ">= " : "> ") + std::to_string(w.range.lo) + " AND ck " +
             (w.range.hi_inclusive ? "<= " : "< ") + std::to_string(w.range.hi);
    case ModelWrite::kDeletePartition:
      return "DELETE FROM " + table + Using(w) + " WHERE pk = " + pk;
    case ModelWrite::kStatic:
      return "UPDATE " + table + Using(w) + " SET s = " + value + " WHERE pk = " + pk;
    case ModelWrite::kAddTag:
      return "UPDATE " + table + Using(w) + " SET tags = tags + {'" + d.Tag() + "'}" + RowWhere(w);
  }
  return "";
}

std::string CounterStatement(const CounterWrite& c) {
  const std::string delta = c.delta < 0 ? " - " + std::to_string(-c.delta)  //
                                        : " + " + std::to_string(c.delta);
  return "UPDATE ks.counters SET c = c" + delta + " WHERE pk = " + std::to_string(c.pk) +
         " AND ck = " + std::to_string(c.ck);
}

std::string Statement(const Op& op) {
  switch (op.kind) {
    case OpKind::kWrite:
      return DataStatement(op.writes[0]);
    case OpKind::kLoggedBatch:
      return "BEGIN BATCH " + DataStatement(op.writes[0]) + "; " + DataStatement(op.writes[1]) +
             "; APPLY BATCH";
    case OpKind::kCounter:
      return CounterStatement(op.counters[0]);
    case OpKind::kCounterBatch:
      return "BEGIN COUNTER BATCH " + CounterStatement(op.counters[0]) + "; " +
             CounterStatement(op.counters[1]) + "; APPLY BATCH";
    case OpKind::kLwtInsert: {
      const ModelWrite& w = op.writes[0].write;
      return std::string("INSERT INTO ks.") + TableName(op.table) + " (pk, ck, v) VALUES (" +
             std::to_string(w.pk) + ", " + std::to_string(w.ck) + ", " + std::to_string(w.value) +
             ") IF NOT EXISTS";
    }
    case OpKind::kLwtUpdate: {
      const ModelWrite& w = op.writes[0].write;
      return std::string("UPDATE ks.") + TableName(op.table) +
             " SET v = " + std::to_string(w.value) + RowWhere(w) +
             " IF v = " + std::to_string(op.expected);
    }
    default:
      return "";
  }
}

}  // namespace

const char* TableName(int table) { return kTableNames[table]; }

std::string DataWrite::Tag() const {
  return std::string(1, static_cast<char>('a' + tag_id)) + std::string(tag_padding, 'x');
}

std::optional<RowRef> LwtReadTarget(uint64_t seed, int64_t index, const Shape& shape) {
  Picker pick{OpRng(seed, index)};
  const Skeleton skeleton = DrawSkeleton(pick, shape);
  if (skeleton.kind != OpKind::kLwtUpdate) return std::nullopt;
  return skeleton.row;
}

Op GenerateOp(uint64_t seed, int64_t index, const Shape& shape,
              const std::optional<int32_t>& current_v) {
  Picker pick{OpRng(seed, index)};
  const Skeleton skeleton = DrawSkeleton(pick, shape);
  Op op;
  op.index = index;
  op.kind = skeleton.kind;
  op.table = skeleton.row.table;
  switch (op.kind) {
    case OpKind::kWrite:
      op.writes.push_back(DrawDataWrite(pick, index, op.table, DrawTimestamp(pick, index), shape));
      break;
    case OpKind::kLoggedBatch: {
      const int64_t timestamp = DrawTimestamp(pick, index);
      const int other = (op.table + 1 + pick(kDataTables - 1)) % kDataTables;
      op.writes.push_back(DrawDataWrite(pick, index, op.table, timestamp, shape));
      op.writes.push_back(DrawDataWrite(pick, index, other, timestamp, shape));
      break;
    }
    case OpKind::kCounter:
    case OpKind::kCounterBatch: {
      const int cells = op.kind == OpKind::kCounter ? 1 : 2;
      const int first = pick(shape.counter_partitions * 4);
      for (int i = 0; i < cells; ++i) {
        // A batch's two increments go to two different cells.
        const int cell = (first + i * (1 + pick(shape.counter_partitions * 4 - 1))) %
                         (shape.counter_partitions * 4);
        const int64_t magnitude = 1 + pick(100);
        op.counters.push_back({cell / 4, cell % 4, pick(3) == 0 ? -magnitude : magnitude});
      }
      break;
    }
    case OpKind::kLwtInsert:
    case OpKind::kLwtUpdate: {
      DataWrite d;
      d.table = op.table;
      d.write.pk = skeleton.row.pk;
      d.write.ck = skeleton.row.ck;
      d.write.kind = op.kind == OpKind::kLwtInsert ? ModelWrite::kInsert : ModelWrite::kUpdate;
      d.write.value = static_cast<int32_t>(index);
      d.write.timestamp = OpMicros(index);  // the database clock's; no other op uses this ms
      d.write.now_sec = NowSeconds(index);
      op.writes.push_back(d);
      // Mostly the value just read (applied), sometimes another (not applied).
      op.expected = current_v.value_or(-1);
      if (pick(4) == 0) op.expected += 1;
      break;
    }
    case OpKind::kFlushTable:
      op.table = pick(kTables);
      break;
    default:
      break;
  }
  return op;
}

std::string EncodeOp(const Op& op) {
  std::ostringstream out;
  out << op.index << ' ' << static_cast<int>(op.kind) << ' ' << op.table << ' ' << op.expected
      << ' ' << op.writes.size();
  for (const DataWrite& d : op.writes) {
    const ModelWrite& w = d.write;
    out << ' ' << d.table << ' ' << static_cast<int>(w.kind) << ' ' << w.pk << ' ' << w.ck << ' '
        << w.value << ' ' << *w.timestamp << ' ' << w.ttl << ' ' << w.range.lo << ' '
        << w.range.lo_inclusive << ' ' << w.range.hi << ' ' << w.range.hi_inclusive << ' '
        << d.tag_id << ' ' << d.tag_padding;
  }
  out << ' ' << op.counters.size();
  for (const CounterWrite& c : op.counters) out << ' ' << c.pk << ' ' << c.ck << ' ' << c.delta;
  return out.str();
}

Result<Op> DecodeOp(const std::string& text) {
  std::istringstream in(text);
  Op op;
  int kind = 0;
  size_t writes = 0, counters = 0;
  in >> op.index >> kind >> op.table >> op.expected >> writes;
  op.kind = static_cast<OpKind>(kind);
  if (!in || kind < 0 || kind > static_cast<int>(OpKind::kCompactMajor) || writes > 2) {
    return Status::Corruption("bad operation: " + text);
  }
  for (size_t i = 0; i < writes; ++i) {
    DataWrite d;
    ModelWrite& w = d.write;
    int wkind = 0;
    int64_t timestamp = 0;
    in >> d.table >> wkind >> w.pk >> w.ck >> w.value >> timestamp >> w.ttl >> w.range.lo >>
        w.range.lo_inclusive >> w.range.hi >> w.range.hi_inclusive >> d.tag_id >> d.tag_padding;
    w.kind = static_cast<ModelWrite::Kind>(wkind);
    w.timestamp = timestamp;
    w.now_sec = NowSeconds(op.index);
    if (w.kind == ModelWrite::kAddTag) w.tag = d.Tag();
    op.writes.push_back(d);
  }
  in >> counters;
  for (size_t i = 0; in && i < counters && i < 2; ++i) {
    CounterWrite c;
    in >> c.pk >> c.ck >> c.delta;
    op.counters.push_back(c);
  }
  if (!in) return Status::Corruption("bad operation: " + text);
  return op;
}

std::string DescribeOp(const Op& op) {
  switch (op.kind) {
    case OpKind::kFlushTable:
      return "#" + std::to_string(op.index) + " FLUSH " + TableName(op.table);
    case OpKind::kFlushAll:
      return "#" + std::to_string(op.index) + " FLUSH all";
    case OpKind::kCompact:
      return "#" + std::to_string(op.index) + " COMPACT " + TableName(op.table);
    case OpKind::kCompactMajor:
      return "#" + std::to_string(op.index) + " COMPACT MAJOR " + TableName(op.table);
    default:
      break;
  }
  std::string text = "#" + std::to_string(op.index) + " " + Statement(op);
  // Padding of a large set element, abbreviated.
  for (const DataWrite& d : op.writes) {
    if (d.tag_padding < 8) continue;
    const std::string run(d.tag_padding, 'x');
    for (size_t at = text.find(run); at != std::string::npos; at = text.find(run, at)) {
      text.replace(at, run.size(), "x<" + std::to_string(d.tag_padding) + " times>");
    }
  }
  return text;
}

std::vector<std::string> SchemaStatements() {
  const std::string columns =
      " (pk int, ck int, v int, s int static, tags set<text>, PRIMARY KEY (pk, ck))";
  return {
      "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = "
      "{'class': 'SimpleStrategy', 'replication_factor': 1}",
      "CREATE TABLE IF NOT EXISTS ks.t_stcs" + columns +
          " WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'min_threshold': 2}",
      "CREATE TABLE IF NOT EXISTS ks.t_lcs" + columns +
          " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': 1}",
      "CREATE TABLE IF NOT EXISTS ks.t_twcs" + columns +
          " WITH compaction = {'class': 'TimeWindowCompactionStrategy', "
          "'compaction_window_unit': 'MINUTES', 'compaction_window_size': 1}",
      "CREATE TABLE IF NOT EXISTS ks.t_ucs" + columns +
          " WITH compaction = {'class': 'UnifiedCompactionStrategy'}",
      "CREATE TABLE IF NOT EXISTS ks.counters (pk int, ck int, c counter, PRIMARY KEY (pk, ck))",
  };
}

Status ExecuteOp(CqlSession& session, const Op& op, bool* applied) {
  *applied = true;
  Database* db = session.database();
  switch (op.kind) {
    case OpKind::kFlushTable:
      return db->FlushTable("ks", TableName(op.table));
    case OpKind::kFlushAll:
      return db->Flush();
    case OpKind::kCompact:
      return db->Compact("ks", TableName(op.table));
    case OpKind::kCompactMajor:
      return db->CompactMajor("ks", TableName(op.table));
    default:
      break;
  }
  auto result = session.Execute(Statement(op));
  if (!result.ok()) return result.status();
  if (op.kind == OpKind::kLwtInsert || op.kind == OpKind::kLwtUpdate) {
    if (result->rows.empty() || result->rows[0].empty() || result->rows[0][0].is_null()) {
      return Status::Corruption("an LWT returned no [applied] column: " + DescribeOp(op));
    }
    *applied = result->rows[0][0].AsBool();
  }
  return Status::OK();
}

Result<std::optional<int32_t>> ReadV(CqlSession& session, const RowRef& row) {
  auto result = session.Execute(std::string("SELECT v FROM ks.") + TableName(row.table) +
                                " WHERE pk = " + std::to_string(row.pk) +
                                " AND ck = " + std::to_string(row.ck));
  if (!result.ok()) return result.status();
  if (result->rows.empty() || result->rows[0][0].is_null()) return std::optional<int32_t>();
  return std::optional<int32_t>(static_cast<int32_t>(result->rows[0][0].AsInt64()));
}

}  // namespace cassette::crash
