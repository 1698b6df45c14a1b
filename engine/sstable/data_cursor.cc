#include "engine/sstable/data_cursor.h"

#include <algorithm>

namespace cassette {

namespace {
// Unretained chunks kept: the one in use and the one before it.
constexpr size_t kFreeSlots = 2;
}  // namespace

DataCursor::DataCursor(const BlockFetcher* fetcher, int64_t* blocks_read)
    : fetcher_(fetcher), blocks_read_(blocks_read) {}

Result<const std::string*> DataCursor::ChunkAt(uint64_t pos, uint64_t* offset) {
  if (pos >= fetcher_->data_size()) {
    return fetcher_->DataCorruption(pos, "read past the end of the data");
  }
  const uint64_t index = pos / fetcher_->chunk_length();
  const uint64_t begin = index * fetcher_->chunk_length();
  *offset = pos - begin;
  Slot* slot = nullptr;
  for (Slot& s : slots_) {
    if (s.index == index) {
      slot = &s;
      break;
    }
  }
  if (slot == nullptr) {
    CASSETTE_ASSIGN_OR_RETURN(BlockRef data, fetcher_->Chunk(index));
    if (blocks_read_ != nullptr) ++*blocks_read_;
    // Evict the least recently used unretained chunk once kFreeSlots of
    // them are loaded.
    size_t unretained = 0;
    Slot* victim = nullptr;
    for (Slot& s : slots_) {
      if (Retained(s.index)) continue;
      ++unretained;
      if (victim == nullptr || s.last_use < victim->last_use) victim = &s;
    }
    if (unretained >= kFreeSlots && victim != nullptr) {
      slot = victim;
    } else {
      slot = &slots_.emplace_back();
    }
    slot->index = index;
    slot->data = std::move(data);
  }
  slot->last_use = ++use_clock_;
  cur_data_ = slot->data->data();
  cur_begin_ = begin;
  cur_end_ = begin + slot->data->size();
  return slot->data.get();
}

Status DataCursor::Retain(uint64_t start, uint64_t end) {
  if (start < end && end > fetcher_->data_size()) {
    return fetcher_->DataCorruption(start, "span runs past the end of the data");
  }
  const uint64_t first = start / fetcher_->chunk_length();
  const uint64_t last = start < end ? (end - 1) / fetcher_->chunk_length() : first;
  retain_first_ = first;
  retain_count_ = start < end ? last - first + 1 : 0;
  // Chunks retained before and not now become ordinary slots: keep the
  // kFreeSlots used last, so the slots stay the span plus kFreeSlots.
  std::vector<Slot*> unretained;
  for (Slot& s : slots_) {
    if (!Retained(s.index)) unretained.push_back(&s);
  }
  if (unretained.size() > kFreeSlots) {
    std::sort(unretained.begin(), unretained.end(),
              [](const Slot* a, const Slot* b) { return a->last_use > b->last_use; });
    for (size_t i = kFreeSlots; i < unretained.size(); ++i) unretained[i]->index = UINT64_MAX;
    std::erase_if(slots_, [](const Slot& s) { return s.index == UINT64_MAX; });
    // The current chunk may have been dropped.
    cur_data_ = nullptr;
    cur_begin_ = cur_end_ = 0;
  }
  for (uint64_t i = 0; i < retain_count_; ++i) {
    uint64_t offset;
    CASSETTE_RETURN_IF_ERROR(ChunkAt((first + i) * fetcher_->chunk_length(), &offset).status());
  }
  return Status::OK();
}

Status DataCursor::ReadVarintSlow(uint64_t* v) {
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

Status DataCursor::ReadBytesSlow(uint64_t n, std::string_view* out) {
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

Status DataCursor::PeekSlow(uint64_t max, std::string_view* out) {
  if (max == 0) {
    *out = {};
    return Status::OK();
  }
  uint64_t offset;
  CASSETTE_ASSIGN_OR_RETURN(const std::string* chunk, ChunkAt(pos_, &offset));
  *out = std::string_view(*chunk).substr(offset, max);
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
