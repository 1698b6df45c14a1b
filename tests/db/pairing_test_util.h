// Shared by the db tests that pair a fast path with its general twin
// (sstable_skip_pairing_test.cc, expiry_drop_pairing_test.cc,
// lcs_move_pairing_test.cc): the seed, and a rendering of reads exact
// enough to compare two ways of answering them.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "cassette/db.h"

namespace cassette::testing {

// CASSETTE_SEED from the environment, else a fixed default; tests print
// it on failure.
inline uint64_t PairingSeed() {
  const char* env = std::getenv("CASSETTE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240101;
}

// Every page of the read: each row's values, write times, TTLs and
// collection elements (with their own write times and TTLs).
inline std::string ReadAllPages(Database& db, ReadQuery query) {
  std::string out;
  for (int page = 0; page < 100'000; ++page) {
    auto result = db.Read(query);
    if (!result.ok()) return out + "error: " + result.status().ToString();
    for (const ResultRow& row : result->rows) {
      for (const Value& v : row.values) out += v.ToString() + ",";
      for (const auto& w : row.writetimes) out += " w" + (w ? std::to_string(*w) : "-");
      for (const auto& t : row.ttls) out += " t" + (t ? std::to_string(*t) : "-");
      for (const auto& elements : row.elements) {
        for (const ElementCell& e : elements) {
          out += " e" + std::to_string(e.writetime) + "/" + (e.ttl ? std::to_string(*e.ttl) : "-");
        }
      }
      out += "\n";
    }
    if (result->paging_state.empty()) return out;
    out += "--page--\n";
    query.paging_state = result->paging_state;
  }
  return out + "too many pages";
}

// Every row of ks.`table`, with cell metadata.
inline std::string ReadTable(Database& db, const std::string& table) {
  ReadQuery query;
  query.keyspace = "ks";
  query.table = table;
  query.with_cell_metadata = true;
  return ReadAllPages(db, query);
}

// The first line where two renderings differ, with its neighbours (a
// whole table would flood the log); empty when equal.
inline std::string FirstDifference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const size_t line = a.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t from = line == std::string::npos ? 0 : line + 1;
  return "at byte " + std::to_string(at) + ":\n  " + a.substr(from, 300) + "\nvs\n  " +
         b.substr(from, 300);
}

}  // namespace cassette::testing
