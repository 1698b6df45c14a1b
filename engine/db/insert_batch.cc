// Implementation of the public InsertBatch (include/cassette/insert_batch.h).
#include "cassette/insert_batch.h"

#include <utility>

namespace cassette {

InsertBatch::InsertBatch(std::string keyspace, std::string table, std::vector<std::string> columns)
    : keyspace_(std::move(keyspace)), table_(std::move(table)), columns_(std::move(columns)) {}

std::span<Value> InsertBatch::AddRow() {
  const size_t width = columns_.size();
  const size_t begin = rows_ * width;
  if (values_.size() < begin + width) {
    values_.resize(begin + width);  // new values are null
  } else {
    // Storage kept from a dropped row: nulled in place, so that assigning
    // a value of the size it held copies into the same buffer.
    for (size_t i = begin; i < begin + width; ++i) {
      values_[i].null_ = true;
      values_[i].bytes_.clear();
    }
  }
  ++rows_;
  return {values_.data() + begin, width};
}

}  // namespace cassette
