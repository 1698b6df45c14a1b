#include "engine/sstable/sstable_writer.h"

#include <algorithm>
#include <cstring>

#include "engine/sstable/partition_codec.h"
#include "engine/util/checksum.h"

namespace cassette {

Result<std::unique_ptr<SSTableWriter>> SSTableWriter::Create(FileSystem* fs, std::string path,
                                                             SSTableWriterOptions options) {
  CASSETTE_RETURN_IF_ERROR(options.Validate());
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(path));
  return std::unique_ptr<SSTableWriter>(
      new SSTableWriter(fs, std::move(path), std::move(options), std::move(file)));
}

SSTableWriter::SSTableWriter(FileSystem* fs, std::string path, SSTableWriterOptions options,
                             std::unique_ptr<WritableFile> file)
    : fs_(fs),
      path_(std::move(path)),
      options_(std::move(options)),
      file_(std::move(file)),
      appender_(file_.get()),
      data_(&appender_, options_.chunk_length, options_.compress, options_.compression_level),
      index_(&appender_),
      bloom_(BloomFilter::ForKeys(options_.expected_partitions, options_.bloom_fp_chance)) {}

SSTableWriter::~SSTableWriter() {
  if (!finished_) Abandon();
}

Status SSTableWriter::Fail(Status s) {
  if (error_.ok()) error_ = s;
  return s;
}

Status SSTableWriter::CheckUsable() const {
  if (!error_.ok()) return error_;
  if (finished_ || abandoned_) {
    return Status::InvalidArgument("sstable writer for " + path_ + " is already closed");
  }
  return Status::OK();
}

Status SSTableWriter::BeginPartition(const DecoratedKey& key,
                                     const DeletionTime& partition_deletion, const Row& static_row,
                                     const std::vector<RangeTombstone>& range_tombstones) {
  CASSETTE_RETURN_IF_ERROR(CheckUsable());
  if (in_partition_) {
    return Status::InvalidArgument("sstable " + path_ + ": BeginPartition inside a partition");
  }
  if (has_last_key_ && !(last_key_ < key)) {
    return Status::InvalidArgument(
        "sstable " + path_ + ": partition (token " + std::to_string(key.token) +
        ") is not after the previous one (token " + std::to_string(last_key_.token) + ")");
  }
  std::string sort_key = key.SortKey();
  in_partition_ = true;
  has_last_key_ = true;
  last_key_ = key;
  last_sort_key_ = std::move(sort_key);
  partition_start_ = data_.position();
  partition_has_rows_ = false;
  scratch_.clear();
  EncodePartitionHeader(key, partition_deletion, static_row, range_tombstones,
                        options_.encoding_stats, &scratch_);
  if (Status s = data_.Append(scratch_); !s.ok()) return Fail(s);
  bloom_.Add(key.key);
  collector_.BeginPartition(key, partition_deletion, static_row, range_tombstones);
  block_start_ = data_.position();
  block_has_rows_ = false;
  row_blocks_.clear();
  return Status::OK();
}

Status SSTableWriter::CloseRowBlock() {
  if (!block_has_rows_) return Status::OK();
  std::string length;  // at most 10 bytes: no allocation
  PutVarint64(&length, timestamp_steps_.size());
  Status s = data_.Append(length);
  if (s.ok()) s = data_.Append(timestamp_steps_);
  if (s.ok()) s = data_.Append(std::string_view(block_rows_.data(), block_rows_used_));
  if (!s.ok()) return Fail(s);
  timestamp_steps_.clear();
  block_rows_used_ = 0;
  row_blocks_.push_back({std::move(block_first_), prev_clustering_, block_start_ - partition_start_,
                         data_.position() - block_start_});
  block_first_.clear();
  block_start_ = data_.position();
  block_has_rows_ = false;
  return Status::OK();
}

