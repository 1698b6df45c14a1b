#include "engine/sstable/row_index.h"

#include "engine/util/coding.h"

namespace cassette {

namespace {

size_t EncodedSize(const RowIndexEntry& e) {
  std::string tmp;
  PutVarint64(&tmp, e.first.size());
  PutVarint64(&tmp, e.last.size());
  PutVarint64(&tmp, e.offset);
  PutVarint64(&tmp, e.size);
  return tmp.size() + e.first.size() + e.last.size();
}

}  // namespace

void EncodeRowIndexEntries(const std::vector<RowIndexEntry>& entries, std::string* out) {
  PutVarint64(out, entries.size());
  for (const RowIndexEntry& e : entries) {
    PutLengthPrefixed(out, e.first);
    PutLengthPrefixed(out, e.last);
    PutVarint64(out, e.offset);
    PutVarint64(out, e.size);
  }
}

bool DecodeRowIndexEntry(std::string_view* in, RowIndexEntryRef* e) {
  std::string_view copy = *in;
  if (!GetLengthPrefixed(&copy, &e->first) || !GetLengthPrefixed(&copy, &e->last) ||
      !GetVarint64(&copy, &e->offset) || !GetVarint64(&copy, &e->size)) {
    return false;
  }
  *in = copy;
  return true;
}

bool DecodeRowIndexCount(std::string_view* in, uint64_t* count) {
  // An entry takes at least 4 bytes, which bounds the allocation.
  return GetVarint64(in, count) && *count > 0 && *count <= in->size() / 4;
}

bool DecodeRowIndexEntries(std::string_view* in, std::vector<RowIndexEntry>* entries) {
  uint64_t count;
  if (!DecodeRowIndexCount(in, &count)) return false;
  entries->clear();
  entries->reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    RowIndexEntryRef ref;
    if (!DecodeRowIndexEntry(in, &ref)) return false;
    entries->push_back({std::string(ref.first), std::string(ref.last), ref.offset, ref.size});
  }
  return true;
}

void EncodeRowIndexRoot(const RowIndexRoot& root, std::string* out) {
  PutVarint32(out, root.depth);
  EncodeRowIndexEntries(root.entries, out);
}

bool DecodeRowIndexRoot(std::string_view in, RowIndexRoot* root) {
  if (!GetVarint32(&in, &root->depth) || root->depth > kRowIndexMaxDepth) return false;
  return DecodeRowIndexEntries(&in, &root->entries) && in.empty();
}

bool DecodeRowIndexRoot(std::string_view in, uint32_t* depth,
                        std::vector<RowIndexEntryRef>* entries) {
  uint64_t count;
  if (!GetVarint32(&in, depth) || *depth > kRowIndexMaxDepth || !DecodeRowIndexCount(&in, &count)) {
    return false;
  }
  entries->clear();
  entries->reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (!DecodeRowIndexEntry(&in, &entries->emplace_back())) return false;
  }
  return in.empty();
}

Result<std::string> BuildRowIndex(
    std::vector<RowIndexEntry> blocks,
    const std::function<Result<BlockHandle>(std::string_view payload)>& write_node) {
  RowIndexRoot root;
  root.entries = std::move(blocks);
  auto total_size = [](const std::vector<RowIndexEntry>& entries) {
    size_t n = 0;
    for (const RowIndexEntry& e : entries) n += EncodedSize(e);
    return n;
  };
  while (root.entries.size() > 1 && total_size(root.entries) > kRowIndexInlineRootBytes &&
         root.depth < kRowIndexMaxDepth) {
    std::vector<RowIndexEntry> parents;
    std::vector<RowIndexEntry> node;
    size_t node_bytes = 0;
    std::string payload;
    auto flush = [&]() -> Status {
      payload.clear();
      EncodeRowIndexEntries(node, &payload);
      CASSETTE_ASSIGN_OR_RETURN(BlockHandle h, write_node(payload));
      parents.push_back({node.front().first, node.back().last, h.offset, h.size});
      node.clear();
      node_bytes = 0;
      return Status::OK();
    };
    for (size_t i = 0; i < root.entries.size(); ++i) {
      const size_t bytes = EncodedSize(root.entries[i]);
      // At least two entries per node, so every level halves the count.
      if (node.size() >= 2 && node_bytes + bytes > kRowIndexNodeBytes) {
        CASSETTE_RETURN_IF_ERROR(flush());
      }
      node.push_back(std::move(root.entries[i]));
      node_bytes += bytes;
    }
    CASSETTE_RETURN_IF_ERROR(flush());
    root.entries = std::move(parents);
    ++root.depth;
  }
  std::string out;
  EncodeRowIndexRoot(root, &out);
  return out;
}

}  // namespace cassette
