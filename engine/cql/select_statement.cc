// SELECT execution: the plan's engine reads (one per clustering IN
// combination and partition, else one for every partition), streamed
// through ALLOW FILTERING filters, PER PARTITION LIMIT and LIMIT into the
// selectors. Aggregates and GROUP BY stream their rows through a
// GroupFolder a row at a time (memory independent of the rows aggregated)
// and page by offset in groups; ORDER BY across IN partitions sorts every
// row (Cassandra does not page it).
#include "engine/cql/select_statement.h"

#include <algorithm>
#include <utility>

#include "engine/cql/group_folder.h"
#include "engine/cql/select_paging.h"
#include "engine/cql/select_plan.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {
namespace {

// Rows an unpaged read fetches per engine call when the CQL layer filters:
// LIMIT can then stop a scan early.
constexpr int32_t kFilteredChunk = 1000;

struct EngineRead {
  std::vector<std::vector<Value>> partition_keys;  // empty: the plan's range
  std::vector<Value> clustering_prefix;
};

void AddStats(const ReadStats& from, ReadStats* to) {
  to->partitions_read += from.partitions_read;
  to->sstables_read += from.sstables_read;
  to->sstables_skipped += from.sstables_skipped;
  to->memtables_read += from.memtables_read;
  to->live_rows += from.live_rows;
  to->tombstone_cells += from.tombstone_cells;
  to->blocks_read += from.blocks_read;
}

class SelectExecution {
 public:
  SelectExecution(SelectPlan plan, const ExecutionContext& context, std::string keyspace)
      : plan_(std::move(plan)), context_(context), keyspace_(std::move(keyspace)) {}

  Result<CqlResult> Run();

 private:
  void PlanReads();
  // The engine query for read `index`; `pushdown` when LIMIT and PER
  // PARTITION LIMIT may be left to the engine.
  ReadQuery MakeQuery(size_t index) const;
  bool Pushdown() const {
    return reads_.size() == 1 && plan_.restrictions.filters.empty() && !plan_.Grouping() &&
           !plan_.post_sort;
  }
  bool PassesFilters(const ResultRow& row) const;
  // Reads from `cursor_` until `max_rows` rows were kept (0: all), the
  // limit is reached or the reads are exhausted; kept rows go to `sink`.
  Status Stream(int64_t max_rows, std::vector<ResultRow>* sink);
  // ReadFailure once the caller's CqlQueryOptions::cancel is set.
  Status CheckCancelled() const;
  // The result row's values; may move them out of `row`.
  Result<std::vector<Value>> Select(ResultRow& row);
  // Each selector's ColumnSlot when all of them are plain, distinct
  // columns (the values then move from row to result), else empty.
  std::vector<size_t> DirectSlots() const;
  // ORDER BY across IN partitions: every row, sorted.
  Result<std::vector<ResultRow>> SortedRows();
  Result<std::vector<std::vector<Value>>> SortedSelection();
  // Feeds every row (sorted first for ORDER BY) to `folder` until it is done.
  Status Aggregate(GroupFolder* folder);
  Result<CqlResult> Finish(std::vector<std::vector<Value>> rows, std::string paging_state);