Status SSTableWriter::BeforeRow(const std::string& clustering) {
  CASSETTE_RETURN_IF_ERROR(CheckUsable());
  if (!in_partition_) {
    return Status::InvalidArgument("sstable " + path_ + ": AddRow outside a partition");
  }
  if (partition_has_rows_ && !(prev_clustering_ < clustering)) {
    return Status::InvalidArgument("sstable " + path_ +
                                   ": row clustering is not after the previous row's");
  }
  if (block_has_rows_ &&
      timestamp_steps_.size() + block_rows_used_ >= options_.row_index_interval) {
    CASSETTE_RETURN_IF_ERROR(CloseRowBlock());
  }
  return Status::OK();
}

void SSTableWriter::AfterRow(const std::string& clustering, const EncodingStats& bases,
                             size_t length) {
  block_rows_used_ += length;
  prev_bases_ = bases;
  if (!block_has_rows_) block_first_ = clustering;
  block_has_rows_ = true;
  partition_has_rows_ = true;
  prev_clustering_ = clustering;
}

Status SSTableWriter::AddRow(const Row& row) {
  CASSETTE_RETURN_IF_ERROR(BeforeRow(row.clustering));
  // Encoded straight into the block's buffer.
  const EncodingStats& prev_bases = PreviousBases();
  const EncodingStats bases = RowEncodingBases(row, prev_bases);
  char* start = ReserveRow(MaxRowEntrySize(row));
  char* end =
      EncodeRowEntryTo(PreviousClustering(), prev_bases, row, bases, start, &timestamp_steps_);
  AfterRow(row.clustering, bases, static_cast<size_t>(end - start));
  collector_.AddRow(row);
  return Status::OK();
}

Status SSTableWriter::AddEncodedRow(const std::string& clustering, const EncodedRow& row) {
  CASSETTE_RETURN_IF_ERROR(BeforeRow(clustering));
  // The body's exact size goes in the entry head: the body is then copied
  // (same bases: a row read from a version-2 file always has them) or
  // re-based straight into place.
  const EncodingStats& prev_bases = PreviousBases();
  const EncodingStats bases = RowEncodingBases(row.scan, prev_bases);
  const bool same_bases = row.encoding == bases;
  const size_t body_size =
      same_bases ? row.body.size() : RebasedRowBodySize(row.body, row.scan, bases);
  char* start = ReserveRow(MaxRowEntryHeadSize(clustering) + body_size);
  char* body = EncodeRowEntryHead(PreviousClustering(), clustering, prev_bases, bases, body_size,
                                  start, &timestamp_steps_);
  char* end;
  if (same_bases) {
    std::memcpy(body, row.body.data(), row.body.size());
    end = body + row.body.size();
  } else {
    end = RebaseRowBody(row.body, row.scan, bases, body);
  }
  end = FinishRowEntry(body, body_size, end);
  AfterRow(clustering, bases, static_cast<size_t>(end - start));
  if (!row.scan.mixed_drop_times) {
    collector_.AddScannedRow(clustering, row.scan);
    return Status::OK();
  }
  // The drop-time histogram takes the row's deletion times one by one.
  std::string_view in = row.body;
  decoded_.clustering = clustering;
  if (Status s = DecodeRowBody(&in, row.encoding, &decoded_); !s.ok()) return Fail(s);
  collector_.AddRow(decoded_);
  return Status::OK();
}

Result<BlockHandle> SSTableWriter::WriteRawBlock(std::string_view payload) {
  node_scratch_.assign(payload);
  AppendBlockTrailer(payload, BlockType::kRaw, &node_scratch_);
  return appender_.Append(node_scratch_);
}

Status SSTableWriter::EndPartition() {
  CASSETTE_RETURN_IF_ERROR(CheckUsable());
  if (!in_partition_) {
    return Status::InvalidArgument("sstable " + path_ + ": EndPartition outside a partition");
  }
  CASSETTE_RETURN_IF_ERROR(CloseRowBlock());
  const char end = static_cast<char>(kEndOfPartition);
  if (Status s = data_.Append(std::string_view(&end, 1)); !s.ok()) return Fail(s);
  const uint64_t length = data_.position() - partition_start_;
  std::string row_index;
  if (row_blocks_.size() > 1) {
    auto built = BuildRowIndex(std::move(row_blocks_),
                               [this](std::string_view payload) { return WriteRawBlock(payload); });
    if (!built.ok()) return Fail(built.status());
    row_index = std::move(built).value();
  }
  row_blocks_.clear();
  PartitionIndexEntry entry{last_sort_key_, partition_start_, length, row_index};
  if (Status s = index_.Add(entry); !s.ok()) return Fail(s);
  collector_.EndPartition(length, prev_clustering_);
  in_partition_ = false;
  prev_clustering_.clear();
  return Status::OK();
}

