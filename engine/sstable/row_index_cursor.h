// RowIndexCursor: walks the leaf entries (data blocks) of one partition's
// row index tree, forward or backward, loading nodes on demand. Seeking
// reads one node per level. Nodes are read in place from the block cache's
// buffers, and decoded only as far as the walk needs: a forward seek to the
// start of a partition decodes the first entry of each node, not the
// node's hundreds of entries (a backward walk decodes a whole node, since
// entries can only be found front to back). Not thread-safe: one per read.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/clustering_bound.h"
#include "engine/sstable/block_fetcher.h"
#include "engine/sstable/row_index.h"

namespace cassette {

class RowIndexCursor {
 public:
  // `fetcher` must outlive the cursor. `root` holds the decoded root
  // entries of a tree of `depth`; their bytes are kept alive by `owner`.
  RowIndexCursor(const BlockFetcher* fetcher, uint32_t depth, std::vector<RowIndexEntryRef> root,
                 BlockRef owner);

  // To the first block whose last clustering is at or after the range's
  // start (the first block that can hold rows of the range).
  Status SeekForward(const ClusteringRange& range);
  // To the last block whose first clustering is at or before the range's end.
  Status SeekBackward(const ClusteringRange& range);
  Status Next();
  Status Prev();

  bool Valid() const { return valid_; }
  // REQUIRES: Valid().
  const RowIndexEntryRef& entry() const { return levels_.back().entries[levels_.back().pos]; }

 private:
  struct Level {
    BlockRef node;                          // the node's bytes (null for the root)
    uint64_t offset = 0;                    // the node's file offset, for errors
    uint64_t count = 0;                     // entries in the node
    std::vector<RowIndexEntryRef> entries;  // the first entries.size() of them
    std::string_view rest;                  // the bytes of the others
    size_t pos = 0;
  };
  enum class Pick { kFirst, kLast, kSeekForward, kSeekBackward };

  // Positions levels_[level] by `pick`, then loads and positions the
  // levels below it. Clears valid_ when a seek finds nothing.
  Status Position(size_t level, Pick pick, const ClusteringRange* range);
  // Loads the node under levels_[level]'s current entry into level + 1.
  Status LoadChild(size_t level);
  // Decodes l's entries up to index n - 1 (n <= l.count).
  Status DecodeUpTo(Level& l, uint64_t n);
  // Moves one leaf entry forward (+1) or backward (-1).
  Status Step(int direction);
  Status Malformed(const Level& l);

  const BlockFetcher* fetcher_;
  uint32_t depth_;
  BlockRef root_owner_;
  std::vector<Level> levels_;  // [0] is the root, back() the leaf entries
  bool valid_ = false;
};

}  // namespace cassette