  SelectPlan plan_;
  const ExecutionContext& context_;
  std::string keyspace_;
  std::vector<EngineRead> reads_;
  SelectPagingState cursor_;
  std::optional<std::vector<size_t>> direct_slots_;  // DirectSlots(), once
  bool limit_reached_ = false;
  ReadStats stats_;
  std::vector<std::string> warnings_;
};

void SelectExecution::PlanReads() {
  const SelectRestrictions& r = plan_.restrictions;
  if (r.nothing_matches) return;
  std::vector<std::vector<Value>> prefixes = r.clustering_prefixes;
  if (plan_.reversed) std::reverse(prefixes.begin(), prefixes.end());
  if (r.partition_mode != SelectRestrictions::PartitionMode::kKeys) {
    for (const auto& prefix : prefixes) reads_.push_back(EngineRead{{}, prefix});
    return;
  }
  if (r.partition_keys.empty()) return;
  if (prefixes.size() == 1) {
    reads_.push_back(EngineRead{r.partition_keys, prefixes[0]});
    return;
  }
  for (const auto& key : r.partition_keys) {
    for (const auto& prefix : prefixes) reads_.push_back(EngineRead{{key}, prefix});
  }
}

ReadQuery SelectExecution::MakeQuery(size_t index) const {
  const EngineRead& read = reads_[index];
  const SelectRestrictions& r = plan_.restrictions;
  ReadQuery query;
  query.keyspace = keyspace_;
  query.table = plan_.schema.name();
  query.partition_keys = read.partition_keys;
  if (r.partition_mode == SelectRestrictions::PartitionMode::kTokenRange) {
    query.token_range = r.token_range;
  }
  query.clustering_prefix = read.clustering_prefix;
  query.slice_start = r.slice_start;
  query.slice_end = r.slice_end;
  query.reversed = plan_.reversed;
  query.columns = plan_.slots.names();
  query.with_cell_metadata = plan_.needs_cell_metadata;
  query.distinct = plan_.distinct;
  if (Pushdown()) {
    query.limit = plan_.limit;
    query.per_partition_limit = plan_.per_partition_limit;
  }
  return query;
}

bool SelectExecution::PassesFilters(const ResultRow& row) const {
  const std::vector<RowFilter>& filters = plan_.restrictions.filters;
  for (size_t i = 0; i < filters.size(); ++i) {
    std::vector<const Value*> values;
    for (size_t slot : plan_.filter_slots[i]) values.push_back(&row.values[slot]);
    if (!RowPassesFilter(plan_.schema, filters[i], values)) return false;
  }
  return true;
}

Status SelectExecution::CheckCancelled() const {
  const std::atomic<bool>* cancel =
      context_.options != nullptr ? context_.options->cancel : nullptr;
  if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
    return Status::ReadFailure("Statement cancelled");
  }
  return Status::OK();
}

Status SelectExecution::Stream(int64_t max_rows, std::vector<ResultRow>* sink) {
  const bool cql_limits = !plan_.Grouping();
  int64_t kept = 0;
  while (cursor_.read_index < reads_.size() && !limit_reached_) {
    if (max_rows > 0 && kept >= max_rows) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(CheckCancelled());
    ReadQuery query = MakeQuery(cursor_.read_index);
    query.paging_state = cursor_.engine_state;
    if (max_rows > 0) {
      // Never more rows than the page can take: the engine's paging state
      // then marks exactly where this page stops.
      query.page_size = static_cast<int32_t>(std::min<int64_t>(max_rows - kept, INT32_MAX));
    } else if (!plan_.restrictions.filters.empty() && plan_.limit > 0) {
      query.page_size = kFilteredChunk;
    }
    CASSETTE_ASSIGN_OR_RETURN(ResultSet result, context_.db->Read(query));
    AddStats(result.stats, &stats_);
    warnings_.insert(warnings_.end(), result.warnings.begin(), result.warnings.end());
    for (ResultRow& row : result.rows) {
      if (!PassesFilters(row)) continue;
      if (cql_limits) {
        // Rows per partition only matter to a PER PARTITION LIMIT.
        if (plan_.per_partition_limit > 0) {
          std::string partition = PartitionIdentity(row, plan_.partition_key_slots);
          if (partition != cursor_.partition) {
            cursor_.partition = std::move(partition);
            cursor_.rows_in_partition = 0;
          }
        }
        if (plan_.per_partition_limit > 0 &&
            cursor_.rows_in_partition >= plan_.per_partition_limit) {
          continue;
        }
        // After the sort, LIMIT applies to the sorted rows instead.
        if (!plan_.post_sort && plan_.limit > 0 && cursor_.rows_returned >= plan_.limit) {
          limit_reached_ = true;
          break;
        }
        ++cursor_.rows_in_partition;
        ++cursor_.rows_returned;
      }
      sink->push_back(std::move(row));
      ++kept;
    }
    cursor_.engine_state = std::move(result.paging_state);
    if (cursor_.engine_state.empty()) ++cursor_.read_index;
    if (cql_limits && !plan_.post_sort && plan_.limit > 0 && cursor_.rows_returned >= plan_.limit) {
      limit_reached_ = true;
    }
  }
  return Status::OK();
}

std::vector<size_t> SelectExecution::DirectSlots() const {
  std::vector<size_t> slots;
  for (const SelectorNodePtr& selector : plan_.selectors) {
    std::optional<size_t> slot = selector->ColumnSlot();
    if (!slot || std::find(slots.begin(), slots.end(), *slot) != slots.end()) return {};
    slots.push_back(*slot);
  }
  return slots;
}

