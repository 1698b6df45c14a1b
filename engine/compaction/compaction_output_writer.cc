#include "engine/compaction/compaction_output_writer.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

#include "engine/sstable/sstable_writer.h"

namespace cassette {
namespace {

// Rows between two rate-limiter requests inside one partition, so a huge
// partition is throttled as it is written rather than all at its end.
constexpr uint64_t kRowsPerRateRequest = 1024;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The newest write timestamp in a row: what decides its time window.
int64_t NewestTimestamp(const Row& row) {
  int64_t newest = std::numeric_limits<int64_t>::min();
  if (!row.marker.IsEmpty()) newest = std::max(newest, row.marker.timestamp);
  if (!row.deletion.IsLive()) newest = std::max(newest, row.deletion.marked_for_delete_at);
  for (const ColumnData& col : row.columns) {
    if (!col.complex_deletion.IsLive()) {
      newest = std::max(newest, col.complex_deletion.marked_for_delete_at);
    }
    for (const Cell& cell : col.cells) newest = std::max(newest, cell.timestamp);
  }
  return newest;
}

// What one output receives of one partition besides rows.
struct HeaderPart {
  DeletionTime partition_deletion;
  Row static_row;
  std::vector<RangeTombstone> range_tombstones;
  bool begun = false;  // BeginPartition done on that output
};

// The state of one Write call: the open outputs (one per window; a single
// one when not splitting by window) and those already finished.
class OutputSet {
 public:
  explicit OutputSet(const CompactionOutputOptions& options) : options_(options) {
    per_output_options_ = options_.writer_options;
    uint64_t expected = std::max<uint64_t>(1, per_output_options_.expected_partitions);
    const uint64_t max_bytes = options_.shape.max_output_bytes;
    if (max_bytes > 0 && options_.input_bytes > max_bytes) {
      // Each output gets its share of the partitions, with headroom for
      // skew; never more than the whole.
      const double share =
          static_cast<double>(max_bytes) / static_cast<double>(options_.input_bytes);
      const double scaled = static_cast<double>(expected) * share * 1.25 + 16;
      expected = std::min<uint64_t>(expected, static_cast<uint64_t>(scaled));
    }
    per_output_options_.expected_partitions = expected;
  }
  ~OutputSet() { AbandonAll(); }

  int64_t WindowOf(int64_t timestamp) const {
    const int64_t width = options_.shape.split_window_micros;
    return width > 0 ? FloorDiv(timestamp, width) : 0;
  }

  // Closes every open output (a shard boundary).
  Status FinishAll() {
    while (!open_.empty()) CASSETTE_RETURN_IF_ERROR(FinishOutput(open_.begin()));
    return Status::OK();
  }

  Status WritePartition(PartitionContent& partition);

  Result<CompactionOutputResult> Finish() {
    CASSETTE_RETURN_IF_ERROR(FinishAll());
    CompactionOutputResult result;
    result.outputs = std::move(finished_);
    finished_.clear();
    std::sort(result.outputs.begin(), result.outputs.end(),
              [](const CompactionOutput& a, const CompactionOutput& b) {
                return a.generation < b.generation;
              });
    for (const CompactionOutput& out : result.outputs) result.bytes_written += out.file_size;
    return result;
  }

  // Deletes every output, finished or not.
  void AbandonAll() {
    for (auto& [window, out] : open_) out.writer->Abandon();
    open_.clear();
    for (const CompactionOutput& out : finished_) {
      options_.fs->DeleteFile(out.path).IgnoreError();  // best effort: an orphan is garbage
    }
    finished_.clear();
  }

 private:
  struct OpenOutput {
    uint64_t generation = 0;
    std::string path;
    std::unique_ptr<SSTableWriter> writer;
    uint64_t reported_bytes = 0;  // already requested from the rate limiter
  };
  using OpenMap = std::map<int64_t, OpenOutput>;

