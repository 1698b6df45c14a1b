#include "engine/read/execute_read.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>

#include "engine/mutation/expiry.h"
#include "engine/mutation/merging_partition_iterator.h"
#include "engine/read/column_filter.h"
#include "engine/read/live_view.h"
#include "engine/read/paging_state.h"
#include "engine/read/range_tombstone_tracker.h"
#include "engine/read/result_row_builder.h"
#include "engine/read/tombstone_guard.h"

namespace cassette {
namespace {

Status InvalidPagingState() { return Status::InvalidRequest("Invalid value for the paging state"); }

// One execution of a command: the state a read carries from partition to
// partition (counters, limits, where the page stopped).
class ReadExecution {
 public:
  // `visit` null: the rows are collected in the result.
  ReadExecution(const ReadCommand& cmd, ReadSource* source, const RowVisitor* visit)
      : cmd_(cmd),
        schema_(*cmd.schema),
        source_(source),
        visit_(visit),
        columns_(schema_),
        builder_(schema_, SelectedColumns(cmd), cmd.with_cell_metadata, cmd.now_sec),
        guard_(cmd.tombstone_warn_threshold, cmd.tombstone_failure_threshold),
        gc_before_(GcBefore(cmd.now_sec, schema_.options().gc_grace_seconds)) {}

  Result<ResultSet> Run();

 private:
  // Each returns true when the read must stop (limit reached, page full).
  Result<bool> ReadKeys();
  Result<bool> ScanRange();
  Result<bool> ReadOnePartition(const DecoratedKey& key, uint64_t key_index,
                                const PagingState* resume);
  // A result row: a live row, a plain row read in place (with its
  // clustering), or neither (the key and statics alone).
  struct EmittedRow {
    const Row* row = nullptr;
    const PlainRowView* plain = nullptr;
    const std::string* clustering = nullptr;
    bool selected = false;  // the builder selected it (SelectPlainBody)
  };
  // Appends a result row and records where the read stands.
  Result<bool> Emit(const DecoratedKey& key, uint64_t key_index, const EmittedRow& emitted,
                    int64_t* rows_in_partition);
  // Reads the current row in place when it is a plain row that is its own
  // live view (under a live `covering`) made of columns the table has:
  // straight into the builder's selection (*emitted selected) when it
  // selects plain bodies, else into plain_. *emitted unchanged otherwise
  // (rows.row() then decodes the row).
  Status ReadLivePlainRow(const RowIterator& rows, const std::string& clustering,
                          EmittedRow* emitted);
  Status Abort(const DecoratedKey& key, const std::string* clustering) const {
    return guard_.Failure(DescribeReadCommand(cmd_), key.token,
                          builder_.DescribePosition(clustering));
  }
  bool LimitReached() const { return cmd_.limit > 0 && rows_total_ >= cmd_.limit; }
  bool PageFull() const { return cmd_.page_size > 0 && page_rows_ >= cmd_.page_size; }
  bool PartitionLimitReached(int64_t rows_in_partition) const {
    return cmd_.per_partition_limit > 0 && rows_in_partition >= cmd_.per_partition_limit;
  }

  const ReadCommand& cmd_;
  const TableSchema& schema_;
  ReadSource* source_;
  const RowVisitor* visit_;
  ColumnFilter columns_;
  ResultRowBuilder builder_;
  TombstoneGuard guard_;
  const int64_t gc_before_;

