#include "engine/sstable/sstable_scanner.h"

#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/sstable_reader.h"

namespace cassette {

SSTableScanner::SSTableScanner(std::shared_ptr<const SSTableReader> reader,
                               const TokenInterval& tokens, int64_t* blocks_read)
    : reader_(std::move(reader)),
      tokens_(tokens),
      cursor_(std::make_shared<DataCursor>(&reader_->fetcher(), blocks_read)) {
  next_block_ = reader_->summary().FirstBlockAtOrAfter(TokenSortKeyPrefix(tokens_.first));
  Next();
}

void SSTableScanner::Next() {
  valid_ = false;
  current_ = PartitionContent{};
  if (done_ || !status_.ok()) return;
  if (Status s = Advance(); !s.ok()) {
    status_ = std::move(s);
    done_ = true;
  }
}

Status SSTableScanner::Advance() {
  const IndexSummary& summary = reader_->summary();
  for (;;) {
    if (rest_.empty()) {
      if (next_block_ >= summary.size()) {
        done_ = true;
        return Status::OK();
      }
      const BlockHandle& h = summary[next_block_++].handle;
      CASSETTE_ASSIGN_OR_RETURN(block_, reader_->fetcher().IndexBlock(h, "partition index block"));
      rest_ = *block_;
      rest_offset_ = h.offset;
      if (rest_.empty()) return SSTableCorruption(reader_->path(), h.offset, "empty index block");
    }
    PartitionIndexEntry entry;
    if (!DecodePartitionIndexEntry(&rest_, &entry)) {
      return SSTableCorruption(reader_->path(), rest_offset_, "malformed partition index entry");
    }
    int64_t token;
    SortKeyToken(entry.sort_key, &token);  // entries hold at least 8 bytes
    if (token < tokens_.first) continue;
    if (token > tokens_.last) {
      done_ = true;
      return Status::OK();
    }
    CASSETTE_ASSIGN_OR_RETURN(
        current_, reader_->ReadContent(entry, block_, ClusteringRange::All(), false, cursor_));
    valid_ = true;
    return Status::OK();
  }
}

}  // namespace cassette
