#include "engine/sstable/data_cursor.h"

#include <algorithm>

namespace cassette {

DataCursor::DataCursor(const BlockFetcher* fetcher, ReadStats* stats)
    : fetcher_(fetcher), stats_(stats) {}

Result<const std::string*> DataCursor::ChunkAt(uint64_t pos, uint64_t* offset) {
  if (pos >= fetcher_->data_size()) {
    return fetcher_->DataCorruption(pos, "read past the end of the data");
  }
  const uint64_t index = pos / fetcher_->chunk_length();
  *offset = pos - index * fetcher_->chunk_length();
  for (size_t i = 0; i < 2; ++i) {
    if (slots_[i].index == index) {
      last_used_ = i;
      return slots_[i].data.get();
    }
  }
  const size_t victim = 1 - last_used_;
  CASSETTE_ASSIGN_OR_RETURN(BlockRef data, fetcher_->Chunk(index));
  if (stats_ != nullptr) ++stats_->blocks_read;
  slots_[victim] = {index, std::move(data)};
  last_used_ = victim;
  return slots_[victim].data.get();
}

Status DataCursor::ReadVarint(uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint64_t offset;
    CASSETTE_ASSIGN_OR_RETURN(const std::string* chunk, ChunkAt(pos_, &offset));
    const auto byte = static_cast<uint8_t>((*chunk)[offset]);
    ++pos_;
    if (shift == 63 && byte > 1) break;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return Status::OK();
    }
  }
  return fetcher_->DataCorruption(pos_, "malformed varint");
}

Status DataCursor::ReadBytes(uint64_t n, std::string_view* out) {
  if (n > fetcher_->data_size() - std::min(pos_, fetcher_->data_size())) {
    return fetcher_->DataCorruption(pos_, "length runs past the end of the data");
  }
  if (n == 0) {
    *out = {};
    return Status::OK();
  }
  uint64_t offset;
  CASSETTE_ASSIGN_OR_RETURN(const std::string* chunk, ChunkAt(pos_, &offset));
  if (offset + n <= chunk->size()) {
    *out = std::string_view(*chunk).substr(offset, n);
    pos_ += n;
    return Status::OK();
  }
  scratch_.clear();
  CASSETTE_RETURN_IF_ERROR(AppendBytes(n, &scratch_));
  *out = scratch_;
  return Status::OK();
}

Status DataCursor::AppendBytes(uint64_t n, std::string* out) {
  if (n > fetcher_->data_size() - std::min(pos_, fetcher_->data_size())) {
    return fetcher_->DataCorruption(pos_, "length runs past the end of the data");
  }
  out->reserve(out->size() + n);
  while (n > 0) {
    uint64_t offset;
    CASSETTE_ASSIGN_OR_RETURN(const std::string* chunk, ChunkAt(pos_, &offset));
    const uint64_t take = std::min<uint64_t>(n, chunk->size() - offset);
    out->append(*chunk, offset, take);
    pos_ += take;
    n -= take;
  }
  return Status::OK();
}

Status DataCursor::Skip(uint64_t n) {
  if (n > fetcher_->data_size() - std::min(pos_, fetcher_->data_size())) {
    return fetcher_->DataCorruption(pos_, "skip runs past the end of the data");
  }
  pos_ += n;
  return Status::OK();
}

}  // namespace cassette