Result<std::vector<Value>> SelectExecution::Select(ResultRow& row) {
  if (!direct_slots_) direct_slots_ = DirectSlots();
  std::vector<Value> out;
  out.reserve(plan_.selectors.size());
  if (!direct_slots_->empty()) {
    for (size_t i = 0; i < direct_slots_->size(); ++i) {
      const size_t slot = (*direct_slots_)[i];
      out.push_back(slot < row.values.size() ? std::move(row.values[slot])
                                             : Value::Null(plan_.selectors[i]->type()));
    }
    return out;
  }
  for (SelectorNodePtr& selector : plan_.selectors) {
    selector->Reset();
    CASSETTE_RETURN_IF_ERROR(selector->AddInput(row));
    CASSETTE_ASSIGN_OR_RETURN(Value value, selector->Output());
    out.push_back(std::move(value));
  }
  return out;
}

int CompareForSort(const SelectPlan& plan, const ResultRow& a, const ResultRow& b) {
  for (size_t i = 0; i < plan.sort_slots.size(); ++i) {
    const Value& x = a.values[plan.sort_slots[i]];
    const Value& y = b.values[plan.sort_slots[i]];
    int c = 0;
    if (x.is_null() || y.is_null()) {
      c = x.is_null() == y.is_null() ? 0 : (x.is_null() ? -1 : 1);
    } else {
      c = CompareValues(plan.sort_columns[i]->type, x.bytes(), y.bytes());
      if (plan.sort_columns[i]->order == ClusteringOrder::kDesc) c = -c;
    }
    if (c != 0) return plan.reversed ? -c : c;
  }
  return 0;
}

// Rows in the order of the plan's ORDER BY, all of them: Cassandra
// refuses to page such queries, so they are bounded by the IN partitions.
Result<std::vector<ResultRow>> SelectExecution::SortedRows() {
  std::vector<ResultRow> rows;
  CASSETTE_RETURN_IF_ERROR(Stream(0, &rows));
  std::stable_sort(rows.begin(), rows.end(), [&](const ResultRow& a, const ResultRow& b) {
    return CompareForSort(plan_, a, b) < 0;
  });
  return rows;
}

Result<std::vector<std::vector<Value>>> SelectExecution::SortedSelection() {
  CASSETTE_ASSIGN_OR_RETURN(std::vector<ResultRow> rows, SortedRows());
  std::vector<std::vector<Value>> out;
  for (ResultRow& row : rows) {
    if (plan_.limit > 0 && static_cast<int64_t>(out.size()) >= plan_.limit) break;
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values, Select(row));
    out.push_back(std::move(values));
  }
  return out;
}

Status SelectExecution::Aggregate(GroupFolder* folder) {
  if (plan_.post_sort) {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<ResultRow> rows, SortedRows());
    for (const ResultRow& row : rows) {
      if (folder->done()) break;
      CASSETTE_RETURN_IF_ERROR(folder->Add(row));
    }
    return folder->Finish();
  }
  // One pass over each read, a row at a time (Database::ReadEach): what is
  // held is one row and the open group, whatever the rows aggregated.
  ResultRow row;
  bool stopped = false;
  for (size_t i = 0; i < reads_.size() && !folder->done(); ++i) {
    Result<ResultSet> read = context_.db->ReadEach(MakeQuery(i), [&](const RowView& view) {
      row.values.clear();
      for (const ValueView& value : view.values) row.values.push_back(value.ToValue());
      row.writetimes.assign(view.writetimes.begin(), view.writetimes.end());
      row.ttls.assign(view.ttls.begin(), view.ttls.end());
      row.elements.assign(view.elements.begin(), view.elements.end());
      if (!PassesFilters(row)) return Status::OK();
      CASSETTE_RETURN_IF_ERROR(CheckCancelled());
      CASSETTE_RETURN_IF_ERROR(folder->Add(row));
      if (!folder->done()) return Status::OK();
      // LIMIT reached: a status other than OK ends the read here.
      stopped = true;
      return Status::Busy("aggregation complete");
    });
    if (!read.ok()) {
      if (stopped) break;
      return read.status();
    }
    AddStats(read->stats, &stats_);
    warnings_.insert(warnings_.end(), read->warnings.begin(), read->warnings.end());
  }
  return folder->Finish();
}

