#include "engine/sstable/index_summary.h"

#include <algorithm>

#include "engine/util/coding.h"

namespace cassette {

size_t IndexSummary::BlockFor(std::string_view sort_key) const {
  auto it = std::upper_bound(
      entries_.begin(), entries_.end(), sort_key,
      [](std::string_view key, const IndexSummaryEntry& e) { return key < e.first_key; });
  if (it == entries_.begin()) return entries_.size();
  return static_cast<size_t>(it - entries_.begin()) - 1;
}

size_t IndexSummary::FirstBlockAtOrAfter(std::string_view sort_key) const {
  auto it = std::lower_bound(
      entries_.begin(), entries_.end(), sort_key,
      [](const IndexSummaryEntry& e, std::string_view key) { return e.first_key < key; });
  if (it == entries_.begin()) return 0;
  return static_cast<size_t>(it - entries_.begin()) - 1;
}

void IndexSummary::EncodeTo(std::string* out) const {
  PutVarint64(out, entries_.size());
  for (const IndexSummaryEntry& e : entries_) {
    PutLengthPrefixed(out, e.first_key);
    EncodeBlockHandle(e.handle, out);
  }
}

bool IndexSummary::DecodeFrom(std::string_view in, uint64_t blocks_end, IndexSummary* summary) {
  uint64_t count;
  if (!GetVarint64(&in, &count) || count > in.size() / 3) return false;
  std::vector<IndexSummaryEntry> entries;
  entries.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view key;
    BlockHandle h;
    if (!GetLengthPrefixed(&in, &key) || !DecodeBlockHandle(&in, &h)) return false;
    if (h.offset > blocks_end || h.size > blocks_end - h.offset) return false;
    if (!entries.empty() && !(entries.back().first_key < key)) return false;
    entries.push_back({std::string(key), h});
  }
  if (!in.empty()) return false;
  *summary = IndexSummary(std::move(entries));
  return true;
}

}  // namespace cassette