  ResultSet result_;
  std::optional<PagingState> resume_;
  int64_t rows_total_ = 0;  // including the rows of earlier pages
  int64_t page_rows_ = 0;
  // The position after the last row returned, recorded only by the Emit
  // that stops the read: the only one a paging state is made from.
  PagingState last_;
  Row scratch_;         // a row being rewritten to its live view
  PlainRowView plain_;  // the plain row read in place, if any
  std::optional<int64_t> last_token_;
};

Status Validate(const ReadCommand& cmd) {
  if (cmd.schema == nullptr) return Status::InvalidArgument("read command without a schema");
  for (size_t index : cmd.selection) {
    if (index >= cmd.schema->columns().size()) {
      return Status::InvalidArgument("selected column " + std::to_string(index) +
                                     " is not a column of " + cmd.schema->keyspace() + "." +
                                     cmd.schema->name());
    }
  }
  if (cmd.limit < 0 || cmd.per_partition_limit < 0 || cmd.page_size < 0) {
    return Status::InvalidArgument("limits and page size must not be negative");
  }
  return Status::OK();
}

Result<ResultSet> ReadExecution::Run() {
  result_.columns = builder_.Columns();
  // A limit or page size bounds the rows: reserving them up front (within
  // reason) spares regrowing the result, which moves every row so far.
  int64_t bound = 0;
  for (int64_t b : {int64_t{cmd_.limit}, int64_t{cmd_.page_size}}) {
    if (b > 0 && (bound == 0 || b < bound)) bound = b;
  }
  if (bound > 0 && visit_ == nullptr)
    result_.rows.reserve(static_cast<size_t>(std::min<int64_t>(bound, 1024)));
  if (!cmd_.paging_state.empty()) {
    CASSETTE_ASSIGN_OR_RETURN(resume_, PagingState::Decode(cmd_.paging_state));
    rows_total_ = resume_->rows_returned;
  }
  bool stopped = false;
  // A contradictory slice (c > 5 AND c < 3) selects nothing, not even the
  // static row of a partition.
  bool nothing_selected = cmd_.restricts_rows && !cmd_.distinct && cmd_.range.IsEmpty();
  if (!LimitReached() && !nothing_selected) {
    if (!cmd_.keys.empty()) {
      CASSETTE_ASSIGN_OR_RETURN(stopped, ReadKeys());
    } else {
      CASSETTE_ASSIGN_OR_RETURN(stopped, ScanRange());
    }
  }
  if (stopped && PageFull() && !LimitReached()) result_.paging_state = last_.Encode();
  if (guard_.ShouldWarn() && last_token_) {
    result_.warnings.push_back(
        guard_.Warning(result_.stats.live_rows, DescribeReadCommand(cmd_), *last_token_));
  }
  result_.stats.tombstone_cells = guard_.count();
  return std::move(result_);
}

Result<bool> ReadExecution::ReadKeys() {
  size_t first = 0;
  if (resume_) {
    if (resume_->key_index >= cmd_.keys.size() ||
        !(cmd_.keys[resume_->key_index] == resume_->partition)) {
      return InvalidPagingState();
    }
    first = resume_->key_index;
  }
  for (size_t i = first; i < cmd_.keys.size(); ++i) {
    const PagingState* resume = resume_ && i == first ? &*resume_ : nullptr;
    CASSETTE_ASSIGN_OR_RETURN(bool stop, ReadOnePartition(cmd_.keys[i], i, resume));
    if (stop) return true;
  }
  return false;
}

Result<bool> ReadExecution::ScanRange() {
  const TokenRange range = cmd_.token_range.value_or(TokenRange{});
  std::optional<TokenInterval> tokens =
      TokenInterval::Of(range.start, range.start_inclusive, range.end, range.end_inclusive);
  if (resume_) {
    if (!tokens || !tokens->Contains(resume_->partition.token)) return InvalidPagingState();
    tokens->first = resume_->partition.token;
  }
  if (!tokens) return false;
  CASSETTE_ASSIGN_OR_RETURN(std::vector<std::unique_ptr<PartitionIterator>> scanners,
                            source_->ScanPartitions(*tokens, &result_.stats));
  MergingPartitionIterator partitions(std::move(scanners));
  for (; partitions.Valid(); partitions.Next()) {
    const DecoratedKey& key = partitions.key();
    if (!tokens->Contains(key.token)) continue;
    const PagingState* resume = nullptr;
    if (resume_) {
      if (key < resume_->partition) continue;
      if (key == resume_->partition) resume = &*resume_;
    }
    CASSETTE_ASSIGN_OR_RETURN(bool stop, ReadOnePartition(key, 0, resume));
    if (stop) return true;
  }
  CASSETTE_RETURN_IF_ERROR(partitions.status());
  return false;
}

Result<bool> ReadExecution::ReadOnePartition(const DecoratedKey& key, uint64_t key_index,
                                             const PagingState* resume) {
  ClusteringRange range = cmd_.range;
  int64_t rows_in_partition = 0;
  if (resume != nullptr) {
    if (resume->partition_done) return false;
    rows_in_partition = resume->rows_in_partition;
    if (resume->last_clustering) {
      // Continue strictly after the last row returned, in read order.
      Bound after{*resume->last_clustering, /*inclusive=*/false};
      (cmd_.reversed ? range.end : range.start) = std::move(after);
    }
  }
  if (PartitionLimitReached(rows_in_partition)) return false;

  CASSETTE_ASSIGN_OR_RETURN(std::vector<PartitionContent> contents,
                            source_->ReadPartition(key, range, cmd_.reversed, &result_.stats));
  if (contents.empty()) return false;
  ++result_.stats.partitions_read;
  last_token_ = key.token;
  CASSETTE_RETURN_IF_ERROR(builder_.StartPartition(key));
  PartitionContent partition = MergePartitionContents(std::move(contents), cmd_.reversed);
  const DeletionTime& partition_deletion = partition.partition_deletion;

  Row statics = std::move(partition.static_row);
  columns_.Apply(&statics);
  bool static_live = false;
  if (!statics.IsEmpty()) {
    RowLiveness liveness = ApplyLiveView(partition_deletion, cmd_.now_sec, gc_before_, &statics);
    if (liveness.live) {
      static_live = true;
      ++result_.stats.live_rows;
    }
    if (!guard_.Add(liveness.tombstones)) return Abort(key, nullptr);
  }
  builder_.SetStatics(std::move(statics));

  RangeTombstoneTracker tombstones(partition_deletion, partition.range_tombstones, range,
                                   cmd_.reversed, gc_before_);
  // Most partitions have no range tombstone: their rows skip the tracker.
  const bool range_tombstones = !tombstones.segments().empty() || !tombstones.markers().empty();
  RowIterator& rows = *partition.rows;
  bool found_live_row = false;
  bool stopped_early = false;
  // DISTINCT only needs to know whether some row is live.
  if (!(cmd_.distinct && static_live)) {
    const bool plain_rows = builder_.TakesPlainRows();
    for (; rows.Valid(); rows.Next()) {
      const std::string& clustering = rows.clustering();
      // Sources return only the rows of the range (ReadSource's contract).
      assert(range.Contains(clustering));
      DeletionTime covering = partition_deletion;
      if (range_tombstones) {
        if (!guard_.Add(tombstones.MarkersBefore(clustering))) return Abort(key, &clustering);
        covering = tombstones.Covering(clustering);
        if (partition_deletion.Supersedes(covering)) covering = partition_deletion;
      }
      EmittedRow emitted;
      // The commonest row, read in place: no Row is built, and its values
      // go to the result straight from the source's buffer.
      if (plain_rows && covering.IsLive()) {
        CASSETTE_RETURN_IF_ERROR(ReadLivePlainRow(rows, clustering, &emitted));
      }
      if (emitted.clustering == nullptr) {
        const Row& merged = rows.row();
        // Most rows already are their live view: they are used in place.
        // The others are rewritten in scratch_, whose buffers the copy
        // reuses.
        const Row* row = &merged;
        RowLiveness liveness;
        if (columns_.KeepsAll(merged) && IsOwnLiveView(covering, cmd_.now_sec, merged)) {
          liveness.live = !merged.IsEmpty();
        } else {
          scratch_ = merged;
          columns_.Apply(&scratch_);
          liveness = ApplyLiveView(covering, cmd_.now_sec, gc_before_, &scratch_);
          row = &scratch_;
        }
        if (!guard_.Add(liveness.tombstones)) return Abort(key, &row->clustering);
        if (!liveness.live) continue;
        emitted = {row, nullptr, &row->clustering};
      }
      ++result_.stats.live_rows;
      found_live_row = true;
      if (cmd_.distinct) {
        stopped_early = true;
        break;
      }
      CASSETTE_ASSIGN_OR_RETURN(bool stop, Emit(key, key_index, emitted, &rows_in_partition));
      if (stop) return true;
      if (PartitionLimitReached(rows_in_partition)) {
        stopped_early = true;
        break;
      }
    }
    if (!stopped_early) {
      CASSETTE_RETURN_IF_ERROR(rows.status());
      if (!guard_.Add(tombstones.RemainingMarkers())) return Abort(key, nullptr);
    }
  }

  // A row made of the key and statics alone: DISTINCT's one row, or the row
  // of a partition whose only live data is static (when nothing restricts
  // the rows).
  bool key_only_row = cmd_.distinct
                          ? (static_live || found_live_row)
                          : (rows_in_partition == 0 && static_live && !cmd_.restricts_rows);
  if (key_only_row) return Emit(key, key_index, {}, &rows_in_partition);
  return false;
}

Status ReadExecution::ReadLivePlainRow(const RowIterator& rows, const std::string& clustering,
                                       EmittedRow* emitted) {
  std::string_view body;
  const EncodingStats* bases = nullptr;
  if (!rows.EncodedBody(&body, &bases)) return Status::OK();
  if (builder_.SelectsPlainBodies()) {
    bool selected = false;
    CASSETTE_RETURN_IF_ERROR(
        builder_.SelectPlainBody(clustering, body, *bases, columns_, &selected));
    if (selected) *emitted = {nullptr, nullptr, &clustering, true};
    return Status::OK();
  }
  if (!ReadPlainRow(body, *bases, &plain_) || !plain_.LiveAt(cmd_.now_sec)) return Status::OK();
  for (const PlainRowView::Column& column : plain_.columns) {
    if (!columns_.Keeps(column.id)) return Status::OK();
  }
  *emitted = {nullptr, &plain_, &clustering};
  return Status::OK();
}

Result<bool> ReadExecution::Emit(const DecoratedKey& key, uint64_t key_index,
                                 const EmittedRow& emitted, int64_t* rows_in_partition) {
  if (visit_ != nullptr) {
    RowView view;
    if (emitted.selected) {
      view = builder_.SelectedView();
    } else {
      CASSETTE_RETURN_IF_ERROR(emitted.plain != nullptr
                                   ? builder_.BuildView(*emitted.clustering, *emitted.plain, &view)
                                   : builder_.BuildView(emitted.row, &view));
    }
    CASSETTE_RETURN_IF_ERROR((*visit_)(view));
  } else if (emitted.selected) {
    builder_.BuildSelected(&result_.rows.emplace_back());
  } else {
    ResultRow& row = result_.rows.emplace_back();
    Status s = emitted.plain != nullptr ? builder_.Build(*emitted.clustering, *emitted.plain, &row)
                                        : builder_.Build(emitted.row, &row);
    if (!s.ok()) {
      result_.rows.pop_back();
      return s;
    }
  }
  ++rows_total_;
  ++page_rows_;
  ++*rows_in_partition;
  if (!LimitReached() && !PageFull()) return false;
  last_.key_index = key_index;
  last_.partition = key;
  last_.rows_returned = rows_total_;
  last_.rows_in_partition = *rows_in_partition;
  if (emitted.clustering != nullptr) {
    last_.last_clustering = *emitted.clustering;
    last_.partition_done = PartitionLimitReached(*rows_in_partition);
  } else {
    last_.last_clustering.reset();
    last_.partition_done = true;
  }
  return true;
}

}  // namespace

Result<ResultSet> ExecuteRead(const ReadCommand& cmd, ReadSource* source) {
  CASSETTE_RETURN_IF_ERROR(Validate(cmd));
  ReadExecution execution(cmd, source, nullptr);
  return execution.Run();
}

Result<ResultSet> ExecuteRead(const ReadCommand& cmd, ReadSource* source, const RowVisitor& visit) {
  CASSETTE_RETURN_IF_ERROR(Validate(cmd));
  ReadExecution execution(cmd, source, &visit);
  return execution.Run();
}

}  // namespace cassette
