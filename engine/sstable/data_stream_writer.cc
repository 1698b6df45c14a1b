#include "engine/sstable/data_stream_writer.h"

#include <algorithm>

namespace cassette {

DataStreamWriter::DataStreamWriter(BlockAppender* out, uint32_t chunk_length, bool compress,
                                   int level)
    : out_(out), compressor_(compress, level) {
  offsets_.chunk_length = chunk_length;
  buffer_.reserve(chunk_length);
}

Status DataStreamWriter::Append(std::string_view bytes) {
  while (!bytes.empty()) {
    const size_t take = std::min<size_t>(bytes.size(), offsets_.chunk_length - buffer_.size());
    buffer_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    offsets_.data_size += take;
    if (buffer_.size() == offsets_.chunk_length) CASSETTE_RETURN_IF_ERROR(FlushChunk());
  }
  return Status::OK();
}

Status DataStreamWriter::Finish() {
  if (buffer_.empty()) return Status::OK();
  return FlushChunk();
}

Status DataStreamWriter::FlushChunk() {
  stored_.clear();
  compressor_.Compress(buffer_, &stored_);
  CASSETTE_ASSIGN_OR_RETURN(BlockHandle h, out_->Append(stored_));
  offsets_.chunks.push_back(h);
  stored_bytes_ += h.size;
  buffer_.clear();
  return Status::OK();
}

}  // namespace cassette
