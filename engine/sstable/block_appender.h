// BlockAppender: appends stored blocks and sections to the SSTable being
// written and hands back where each landed. Data chunks, index blocks and
// row index nodes all go through one appender, interleaved in write order.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "cassette/file_system.h"
#include "engine/sstable/sstable_format.h"

namespace cassette {

class BlockAppender {
 public:
  explicit BlockAppender(WritableFile* file) : file_(file) {}

  Result<BlockHandle> Append(std::string_view bytes) {
    CASSETTE_RETURN_IF_ERROR(file_->Append(bytes));
    BlockHandle h{offset_, bytes.size()};
    offset_ += bytes.size();
    return h;
  }
  uint64_t offset() const { return offset_; }

 private:
  WritableFile* file_;
  uint64_t offset_ = 0;
};

}  // namespace cassette
