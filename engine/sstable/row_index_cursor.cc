#include "engine/sstable/row_index_cursor.h"

#include <algorithm>

namespace cassette {

RowIndexCursor::RowIndexCursor(const BlockFetcher* fetcher, uint32_t depth,
                               std::vector<RowIndexEntryRef> root, BlockRef owner)
    : fetcher_(fetcher), depth_(depth), root_owner_(std::move(owner)) {
  levels_.resize(static_cast<size_t>(depth_) + 1);
  levels_[0].count = root.size();
  levels_[0].entries = std::move(root);
}

Status RowIndexCursor::SeekForward(const ClusteringRange& range) {
  valid_ = true;
  return Position(0, Pick::kSeekForward, &range);
}

Status RowIndexCursor::SeekBackward(const ClusteringRange& range) {
  valid_ = true;
  return Position(0, Pick::kSeekBackward, &range);
}

Status RowIndexCursor::Malformed(const Level& l) {
  valid_ = false;
  return SSTableCorruption(fetcher_->path(), l.offset, "malformed row index node");
}

Status RowIndexCursor::DecodeUpTo(Level& l, uint64_t n) {
  if (n == l.count) l.entries.reserve(n);
  while (l.entries.size() < n) {
    if (!DecodeRowIndexEntry(&l.rest, &l.entries.emplace_back())) return Malformed(l);
  }
  if (l.entries.size() == l.count && !l.rest.empty()) return Malformed(l);
  return Status::OK();
}

Status RowIndexCursor::Position(size_t level, Pick pick, const ClusteringRange* range) {
  for (;; ++level) {
    Level& l = levels_[level];
    if (l.count == 0) {
      valid_ = false;
      return Status::Corruption("sstable " + fetcher_->path() + ": empty row index node");
    }
    switch (pick) {
      case Pick::kFirst:
        CASSETTE_RETURN_IF_ERROR(DecodeUpTo(l, 1));
        l.pos = 0;
        break;
      case Pick::kLast:
        CASSETTE_RETURN_IF_ERROR(DecodeUpTo(l, l.count));
        l.pos = l.entries.size() - 1;
        break;
      case Pick::kSeekForward: {
        // Front to back, decoding only up to the entry found: entries'
        // last clusterings ascend, so the first at or after the start is
        // the answer.
        size_t i = 0;
        for (;; ++i) {
          if (i == l.count) {
            valid_ = false;
            return Status::OK();
          }
          CASSETTE_RETURN_IF_ERROR(DecodeUpTo(l, i + 1));
          if (range->AfterStart(l.entries[i].last)) break;
        }
        l.pos = i;
        break;
      }
      case Pick::kSeekBackward: {
        CASSETTE_RETURN_IF_ERROR(DecodeUpTo(l, l.count));
        auto it = std::partition_point(
            l.entries.begin(), l.entries.end(),
            [&](const RowIndexEntryRef& e) { return range->BeforeEnd(e.first); });
        if (it == l.entries.begin()) {
          valid_ = false;
          return Status::OK();
        }
        l.pos = static_cast<size_t>(it - l.entries.begin()) - 1;
        break;
      }
    }
    if (level == depth_) return Status::OK();
    CASSETTE_RETURN_IF_ERROR(LoadChild(level));
  }
}

Status RowIndexCursor::LoadChild(size_t level) {
  const Level& l = levels_[level];
  const RowIndexEntryRef& e = l.entries[l.pos];
  Level& child = levels_[level + 1];
  child.offset = e.offset;
  auto node = fetcher_->IndexBlock({e.offset, e.size}, "row index node");
  if (!node.ok()) {
    valid_ = false;
    return node.status();
  }
  child.node = std::move(*node);
  child.rest = *child.node;
  child.entries.clear();
  child.pos = 0;
  if (!DecodeRowIndexCount(&child.rest, &child.count)) return Malformed(child);
  return Status::OK();
}

Status RowIndexCursor::Step(int direction) {
  if (!valid_) return Status::OK();
  // Climb while the level is exhausted in this direction.
  size_t level = levels_.size() - 1;
  for (;;) {
    Level& l = levels_[level];
    const bool can_move = direction > 0 ? l.pos + 1 < l.count : l.pos > 0;
    if (can_move) {
      if (direction > 0) CASSETTE_RETURN_IF_ERROR(DecodeUpTo(l, l.pos + 2));
      l.pos = direction > 0 ? l.pos + 1 : l.pos - 1;
      break;
    }
    if (level == 0) {
      valid_ = false;
      return Status::OK();
    }
    --level;
  }
  if (level == depth_) return Status::OK();
  // Descend from the moved entry to the first (last) leaf below it.
  CASSETTE_RETURN_IF_ERROR(LoadChild(level));
  return Position(level + 1, direction > 0 ? Pick::kFirst : Pick::kLast, nullptr);
}

Status RowIndexCursor::Next() { return Step(+1); }
Status RowIndexCursor::Prev() { return Step(-1); }

}  // namespace cassette
