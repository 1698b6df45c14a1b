#include "engine/sstable/data_stream_writer.h"

#include <algorithm>
#include <cstring>

namespace cassette {

DataStreamWriter::DataStreamWriter(BlockAppender* out, uint32_t chunk_length, bool compress,
                                   int level)
    : out_(out), compressor_(compress, level) {
  offsets_.chunk_length = chunk_length;
  // Room for a chunk and an entry or two past it.
  buffer_.resize(chunk_length + std::max<size_t>(4096, chunk_length / 4));
}

void DataStreamWriter::Grow(size_t max) { buffer_.resize(std::max(used_ + max, 2 * used_)); }

Status DataStreamWriter::Append(std::string_view bytes) {
  if (bytes.empty()) return Status::OK();
  std::memcpy(Reserve(bytes.size()), bytes.data(), bytes.size());
  return Commit(bytes.size());
}

Status DataStreamWriter::FlushFullChunks() {
  const size_t chunk = offsets_.chunk_length;
  size_t done = 0;
  while (used_ - done >= chunk) {
    CASSETTE_RETURN_IF_ERROR(FlushChunk(std::string_view(buffer_.data() + done, chunk)));
    done += chunk;
  }
  std::memmove(buffer_.data(), buffer_.data() + done, used_ - done);
  used_ -= done;
  return Status::OK();
}

Status DataStreamWriter::Finish() {
  if (used_ == 0) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(FlushChunk(std::string_view(buffer_.data(), used_)));
  used_ = 0;
  return Status::OK();
}

Status DataStreamWriter::FlushChunk(std::string_view raw) {
  stored_.clear();
  compressor_.Compress(raw, &stored_);
  CASSETTE_ASSIGN_OR_RETURN(BlockHandle h, out_->Append(stored_));
  offsets_.chunks.push_back(h);
  stored_bytes_ += h.size;
  return Status::OK();
}

}  // namespace cassette