  Result<OpenOutput*> OutputFor(int64_t window) {
    auto it = open_.find(window);
    if (it != open_.end()) return &it->second;
    CASSETTE_ASSIGN_OR_RETURN(auto allocated, options_.new_output());
    OpenOutput out;
    out.generation = allocated.first;
    out.path = std::move(allocated.second);
    CASSETTE_ASSIGN_OR_RETURN(out.writer,
                              SSTableWriter::Create(options_.fs, out.path, per_output_options_));
    return &open_.emplace(window, std::move(out)).first->second;
  }

  void RequestGrowth(OpenOutput* out, uint64_t size) {
    if (size <= out->reported_bytes) return;
    if (options_.rate_limiter != nullptr)
      options_.rate_limiter->Request(size - out->reported_bytes);
    out->reported_bytes = size;
  }

  Status FinishOutput(OpenMap::iterator it) {
    OpenOutput& out = it->second;
    Result<SSTableStats> stats = out.writer->Finish();
    if (!stats.ok()) return stats.status();  // AbandonAll deletes the partial file
    Result<uint64_t> size = options_.fs->GetFileSize(out.path);
    if (!size.ok()) {
      options_.fs->DeleteFile(out.path).IgnoreError();  // best effort; the error is returned
      open_.erase(it);
      return size.status();
    }
    RequestGrowth(&out, *size);
    finished_.push_back({out.generation, out.path, std::move(stats).value(), *size});
    open_.erase(it);
    return Status::OK();
  }

  Status Begin(int64_t window, const DecoratedKey& key, HeaderPart* part) {
    CASSETTE_ASSIGN_OR_RETURN(OpenOutput * out, OutputFor(window));
    part->begun = true;
    return out->writer->BeginPartition(key, part->partition_deletion, part->static_row,
                                       part->range_tombstones);
  }

