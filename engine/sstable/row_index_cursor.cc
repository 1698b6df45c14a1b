#include "engine/sstable/row_index_cursor.h"

#include <algorithm>

namespace cassette {

RowIndexCursor::RowIndexCursor(const BlockFetcher* fetcher, RowIndexRoot root)
    : fetcher_(fetcher), depth_(root.depth) {
  levels_.resize(static_cast<size_t>(depth_) + 1);
  levels_[0].entries = std::move(root.entries);
}

Status RowIndexCursor::SeekForward(const ClusteringRange& range) {
  valid_ = true;
  return Position(0, Pick::kSeekForward, &range);
}

Status RowIndexCursor::SeekBackward(const ClusteringRange& range) {
  valid_ = true;
  return Position(0, Pick::kSeekBackward, &range);
}

Status RowIndexCursor::Position(size_t level, Pick pick, const ClusteringRange* range) {
  for (;; ++level) {
    Level& l = levels_[level];
    if (l.entries.empty()) {
      valid_ = false;
      return Status::Corruption("sstable " + fetcher_->path() + ": empty row index node");
    }
    switch (pick) {
      case Pick::kFirst:
        l.pos = 0;
        break;
      case Pick::kLast:
        l.pos = l.entries.size() - 1;
        break;
      case Pick::kSeekForward: {
        auto it = std::partition_point(
            l.entries.begin(), l.entries.end(),
            [&](const RowIndexEntry& e) { return !range->AfterStart(e.last); });
        if (it == l.entries.end()) {
          valid_ = false;
          return Status::OK();
        }
        l.pos = static_cast<size_t>(it - l.entries.begin());
        break;
      }
      case Pick::kSeekBackward: {
        auto it =
            std::partition_point(l.entries.begin(), l.entries.end(),
                                 [&](const RowIndexEntry& e) { return range->BeforeEnd(e.first); });
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
  const RowIndexEntry& e = l.entries[l.pos];
  auto node = fetcher_->IndexBlock({e.offset, e.size}, "row index node");
  if (!node.ok()) {
    valid_ = false;
    return node.status();
  }
  std::string_view in(**node);
  if (!DecodeRowIndexEntries(&in, &levels_[level + 1].entries) || !in.empty()) {
    valid_ = false;
    return SSTableCorruption(fetcher_->path(), e.offset, "malformed row index node");
  }
  return Status::OK();
}

Status RowIndexCursor::Step(int direction) {
  if (!valid_) return Status::OK();
  // Climb while the level is exhausted in this direction.
  size_t level = levels_.size() - 1;
  for (;;) {
    Level& l = levels_[level];
    const bool can_move = direction > 0 ? l.pos + 1 < l.entries.size() : l.pos > 0;
    if (can_move) {
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