Status SSTableWriter::Add(const PartitionUpdate& p) {
  CASSETTE_RETURN_IF_ERROR(
      BeginPartition(p.key, p.partition_deletion, p.static_row, p.range_tombstones));
  for (const Row& row : p.rows) CASSETTE_RETURN_IF_ERROR(AddRow(row));
  return EndPartition();
}

uint64_t SSTableWriter::EstimatedFileSize() const {
  const uint64_t written_raw = data_.position() - data_.buffered();
  const double ratio = written_raw == 0 ? 1.0
                                        : static_cast<double>(data_.stored_bytes()) /
                                              static_cast<double>(written_raw);
  return appender_.offset() + static_cast<uint64_t>(static_cast<double>(data_.buffered()) * ratio) +
         index_.buffered() + index_.summary_bytes() + bloom_.ByteSize() +
         data_.offsets().chunks.size() * 4 + kFooterSize + 512;
}

Status SSTableWriter::WriteSection(SectionType type, std::string_view bytes, size_t slot,
                                   Footer* footer) {
  CASSETTE_ASSIGN_OR_RETURN(BlockHandle h, appender_.Append(bytes));
  footer->sections[slot] = {type, Checksum32(bytes), h.offset, h.size};
  return Status::OK();
}

Result<SSTableStats> SSTableWriter::Finish() {
  CASSETTE_RETURN_IF_ERROR(CheckUsable());
  if (in_partition_) {
    return Status::InvalidArgument("sstable " + path_ + ": Finish inside a partition");
  }
  Status s = data_.Finish();
  Result<IndexSummary> summary = s.ok() ? index_.Finish() : Result<IndexSummary>(s);
  if (!summary.ok()) return Fail(summary.status());

  SSTableStats& stats = collector_.Finish();
  stats.uncompressed_size = data_.position();
  stats.compressed_size = data_.stored_bytes();
  stats.creation_time_micros = options_.creation_time_micros;
  stats.encoding_stats = options_.encoding_stats;
  stats.bloom_fp_chance = options_.bloom_fp_chance;
  stats.chunk_length = options_.chunk_length;
  stats.compression_level = options_.compress ? options_.compression_level : 0;

  Footer footer;
  std::string bytes;
  EncodeChunkOffsets(data_.offsets(), &bytes);
  s = WriteSection(SectionType::kChunkOffsets, bytes, 0, &footer);
  if (s.ok()) {
    bytes.clear();
    summary->EncodeTo(&bytes);
    s = WriteSection(SectionType::kIndexSummary, bytes, 1, &footer);
  }
  if (s.ok()) {
    bytes.clear();
    bloom_.EncodeTo(&bytes);
    s = WriteSection(SectionType::kBloomFilter, bytes, 2, &footer);
  }
  if (s.ok()) {
    bytes.clear();
    EncodeSSTableStats(stats, &bytes);
    s = WriteSection(SectionType::kStatistics, bytes, 3, &footer);
  }
  if (s.ok()) {
    bytes.clear();
    EncodeFooter(footer, &bytes);
    s = appender_.Append(bytes).status();
  }
  if (s.ok()) s = file_->Sync();
  if (s.ok()) s = file_->Close();
  if (!s.ok()) return Fail(s);
  finished_ = true;
  file_.reset();
  return stats;
}

void SSTableWriter::Abandon() {
  if (finished_ || abandoned_) return;
  abandoned_ = true;
  if (file_ != nullptr) {
    file_->Close().IgnoreError();  // the file is deleted next; its state no longer matters
    file_.reset();
  }
  fs_->DeleteFile(path_).IgnoreError();  // best effort: a leftover partial file is garbage
}

}  // namespace cassette
