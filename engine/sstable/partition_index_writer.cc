#include "engine/sstable/partition_index_writer.h"

namespace cassette {

Status PartitionIndexWriter::Add(const PartitionIndexEntry& entry) {
  if (block_.empty()) block_first_key_.assign(entry.sort_key);
  EncodePartitionIndexEntry(entry, &block_);
  if (block_.size() >= kIndexBlockBytes) return FlushBlock();
  return Status::OK();
}

Status PartitionIndexWriter::FlushBlock() {
  AppendBlockTrailer(block_, BlockType::kRaw, &block_);
  CASSETTE_ASSIGN_OR_RETURN(BlockHandle h, out_->Append(block_));
  summary_bytes_ += block_first_key_.size() + 16;
  summary_.push_back({std::move(block_first_key_), h});
  block_first_key_.clear();
  block_.clear();
  return Status::OK();
}

Result<IndexSummary> PartitionIndexWriter::Finish() {
  if (!block_.empty()) CASSETTE_RETURN_IF_ERROR(FlushBlock());
  return IndexSummary(std::move(summary_));
}

}  // namespace cassette
