#include "fuzz/sstable_fuzz_support.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

#include "engine/sstable/bloom_filter.h"
#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/sstable_reader.h"
#include "engine/sstable/sstable_writer.h"
#include "engine/util/checksum.h"
#include "engine/util/coding.h"
#include "tests/sstable/sstable_test_util.h"

namespace cassette::fuzz {

namespace {

constexpr char kPath[] = "/fuzz.sst";

size_t SectionIndex(SectionType type) {
  for (size_t i = 0; i < kSectionOrder.size(); ++i) {
    if (kSectionOrder[i] == type) return i;
  }
  std::abort();
}

std::string Slice(const std::string& file, uint64_t offset, uint64_t size) {
  return file.substr(offset, size);
}

// A Corruption must say which file and where; anything else from a read of
// bytes is a bug in a decoder's error handling.
void CheckError(const Status& s) {
  if (s.ok()) return;
  if (!s.IsCorruption() || s.message().find(kPath) == std::string::npos ||
      s.message().find("offset") == std::string::npos) {
    std::fprintf(stderr, "unexpected error from a damaged sstable: %s\n", s.ToString().c_str());
    std::abort();
  }
}

Status Drain(RowIterator* rows) {
  for (; rows->Valid(); rows->Next()) {
    // Touch the row so lazily decoded bodies are decoded.
    (void)rows->row().columns.size();
  }
  return rows->status();
}

Status ReadOne(const SSTableReader& reader, const DecoratedKey& key) {
  (void)reader.MayContainKey(key);
  const ClusteringRange slice{Bound{sstable_test::Be32(5), true},
                              Bound{sstable_test::Be32(25), false}};
  for (const ClusteringRange& range : {ClusteringRange::All(), slice}) {
    for (bool reversed : {false, true}) {
      int64_t blocks_read = 0;
      auto content = reader.ReadPartition(key, range, reversed, &blocks_read);
      if (!content.ok()) return content.status();
      if (!content->has_value()) continue;
      CASSETTE_RETURN_IF_ERROR(Drain((*content)->rows.get()));
    }
  }
  return Status::OK();
}

Status ReadEverything(const SSTableReader& reader, const std::vector<PartitionUpdate>& keys) {
  (void)reader.Describe();
  // Each key once: those of the template, those a scan finds, the bounds.
  std::set<DecoratedKey> lookups;
  for (const PartitionUpdate& p : keys) lookups.insert(p.key);
  {
    auto scanner = reader.NewScanner(TokenInterval::All(), nullptr);
    for (; scanner->Valid(); scanner->Next()) {
      if (lookups.size() < 64) lookups.insert(scanner->partition().key);
      CASSETTE_RETURN_IF_ERROR(Drain(scanner->partition().rows.get()));
    }
    CASSETTE_RETURN_IF_ERROR(scanner->status());
  }
  if (reader.stats().partition_count > 0) {
    lookups.insert(reader.stats().first_key);
    lookups.insert(reader.stats().last_key);
  }
  for (const DecoratedKey& key : lookups) CASSETTE_RETURN_IF_ERROR(ReadOne(reader, key));
  // A part of the ring, its first token excluded.
  const TokenInterval part{-(int64_t{1} << 62) + 1, int64_t{1} << 62};
  auto scanner = reader.NewScanner(part, nullptr);
  for (; scanner->Valid(); scanner->Next()) {
    CASSETTE_RETURN_IF_ERROR(Drain(scanner->partition().rows.get()));
  }
  return scanner->status();
}

}  // namespace

Result<SSTableParts> MakeSSTable(uint64_t seed, size_t partition_count, bool compress) {
  SSTableParts parts;
  sstable_test::Generator gen(seed);
  parts.partitions = gen.RandomPartitions(partition_count, 12);
  // One partition with enough rows for a row index of nodes.
  PartitionUpdate big = gen.RandomPartition(DecoratedKey::FromKey("big"), 0);
  for (uint32_t i = 0; i < 400; ++i) big.rows.push_back(gen.RandomRow(sstable_test::Ck(i, i)));
  auto at = std::lower_bound(
      parts.partitions.begin(), parts.partitions.end(), big,
      [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
  parts.partitions.insert(at, std::move(big));

  SSTableWriterOptions options;
  options.compress = compress;
  options.chunk_length = 1024;
  options.row_index_interval = 64;
  options.encoding_stats.min_timestamp = sstable_test::kBaseTs;
  std::shared_ptr<MemFileSystem> fs = NewMemFileSystem();
  CASSETTE_RETURN_IF_ERROR(
      sstable_test::WriteTable(fs.get(), kPath, parts.partitions, options).status());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<SSTableReader> reader,
                            SSTableReader::Open(fs.get(), kPath, nullptr));
  auto file = fs->NewRandomAccessFile(kPath);
  if (!file.ok()) return file.status();
  CASSETTE_RETURN_IF_ERROR((*file)->Read(0, (*file)->Size(), &parts.file));

  parts.footer = reader->footer();
  parts.blocks_end = parts.file.size() - kFooterSize;
  for (size_t i = 0; i < kSectionOrder.size(); ++i) {
    const SectionEntry* e = parts.footer.Find(kSectionOrder[i]);
    if (e == nullptr) return Status::Corruption("template lacks a section");
    parts.sections[i] = Slice(parts.file, e->offset, e->length);
    parts.blocks_end = std::min(parts.blocks_end, e->offset);
  }
  parts.chunks = reader->fetcher().chunks();
  parts.summary = reader->summary();
  parts.stats = reader->stats();
  for (uint64_t i = 0; i < parts.chunks.chunks.size(); ++i) {
    CASSETTE_ASSIGN_OR_RETURN(BlockRef chunk, reader->fetcher().Chunk(i));
    parts.data_stream += *chunk;
  }
  for (const IndexSummaryEntry& e : parts.summary.entries()) {
    CASSETTE_RETURN_IF_ERROR(reader->fetcher().LoadIndexBlock(e.handle, "partition index block",
                                                              &parts.index_blocks.emplace_back()));
  }
  return parts;
}

std::string AssembleSSTable(std::string_view blocks, const std::array<std::string, 4>& sections,
                            uint32_t format_version) {
  std::string out(blocks);
  Footer footer;
  footer.format_version = format_version;
  for (size_t i = 0; i < kSectionOrder.size(); ++i) {
    SectionEntry& e = footer.sections[i];
    e.type = kSectionOrder[i];
    e.offset = out.size();
    e.length = sections[i].size();
    e.checksum = Checksum32(sections[i]);
    out += sections[i];
  }
  EncodeFooter(footer, &out);
  return out;
}

std::string WithDataStream(const SSTableParts& parts, std::string_view stream) {
  std::string blocks = parts.file.substr(0, parts.blocks_end);
  ChunkOffsets chunks;
  chunks.chunk_length = parts.chunks.chunk_length;
  chunks.data_size = stream.size();
  for (size_t start = 0; start < stream.size(); start += chunks.chunk_length) {
    const std::string_view payload = stream.substr(start, chunks.chunk_length);
    BlockHandle h{blocks.size(), payload.size() + kBlockTrailerSize};
    blocks += payload;
    AppendBlockTrailer(payload, BlockType::kRaw, &blocks);
    chunks.chunks.push_back(h);
  }
  std::array<std::string, 4> sections = parts.sections;
  std::string& offsets = sections[SectionIndex(SectionType::kChunkOffsets)];
  offsets.clear();
  EncodeChunkOffsets(chunks, &offsets);
  SSTableStats stats = parts.stats;
  stats.uncompressed_size = stream.size();
  std::string& statistics = sections[SectionIndex(SectionType::kStatistics)];
  statistics.clear();
  EncodeSSTableStats(stats, &statistics);
  return AssembleSSTable(blocks, sections, parts.footer.format_version);
}

std::string WithIndexBlock(const SSTableParts& parts, std::string_view payload) {
  std::string blocks = parts.file.substr(0, parts.blocks_end);
  const BlockHandle h{blocks.size(), payload.size() + kBlockTrailerSize};
  blocks += payload;
  AppendBlockTrailer(payload, BlockType::kRaw, &blocks);
  // The summary keys the block by its first entry, as the writer does.
  IndexSummaryEntry entry;
  std::string_view in = payload;
  PartitionIndexEntry first;
  if (DecodePartitionIndexEntry(&in, &first)) entry.first_key = first.sort_key;
  entry.handle = h;
  std::array<std::string, 4> sections = parts.sections;
  std::string& summary = sections[SectionIndex(SectionType::kIndexSummary)];
  summary.clear();
  IndexSummary({entry}).EncodeTo(&summary);
  return AssembleSSTable(blocks, sections, parts.footer.format_version);
}

std::string WithSection(const SSTableParts& parts, SectionType type, std::string_view bytes) {
  std::array<std::string, 4> sections = parts.sections;
  sections[SectionIndex(type)] = std::string(bytes);
  return AssembleSSTable(std::string_view(parts.file).substr(0, parts.blocks_end), sections,
                         parts.footer.format_version);
}

std::string WithFooter(const SSTableParts& parts, std::string_view footer) {
  std::string out = parts.file.substr(0, parts.file.size() - kFooterSize);
  const size_t start = out.size();
  out += footer;
  if (footer.size() == kFooterSize) {
    const size_t checked = kMaxSections * kSectionEntrySize + 4;
    std::string checksum;
    PutFixed32(&checksum, Checksum32(std::string_view(out).substr(start, checked)));
    out.replace(start + checked, checksum.size(), checksum);
  }
  return out;
}

Status ExerciseSSTable(std::string_view file, const std::vector<PartitionUpdate>& keys) {
  std::shared_ptr<MemFileSystem> fs = NewMemFileSystem();
  {
    auto out = fs->NewWritableFile(kPath);
    if (!out.ok() || !(*out)->Append(file).ok() || !(*out)->Close().ok()) std::abort();
  }
  auto reader = SSTableReader::Open(fs.get(), kPath, nullptr);
  if (!reader.ok()) {
    CheckError(reader.status());
    return reader.status();
  }
  Status read = ReadEverything(**reader, keys);
  CheckError(read);
  Status verify = (*reader)->VerifyChecksums();
  CheckError(verify);
  return read.ok() ? verify : read;
}

}  // namespace cassette::fuzz
