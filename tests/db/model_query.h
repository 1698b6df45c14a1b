// The model's side of a read: a query over ks.t (partition keys or a token
// range, a clustering equality or slice, reversed, LIMIT, PER PARTITION
// LIMIT, a column subset, paging) evaluated against ReferenceModel from
// the rules written out plainly here, and the same query as the
// ReadQuery the engine gets.
//
// Paging follows Cassandra's contract (PagingState: the last partition
// key, the last row's clustering, the rows still allowed in total and in
// that partition; QueryPagers resume strictly after that row): page i is
// the first page_size rows the query returns *at the time page i is
// read*, among the rows after where page i-1 stopped, with LIMIT and PER
// PARTITION LIMIT counting the rows of earlier pages too. So a row that
// exists unchanged throughout is returned exactly once, and a later page
// shows later data. A paging state is returned exactly when a page filled
// up before the query's end and before LIMIT was reached.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cassette/query.h"
#include "tests/db/reference_model.h"

namespace cassette::testing {

// The partition keys the model test writes, with their Murmur3 tokens as
// Cassandra computes them (the values tests/util/murmur3_test.cc checks
// against Cassandra; -1 has tail bytes >= 0x80, where Cassandra's
// sign-extension quirk shows). Scans return partitions in this token order.
inline constexpr std::array<std::pair<int32_t, int64_t>, 6> kModelKeys = {{
    {0, -3485513579396041028},
    {1, -4069959284402364209},
    {2, -3248873570005575792},
    {3, 9010454139840013625},
    {-1, 7297452126230313552},
    {42, -7160136740246525330},
}};

inline int64_t ModelToken(int32_t pk) {
  for (const auto& [key, token] : kModelKeys) {
    if (key == pk) return token;
  }
  return 0;  // not a model key: never asked for
}

struct ModelBound {
  int32_t ck = 0;
  bool inclusive = true;
};

struct ModelQuery {
  std::vector<int32_t> keys;  // read in this order; empty: a token-range scan
  std::optional<TokenRange> token_range;
  std::optional<int32_t> ck_equal;   // WHERE ck = x
  std::optional<ModelBound> lo, hi;  // WHERE ck >(=) lo AND ck <(=) hi
  bool reversed = false;             // ORDER BY ck DESC
  int64_t limit = 0;                 // 0 = none
  int64_t per_partition_limit = 0;   // 0 = none
  std::vector<std::string> columns;  // a subset of pk, ck, s, v, tags, in this order
  int32_t page_size = 0;

  ReadQuery ToReadQuery() const {
    ReadQuery q;
    q.keyspace = "ks";
    q.table = "t";
    for (int32_t pk : keys) q.partition_keys.push_back({Value::Int(pk)});
    q.token_range = token_range;
    if (ck_equal) q.clustering_prefix = {Value::Int(*ck_equal)};
    if (lo) q.slice_start = ClusteringBound{{Value::Int(lo->ck)}, lo->inclusive};
    if (hi) q.slice_end = ClusteringBound{{Value::Int(hi->ck)}, hi->inclusive};
    q.reversed = reversed;
    q.limit = limit;
    q.per_partition_limit = per_partition_limit;
    q.columns = columns;
    q.page_size = page_size;
    return q;
  }

