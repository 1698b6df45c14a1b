#include "engine/sstable/sstable_reader.h"

#include <algorithm>

#include "engine/sstable/chunk_offsets.h"
#include "engine/sstable/data_cursor.h"
#include "engine/sstable/partition_codec.h"
#include "engine/sstable/row_index.h"
#include "engine/sstable/sstable_row_iterator.h"
#include "engine/sstable/sstable_scanner.h"
#include "engine/util/checksum.h"

namespace cassette {

namespace {

struct SectionSpec {
  SectionType type;
  const char* name;
};
constexpr SectionSpec kRequiredSections[] = {
    {SectionType::kChunkOffsets, "chunk offsets"},
    {SectionType::kIndexSummary, "index summary"},
    {SectionType::kBloomFilter, "bloom filter"},
    {SectionType::kStatistics, "statistics"},
};

Status ReadSection(const RandomAccessFile& file, const std::string& path, const SectionEntry& e,
                   const char* name, std::string* out) {
  CASSETTE_RETURN_IF_ERROR(file.Read(e.offset, e.length, out));
  if (out->size() != e.length) {
    return SSTableCorruption(path, e.offset, std::string("truncated ") + name + " section");
  }
  if (Checksum32(*out) != e.checksum) {
    return SSTableCorruption(path, e.offset, std::string(name) + " section checksum mismatch");
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<SSTableReader>> SSTableReader::Open(FileSystem* fs, std::string path,
                                                           BlockCache* cache) {
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs->NewRandomAccessFile(path));
  std::shared_ptr<SSTableReader> r(new SSTableReader());
  r->path_ = std::move(path);
  r->file_size_ = file->Size();
  if (r->file_size_ < kFooterSize) {
    return SSTableCorruption(
        r->path_, 0,
        "file too short to be an sstable (" + std::to_string(r->file_size_) + " bytes)");
  }
  const uint64_t footer_offset = r->file_size_ - kFooterSize;
  std::string bytes;
  CASSETTE_RETURN_IF_ERROR(file->Read(footer_offset, kFooterSize, &bytes));
  CASSETTE_RETURN_IF_ERROR(DecodeFooter(bytes, r->path_, footer_offset, &r->footer_));

  uint64_t blocks_end = footer_offset;
  for (const SectionSpec& spec : kRequiredSections) {
    const SectionEntry* e = r->footer_.Find(spec.type);
    if (e == nullptr) {
      return SSTableCorruption(r->path_, footer_offset,
                               std::string("missing ") + spec.name + " section");
    }
    blocks_end = std::min(blocks_end, e->offset);
  }

  ChunkOffsets chunks;
  for (const SectionSpec& spec : kRequiredSections) {
    const SectionEntry& e = *r->footer_.Find(spec.type);
    CASSETTE_RETURN_IF_ERROR(ReadSection(*file, r->path_, e, spec.name, &bytes));
    bool ok = false;
    switch (spec.type) {
      case SectionType::kChunkOffsets:
        ok = DecodeChunkOffsets(bytes, blocks_end, &chunks);
        break;
      case SectionType::kIndexSummary:
        ok = IndexSummary::DecodeFrom(bytes, blocks_end, &r->summary_);
        break;
      case SectionType::kBloomFilter:
        ok = BloomFilter::DecodeFrom(bytes, &r->bloom_);
        break;
      case SectionType::kStatistics:
        ok = DecodeSSTableStats(bytes, &r->stats_);
        break;
      case SectionType::kNone:
        break;
    }
    if (!ok) {
      return SSTableCorruption(r->path_, e.offset,
                               std::string("malformed ") + spec.name + " section");
    }
  }
  if (chunks.chunk_length != r->stats_.chunk_length ||
      chunks.data_size != r->stats_.uncompressed_size) {
    return SSTableCorruption(r->path_, r->footer_.Find(SectionType::kChunkOffsets)->offset,
                             "chunk offsets disagree with the statistics");
  }
  if (r->stats_.partition_count > 0) {
    r->first_sort_key_ = r->stats_.first_key.SortKey();
    r->last_sort_key_ = r->stats_.last_key.SortKey();
  }
  r->fetcher_ = std::make_unique<BlockFetcher>(r->path_, std::move(file), cache, std::move(chunks),
                                               blocks_end);
  return r;
}

bool SSTableReader::MayContainKey(const DecoratedKey& key) const {
  if (stats_.partition_count == 0) return false;
  if (key < stats_.first_key || stats_.last_key < key) return false;
  return bloom_.MayContain(key.key);
}

Result<bool> SSTableReader::FindEntry(const std::string& sort_key, BlockRef* block,
                                      PartitionIndexEntry* entry) const {
  const size_t i = summary_.BlockFor(sort_key);
  if (i >= summary_.size()) return false;
  const BlockHandle& h = summary_[i].handle;
  CASSETTE_ASSIGN_OR_RETURN(*block, fetcher_->IndexBlock(h, "partition index block"));
  std::string_view in(**block);
  while (!in.empty()) {
    if (!DecodePartitionIndexEntry(&in, entry)) {
      return SSTableCorruption(path_, h.offset, "malformed partition index entry");
    }
    const int c = entry->sort_key.compare(sort_key);
    if (c == 0) return true;
    if (c > 0) return false;
  }
  return false;
}

Result<PartitionContent> SSTableReader::ReadContent(
    const PartitionIndexEntry& entry, const BlockRef& index_block, const ClusteringRange& range,
    bool reversed, const std::shared_ptr<DataCursor>& cursor) const {
  const uint64_t start = entry.data_position;
  if (start >= fetcher_->data_size() || entry.partition_length < 2 ||
      entry.partition_length > fetcher_->data_size() - start) {
    return fetcher_->DataCorruption(start, "partition index entry points outside the data");
  }
  cursor->Seek(start);
  uint64_t header_length;
  std::string_view header_bytes;
  CASSETTE_RETURN_IF_ERROR(cursor->ReadVarint(&header_length));
  if (header_length > entry.partition_length) {
    return fetcher_->DataCorruption(start, "partition header longer than its partition");
  }
  CASSETTE_RETURN_IF_ERROR(cursor->ReadBytes(header_length, &header_bytes));
  PartitionHeader header;
  if (Status s = DecodePartitionHeader(header_bytes, stats_.encoding_stats, &header); !s.ok()) {
    return fetcher_->DataCorruption(start, "bad partition header: " + s.message());
  }
  // The entry's sort key is the token's 8 big-endian bytes then the key.
  int64_t entry_token = 0;
  if (!SortKeyToken(entry.sort_key, &entry_token) || entry_token != header.key.token ||
      entry.sort_key.substr(8) != header.key.key) {
    return fetcher_->DataCorruption(start, "partition key does not match the index");
  }
  const uint64_t rows_start = cursor->position();
  const uint64_t rows_end = start + entry.partition_length - 1;
  if (rows_start > rows_end) {
    return fetcher_->DataCorruption(start, "partition header runs past its partition");
  }
  std::vector<RowIndexEntryRef> root;
  uint32_t depth = 0;
  if (!entry.row_index.empty() && !DecodeRowIndexRoot(entry.row_index, &depth, &root)) {
    return fetcher_->DataCorruption(start, "malformed row index root in the partition index");
  }

  PartitionContent content;
  content.key = std::move(header.key);
  content.partition_deletion = header.partition_deletion;
  content.static_row = std::move(header.static_row);
  for (RangeTombstone& rt : header.range_tombstones) {
    if (rt.range.Overlaps(range)) content.range_tombstones.push_back(std::move(rt));
  }
  RowIteratorParams params;
  params.reader = shared_from_this();
  params.cursor = cursor;
  params.encoding = stats_.encoding_stats;
  params.format_version = footer_.format_version;
  params.partition_start = start;
  params.rows_start = rows_start;
  params.rows_end = rows_end;
  params.row_index = std::move(root);
  params.row_index_depth = depth;
  if (!params.row_index.empty()) params.index_block = index_block;
  params.range = range;
  params.reversed = reversed;
  content.rows = SSTableRowIterator::Create(std::move(params));
  return content;
}

Result<std::optional<PartitionContent>> SSTableReader::ReadPartition(const DecoratedKey& key,
                                                                     const ClusteringRange& range,
                                                                     bool reversed,
                                                                     int64_t* blocks_read) const {
  if (!MayContainKey(key)) return std::optional<PartitionContent>();
  BlockRef block;
  PartitionIndexEntry entry;
  CASSETTE_ASSIGN_OR_RETURN(bool found, FindEntry(key.SortKey(), &block, &entry));
  if (!found) return std::optional<PartitionContent>();
  auto cursor = std::make_shared<DataCursor>(fetcher_.get(), blocks_read);
  CASSETTE_ASSIGN_OR_RETURN(PartitionContent content,
                            ReadContent(entry, block, range, reversed, cursor));
  return std::optional<PartitionContent>(std::move(content));
}

std::unique_ptr<PartitionIterator> SSTableReader::NewScanner(const TokenInterval& tokens,
                                                             int64_t* blocks_read) const {
  return std::make_unique<SSTableScanner>(shared_from_this(), tokens, blocks_read);
}

}  // namespace cassette
