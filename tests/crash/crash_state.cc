#include "tests/crash/crash_state.h"

#include <algorithm>
#include <optional>
#include <set>

namespace cassette::crash {

void CrashModel::Apply(const Op& op, bool applied) {
  switch (op.kind) {
    case OpKind::kWrite:
    case OpKind::kLoggedBatch:
      for (const DataWrite& d : op.writes) tables_[d.table].Apply(d.write);
      break;
    case OpKind::kLwtInsert:
    case OpKind::kLwtUpdate:
      if (applied) tables_[op.table].Apply(op.writes[0].write);
      break;
    case OpKind::kCounter:
    case OpKind::kCounterBatch:
      // Not applied: an increment in flight at a kill that the checker
      // found missing.
      if (!applied) break;
      for (const CounterWrite& c : op.counters) counters_[{c.pk, c.ck}] += c.delta;
      break;
    default:
      break;  // flushes and compactions change no visible state
  }
}

bool CrashModel::LwtApplies(const Op& op) const {
  const testing::ModelWrite& w = op.writes[0].write;
  // Rows render as "pk,ck,s,v,tags" (v is the fourth field).
  const std::string rows = tables_[op.table].Render(w.pk, op.now_micros() / 1'000'000);
  const std::string prefix = std::to_string(w.pk) + "," + std::to_string(w.ck) + ",";
  std::optional<std::string> v;
  size_t start = 0;
  while (start < rows.size()) {
    size_t end = rows.find(';', start);
    if (end == std::string::npos) end = rows.size();
    const std::string row = rows.substr(start, end - start);
    if (row.starts_with(prefix)) {
      const size_t s_end = row.find(',', prefix.size());
      v = row.substr(s_end + 1, row.find(',', s_end + 1) - s_end - 1);
    }
    start = end + 1;
  }
  if (op.kind == OpKind::kLwtInsert) return !v.has_value();
  return v.has_value() && *v == std::to_string(op.expected);
}

DbState CrashModel::Render(const Shape& shape, int64_t now_micros) const {
  DbState state;
  const int64_t now_sec = now_micros / 1'000'000;
  for (int t = 0; t < kDataTables; ++t) {
    state[t].resize(shape.partitions);
    for (int pk = 0; pk < shape.partitions; ++pk) state[t][pk] = tables_[t].Render(pk, now_sec);
  }
  TableState& counters = state[kCounterTable];
  counters.resize(shape.counter_partitions);
  for (const auto& [cell, sum] : counters_) {
    std::string& out = counters[cell.first];
    if (!out.empty()) out += ";";
    out +=
        std::to_string(cell.first) + "," + std::to_string(cell.second) + "," + std::to_string(sum);
  }
  return state;
}

Result<DbState> ReadState(Database& db, const Shape& shape) {
  DbState state;
  for (int t = 0; t < kTables; ++t) {
    const bool counters = t == kCounterTable;
    const int partitions = counters ? shape.counter_partitions : shape.partitions;
    state[t].resize(partitions);
    for (int pk = 0; pk < partitions; ++pk) {
      ReadQuery query;
      query.keyspace = "ks";
      query.table = TableName(t);
      query.partition_keys = {{Value::Int(pk)}};
      query.columns = counters ? std::vector<std::string>{"pk", "ck", "c"}
                               : std::vector<std::string>{"pk", "ck", "s", "v", "tags"};
      auto result = db.Read(query);
      if (!result.ok()) return result.status();
      std::string& out = state[t][pk];
      for (const ResultRow& row : result->rows) {
        if (!out.empty()) out += ";";
        for (size_t i = 0; i < row.values.size(); ++i) {
          if (i) out += ",";
          out += row.values[i].ToString();
        }
      }
    }
  }
  return state;
}

namespace {

// The tables an operation writes.
std::set<int> TablesOf(const Op& op) {
  std::set<int> tables;
  for (const DataWrite& d : op.writes) tables.insert(d.table);
  if (!op.counters.empty()) tables.insert(kCounterTable);
  return tables;
}

std::string Clip(const std::string& s) {
  return s.size() <= 160 ? s : s.substr(0, 160) + "...(" + std::to_string(s.size()) + " bytes)";
}

}  // namespace

Verdict Compare(const DbState& got, const std::vector<const DbState*>& candidates,
                const std::vector<const Op*>& ops) {
  Verdict verdict;
  for (int c = static_cast<int>(candidates.size()) - 1; c >= 0; --c) {
    if (*candidates[c] == got) {
      verdict.consistent = true;
      verdict.prefix = c;
      return verdict;
    }
  }
  // Which candidates each table agrees with, on its own.
  std::array<std::vector<int>, kTables> matches;
  for (int t = 0; t < kTables; ++t) {
    for (int c = 0; c < static_cast<int>(candidates.size()); ++c) {
      if ((*candidates[c])[t] == got[t]) matches[t].push_back(c);
    }
  }
  for (size_t i = 0; i < ops.size() && i + 1 < candidates.size(); ++i) {
    const std::set<int> tables = TablesOf(*ops[i]);
    if (ops[i]->kind != OpKind::kLoggedBatch || tables.size() < 2) continue;
    bool some_include = false, some_exclude = false;
    for (int t : tables) {
      if (matches[t].empty()) continue;
      // Prefix c includes ops[i] when c > i.
      if (matches[t].front() > static_cast<int>(i)) some_include = true;
      if (matches[t].back() <= static_cast<int>(i)) some_exclude = true;
    }
    if (some_include && some_exclude) {
      ++verdict.torn_batches;
      verdict.detail += "torn batch " + DescribeOp(*ops[i]) + "\n";
    }
  }
  // The operations between the prefixes the tables agree with: among them
  // are those recovered in one table while an earlier one is missing.
  int lowest = static_cast<int>(candidates.size()), highest = -1;
  for (int t = 0; t < kTables; ++t) {
    if (matches[t].empty()) continue;
    lowest = std::min(lowest, matches[t].front());
    highest = std::max(highest, matches[t].front());
  }
  for (int i = lowest; i < highest && i < static_cast<int>(ops.size()); ++i) {
    if (i - lowest == 12) {
      verdict.detail += "  ...\n";
      break;
    }
    verdict.detail += "  op " + std::to_string(i) + ": " + DescribeOp(*ops[i]) + "\n";
  }
  const DbState& latest = *candidates.back();
  for (int t = 0; t < kTables; ++t) {
    if (!matches[t].empty()) {
      verdict.detail += std::string(TableName(t)) + " matches prefixes " +
                        std::to_string(matches[t].front()) + ".." +
                        std::to_string(matches[t].back()) + " of 0.." +
                        std::to_string(candidates.size() - 1) + "\n";
      continue;
    }
    for (size_t pk = 0; pk < got[t].size(); ++pk) {
      if (got[t][pk] == latest[t][pk]) continue;
      if (++verdict.differing_partitions <= 6) {
        verdict.detail += std::string(TableName(t)) + " pk=" + std::to_string(pk) +
                          " matches no allowed state\n    got:  " + Clip(got[t][pk]) +
                          "\n    want: " + Clip(latest[t][pk]) + "\n";
      }
    }
  }
  return verdict;
}

}  // namespace cassette::crash