  const CompactionOutputOptions& options_;
  SSTableWriterOptions per_output_options_;
  OpenMap open_;
  std::vector<CompactionOutput> finished_;
};

Status OutputSet::WritePartition(PartitionContent& partition) {
  // Split the partition's header by window (all in window 0 when not
  // splitting); an output gets a header part only when it receives
  // something of the partition.
  std::map<int64_t, HeaderPart> parts;
  if (!partition.partition_deletion.IsLive()) {
    parts[WindowOf(partition.partition_deletion.marked_for_delete_at)].partition_deletion =
        partition.partition_deletion;
  }
  if (!partition.static_row.IsEmpty()) {
    parts[WindowOf(NewestTimestamp(partition.static_row))].static_row =
        std::move(partition.static_row);
  }
  for (RangeTombstone& rt : partition.range_tombstones) {
    parts[WindowOf(rt.deletion.marked_for_delete_at)].range_tombstones.push_back(std::move(rt));
  }

  uint64_t rows_since_request = 0;
  if (partition.rows != nullptr) {
    const bool split = options_.shape.split_window_micros > 0;
    // The output of the previous row: consecutive rows of a partition
    // usually share a window (always, when not splitting), and map nodes
    // do not move, so the lookups are skipped for them.
    int64_t last_window = 0;
    OpenOutput* out = nullptr;
    RowIterator& rows = *partition.rows;
    for (; rows.Valid(); rows.Next()) {
      // A row passing through unchanged and still encoded is copied as it
      // is stored (its newest timestamp is in its scan); any other is
      // encoded from the decoded row.
      const EncodedRow* encoded = rows.encoded();
      const Row* row = nullptr;
      int64_t newest;
      if (encoded != nullptr) {
        newest = encoded->scan.max_timestamp;
      } else {
        row = &rows.row();
        if (row->IsEmpty()) continue;
        newest = split ? NewestTimestamp(*row) : 0;
      }
      const int64_t window = split ? WindowOf(newest) : 0;
      if (out == nullptr || window != last_window) {
        HeaderPart& part = parts[window];
        if (!part.begun) CASSETTE_RETURN_IF_ERROR(Begin(window, partition.key, &part));
        out = &open_.at(window);
        last_window = window;
      }
      CASSETTE_RETURN_IF_ERROR(row != nullptr
                                   ? out->writer->AddRow(*row)
                                   : out->writer->AddEncodedRow(rows.clustering(), *encoded));
      if (++rows_since_request == kRowsPerRateRequest) {
        rows_since_request = 0;
        RequestGrowth(out, out->writer->EstimatedFileSize());
      }
    }
    CASSETTE_RETURN_IF_ERROR(rows.status());
  }

  for (auto& [window, part] : parts) {
    if (!part.begun) CASSETTE_RETURN_IF_ERROR(Begin(window, partition.key, &part));
    auto it = open_.find(window);
    OpenOutput& out = it->second;
    CASSETTE_RETURN_IF_ERROR(out.writer->EndPartition());
    const uint64_t size = out.writer->EstimatedFileSize();
    RequestGrowth(&out, size);
    const uint64_t max_bytes = options_.shape.max_output_bytes;
    if (max_bytes > 0 && size >= max_bytes) CASSETTE_RETURN_IF_ERROR(FinishOutput(it));
  }
  return Status::OK();
}

}  // namespace

CompactionOutputWriter::CompactionOutputWriter(CompactionOutputOptions options)
    : options_(std::move(options)) {}

Result<CompactionOutputResult> CompactionOutputWriter::Write(PartitionIterator* input) {
  if (options_.fs == nullptr || !options_.new_output) {
    return Status::InvalidArgument("compaction output writer: no file system or path allocator");
  }
  if (options_.shape.split_window_micros < 0) {
    return Status::InvalidArgument("compaction output writer: negative split_window_micros");
  }
  const std::vector<int64_t>& boundaries = options_.shape.shard_boundaries;
  if (!std::is_sorted(boundaries.begin(), boundaries.end())) {
    return Status::InvalidArgument("compaction output writer: shard boundaries are not ascending");
  }
  OutputSet outputs(options_);  // abandons everything unless Finish succeeds
  size_t next_boundary = 0;
  for (; input->Valid(); input->Next()) {
    PartitionContent& partition = input->partition();
    if (next_boundary < boundaries.size() && partition.key.token >= boundaries[next_boundary]) {
      CASSETTE_RETURN_IF_ERROR(outputs.FinishAll());
      while (next_boundary < boundaries.size() &&
             partition.key.token >= boundaries[next_boundary]) {
        ++next_boundary;
      }
    }
    CASSETTE_RETURN_IF_ERROR(outputs.WritePartition(partition));
  }
  CASSETTE_RETURN_IF_ERROR(input->status());
  return outputs.Finish();
}

SSTableWriterOptions CompactionWriterOptions(SSTableWriterOptions table_options,
                                             const std::vector<const SSTableStats*>& inputs,
                                             int64_t now_micros) {
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  uint64_t partitions = 0;
  int64_t min_ts = kNone;
  int64_t min_ldt = kNone;
  int32_t min_ttl = std::numeric_limits<int32_t>::max();
  for (const SSTableStats* s : inputs) {
    if (s == nullptr) continue;
    partitions += s->partition_count;
    min_ts = std::min(min_ts, s->min_timestamp);
    min_ldt = std::min(min_ldt, s->min_local_deletion_time);
    if (s->max_ttl > 0) {
      // min_ttl counts non-expiring cells as 0; the encoding base the
      // input was written with is then the better guess of the least TTL.
      min_ttl = std::min(min_ttl, s->min_ttl > 0 ? s->min_ttl : s->encoding_stats.min_ttl);
    }
  }
  table_options.expected_partitions = std::max<uint64_t>(1, partitions);
  table_options.creation_time_micros = now_micros;
  // Bases only need to be near the data (deltas are zigzag varints): an
  // expired cell rewritten as a tombstone may dip below min_ldt.
  table_options.encoding_stats.min_timestamp = min_ts == kNone ? 0 : min_ts;
  table_options.encoding_stats.min_local_deletion_time = min_ldt == kNone ? 0 : min_ldt;
  table_options.encoding_stats.min_ttl =
      min_ttl == std::numeric_limits<int32_t>::max() ? 0 : min_ttl;
  return table_options;
}

}  // namespace cassette
