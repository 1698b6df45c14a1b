// RowIndexCursor: walks the leaf entries (data blocks) of one partition's
// row index tree, forward or backward, loading nodes on demand. Seeking
// reads one node per level. Not thread-safe: one per read.
#pragma once

#include <cstdint>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/clustering_bound.h"
#include "engine/sstable/block_fetcher.h"
#include "engine/sstable/row_index.h"

namespace cassette {

class RowIndexCursor {
 public:
  // `fetcher` must outlive the cursor.
  RowIndexCursor(const BlockFetcher* fetcher, RowIndexRoot root);

  // To the first block whose last clustering is at or after the range's
  // start (the first block that can hold rows of the range).
  Status SeekForward(const ClusteringRange& range);
  // To the last block whose first clustering is at or before the range's end.
  Status SeekBackward(const ClusteringRange& range);
  Status Next();
  Status Prev();

  bool Valid() const { return valid_; }
  // REQUIRES: Valid().
  const RowIndexEntry& entry() const { return levels_.back().entries[levels_.back().pos]; }

 private:
  struct Level {
    std::vector<RowIndexEntry> entries;
    size_t pos = 0;
  };
  enum class Pick { kFirst, kLast, kSeekForward, kSeekBackward };

  // Positions levels_[level] by `pick`, then loads and positions the
  // levels below it. Clears valid_ when a seek finds nothing.
  Status Position(size_t level, Pick pick, const ClusteringRange* range);
  // Loads the node under levels_[level]'s current entry into level + 1.
  Status LoadChild(size_t level);
  // Moves one leaf entry forward (+1) or backward (-1).
  Status Step(int direction);

  const BlockFetcher* fetcher_;
  uint32_t depth_;
  std::vector<Level> levels_;  // [0] is the root, back() the leaf entries
  bool valid_ = false;
};

}  // namespace cassette