// SELECT JSON's object for one row: keys are the column names, quoted
// (inside the JSON string) when they are not lower case.
std::string JsonRow(const std::vector<ColumnSpec>& columns, const std::vector<Value>& values) {
  std::string out = "{";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    std::string name = columns[i].name;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name != lower) name = "\"" + name + "\"";
    out += JsonQuote(name) + ": " + values[i].ToJson();
  }
  return out + "}";
}

Result<CqlResult> SelectExecution::Finish(std::vector<std::vector<Value>> rows,
                                          std::string paging_state) {
  CqlResult result;
  result.kind = CqlResult::Kind::kRows;
  result.paging_state = std::move(paging_state);
  result.stats = stats_;
  result.warnings = std::move(warnings_);
  if (plan_.json) {
    result.columns = {ColumnSpec{"[json]", DataType::Text()}};
    for (const std::vector<Value>& row : rows) {
      result.rows.push_back({Value::Text(JsonRow(plan_.columns, row))});
    }
    return result;
  }
  result.columns = plan_.columns;
  result.rows = std::move(rows);
  return result;
}

Result<CqlResult> SelectExecution::Run() {
  PlanReads();
  const int32_t page_size = context_.options != nullptr ? context_.options->page_size : 0;
  const std::string paging_state =
      context_.options != nullptr ? context_.options->paging_state : std::string();
  if (page_size > 0 && plan_.post_sort) {
    return Status::InvalidRequest(
        "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you "
        "must either remove the ORDER BY or the IN and sort client side, or disable paging for "
        "this query");
  }
  const bool materialized = plan_.Grouping() || plan_.post_sort;
  if (materialized) {
    // Paged by offset: a page is the groups (or sorted rows) after the
    // earlier pages', recomputed from the start, so only one page is held.
    uint64_t offset = 0;
    if (page_size > 0 && !paging_state.empty()) {
      CASSETTE_ASSIGN_OR_RETURN(SelectPagingState state, SelectPagingState::Decode(paging_state));
      if (state.kind != SelectPagingState::Kind::kOffset) return InvalidPagingState();
      offset = state.offset;
    }
    std::vector<std::vector<Value>> page;
    bool more = false;
    if (plan_.Grouping()) {
      // One group past the page tells whether another page follows.
      const uint64_t keep = page_size > 0 ? static_cast<uint64_t>(page_size) + 1 : 0;
      GroupFolder folder(&plan_, offset, keep);
      CASSETTE_RETURN_IF_ERROR(Aggregate(&folder));
      if (folder.groups_closed() < offset) return InvalidPagingState();
      page = std::move(folder.groups());
      if (keep > 0 && page.size() == keep) {
        page.pop_back();
        more = true;
      }
    } else {
      // Never paged: Run refuses a page size with ORDER BY across partitions.
      CASSETTE_ASSIGN_OR_RETURN(page, SortedSelection());
    }
    std::string next;
    if (more) {
      SelectPagingState state;
      state.kind = SelectPagingState::Kind::kOffset;
      state.offset = offset + page.size();
      next = state.Encode();
    }
    return Finish(std::move(page), std::move(next));
  }

  if (page_size > 0 && !paging_state.empty()) {
    CASSETTE_ASSIGN_OR_RETURN(cursor_, SelectPagingState::Decode(paging_state));
    if (cursor_.kind != SelectPagingState::Kind::kCursor || cursor_.read_index > reads_.size()) {
      return InvalidPagingState();
    }
  }
  std::vector<ResultRow> rows;
  CASSETTE_RETURN_IF_ERROR(Stream(page_size > 0 ? page_size : 0, &rows));
  std::vector<std::vector<Value>> out;
  out.reserve(rows.size());
  for (ResultRow& row : rows) {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values, Select(row));
    out.push_back(std::move(values));
  }
  std::string next;
  if (page_size > 0 && !limit_reached_ && cursor_.read_index < reads_.size()) {
    cursor_.kind = SelectPagingState::Kind::kCursor;
    next = cursor_.Encode();
  }
  return Finish(std::move(out), std::move(next));
}

}  // namespace

Result<CqlResult> ExecuteSelect(const SelectStatement& statement, const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(statement.table, context));
  CASSETTE_ASSIGN_OR_RETURN(TableSchema schema,
                            context.db->GetTable(keyspace, statement.table.name));
  CASSETTE_ASSIGN_OR_RETURN(SelectPlan plan, PlanSelect(statement, std::move(schema), context));
  SelectExecution execution(std::move(plan), context, keyspace);
  return execution.Run();
}

}  // namespace cassette::cql