  std::string Describe() const {
    std::string out = "query keys=[";
    for (int32_t pk : keys) out += std::to_string(pk) + " ";
    out += "]";
    if (token_range) {
      out += std::string(" token") + (token_range->start_inclusive ? "[" : "(") +
             std::to_string(token_range->start) + "," + std::to_string(token_range->end) +
             (token_range->end_inclusive ? "]" : ")");
    }
    if (ck_equal) out += " ck=" + std::to_string(*ck_equal);
    if (lo) out += " ck" + std::string(lo->inclusive ? ">=" : ">") + std::to_string(lo->ck);
    if (hi) out += " ck" + std::string(hi->inclusive ? "<=" : "<") + std::to_string(hi->ck);
    if (reversed) out += " reversed";
    if (limit) out += " limit=" + std::to_string(limit);
    if (per_partition_limit) out += " ppl=" + std::to_string(per_partition_limit);
    out += " columns=";
    for (const std::string& c : columns) out += c + " ";
    if (page_size) out += "page_size=" + std::to_string(page_size);
    return out;
  }
};

// Where a paged read stopped: Cassandra's PagingState, in model terms.
struct ModelCursor {
  size_t partition_index = 0;  // in the query's partition order
  std::optional<int32_t> last_ck;
  bool partition_done = false;
  int64_t rows_returned = 0;
  int64_t rows_in_partition = 0;
  bool operator==(const ModelCursor&) const = default;
};

struct ModelPage {
  std::vector<std::string> rows;    // rendered as tests/db/db_test_util.h Render renders
  std::optional<ModelCursor> next;  // set exactly when the engine must return a paging state
};

// The partitions a query visits, in its order: the keys as given, or
// every model key in Murmur3 token order within the token range (a range
// whose start is past its end selects nothing: CQL's token restrictions
// do not wrap).
inline std::vector<int32_t> QueryPartitions(const ModelQuery& q) {
  if (!q.keys.empty()) return q.keys;
  std::vector<std::pair<int64_t, int32_t>> by_token;
  for (const auto& [pk, token] : kModelKeys) {
    if (q.token_range) {
      const TokenRange& r = *q.token_range;
      if (token < r.start || (token == r.start && !r.start_inclusive)) continue;
      if (token > r.end || (token == r.end && !r.end_inclusive)) continue;
    }
    by_token.push_back({token, pk});
  }
  std::sort(by_token.begin(), by_token.end());
  std::vector<int32_t> out;
  for (const auto& entry : by_token) out.push_back(entry.second);
  return out;
}

inline bool InSlice(const ModelQuery& q, int32_t ck) {
  if (q.ck_equal && ck != *q.ck_equal) return false;
  if (q.lo && (q.lo->inclusive ? ck < q.lo->ck : ck <= q.lo->ck)) return false;
  if (q.hi && (q.hi->inclusive ? ck > q.hi->ck : ck >= q.hi->ck)) return false;
  return true;
}

inline std::string RenderSelected(const ModelQuery& q, const ModelRow& row) {
  std::string out;
  for (size_t i = 0; i < q.columns.size(); ++i) {
    const std::string& c = q.columns[i];
    if (i) out += ",";
    if (c == "pk") out += std::to_string(row.pk);
    if (c == "ck") out += row.ck ? std::to_string(*row.ck) : "null";
    if (c == "s") out += row.s;
    if (c == "v") out += row.v;
    if (c == "tags") out += row.tags;
  }
  return out;
}

// One page (the whole result when page_size is 0) of q at `now`, resuming
// after `resume` when given.
inline ModelPage EvaluatePage(const ReferenceModel& model, const ModelQuery& q, int64_t now,
                              const std::optional<ModelCursor>& resume) {
  ModelPage page;
  const bool restricts_rows = q.ck_equal || q.lo || q.hi;
  const std::vector<int32_t> partitions = QueryPartitions(q);
  int64_t total = resume ? resume->rows_returned : 0;
  int64_t on_page = 0;
  auto limit_reached = [&] { return q.limit > 0 && total >= q.limit; };
  if (limit_reached()) return page;
  // A contradictory slice selects nothing, not even a static row.
  if (q.lo && q.hi &&
      (q.lo->ck > q.hi->ck || (q.lo->ck == q.hi->ck && !(q.lo->inclusive && q.hi->inclusive)))) {
    return page;
  }
  for (size_t i = resume ? resume->partition_index : 0; i < partitions.size(); ++i) {
    const bool resuming = resume && i == resume->partition_index;
    if (resuming && (resume->partition_done || !resume->last_ck)) continue;
    int64_t in_partition = resuming ? resume->rows_in_partition : 0;
    std::vector<ModelRow> rows = model.Rows(partitions[i], now);
    if (q.reversed) std::reverse(rows.begin(), rows.end());
    auto emit = [&](const ModelRow& row) {
      page.rows.push_back(RenderSelected(q, row));
      ++total;
      ++on_page;
      ++in_partition;
      if (limit_reached() || (q.page_size > 0 && on_page >= q.page_size)) {
        if (!limit_reached()) {
          ModelCursor next;
          next.partition_index = i;
          next.last_ck = row.ck;
          next.partition_done =
              !row.ck || (q.per_partition_limit > 0 && in_partition >= q.per_partition_limit);
          next.rows_returned = total;
          next.rows_in_partition = in_partition;
          page.next = next;
        }
        return true;
      }
      return false;
    };
    auto ppl_reached = [&] {
      return q.per_partition_limit > 0 && in_partition >= q.per_partition_limit;
    };
    if (ppl_reached()) continue;
    for (const ModelRow& row : rows) {
      if (!row.ck) {
        // The partition's only live data is static: one row of key and
        // statics, when nothing restricts the rows and no row of the
        // partition was returned (on this page or an earlier one).
        if (!restricts_rows && in_partition == 0 && emit(row)) return page;
        continue;
      }
      if (!InSlice(q, *row.ck)) continue;
      if (resuming && (q.reversed ? *row.ck >= *resume->last_ck : *row.ck <= *resume->last_ck)) {
        continue;
      }
      if (emit(row)) return page;
      if (ppl_reached()) break;
    }
  }
  return page;
}

// The model's rows of q as one string, as Render(ResultSet) renders them.
inline std::string JoinRows(const std::vector<std::string>& rows) {
  std::string out;
  for (const std::string& row : rows) {
    if (!out.empty()) out += ";";
    out += row;
  }
  return out;
}

}  // namespace cassette::testing
