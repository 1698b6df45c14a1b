// Shared by the SSTable fuzz targets and the seed generator: a template
// SSTable written by SSTableWriter, split into the components FORMAT.md
// defines (blocks, chunk offsets, index summary, bloom filter, statistics,
// footer), a way to put a file back together with one component replaced
// (checksums made good, so the bytes reach the component's decoder), and
// the reads a client could make of a file.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/mutation/partition_update.h"
#include "engine/sstable/chunk_offsets.h"
#include "engine/sstable/index_summary.h"
#include "engine/sstable/sstable_format.h"
#include "engine/sstable/sstable_stats.h"

namespace cassette::fuzz {

// The four sections in the order the writer lays them out.
inline constexpr std::array<SectionType, 4> kSectionOrder = {
    SectionType::kChunkOffsets, SectionType::kIndexSummary, SectionType::kBloomFilter,
    SectionType::kStatistics};

struct SSTableParts {
  std::string file;
  std::vector<PartitionUpdate> partitions;
  uint64_t blocks_end = 0;
  // Section bytes, indexed like kSectionOrder.
  std::array<std::string, 4> sections;
  Footer footer;
  ChunkOffsets chunks;
  IndexSummary summary;
  SSTableStats stats;
  // The uncompressed data stream and the payloads of the index blocks.
  std::string data_stream;
  std::vector<std::string> index_blocks;
};

// Writes `partition_count` generated partitions (one of them large enough
// for row index nodes) with small chunks and row blocks, and splits the
// file. `seed` picks the data; `compress` the chunks' storage.
Result<SSTableParts> MakeSSTable(uint64_t seed, size_t partition_count, bool compress);

// blocks || sections (in kSectionOrder, each replaced by the non-null
// entry of `sections`) || footer with offsets, lengths and checksums made
// good.
std::string AssembleSSTable(std::string_view blocks, const std::array<std::string, 4>& sections,
                            uint32_t format_version);

// `parts` with its data stream replaced by `stream`, stored as raw chunks
// of the template's chunk length after the template's blocks; the chunk
// offsets and the statistics' data size follow it. The partition index
// still points where the template's partitions were.
std::string WithDataStream(const SSTableParts& parts, std::string_view stream);
// `parts` with one partition index block whose payload is `payload`
// (appended as a raw block) and an index summary naming only it.
std::string WithIndexBlock(const SSTableParts& parts, std::string_view payload);
// `parts` with the section of `type` replaced by `bytes`.
std::string WithSection(const SSTableParts& parts, SectionType type, std::string_view bytes);
// `parts` with the footer replaced by `footer` (its checksum made good
// when it is footer-sized; any other size is appended as is).
std::string WithFooter(const SSTableParts& parts, std::string_view footer);

// Opens `file` as an SSTable and makes every read a client could: stats,
// Describe, bloom probes, whole partitions and slices forward and reversed
// for every key in `keys` and every key a scan finds, a full scan, and a
// checksum verification. Aborts (a fuzz finding) when an error is not
// Corruption naming the file and an offset; returns the first error.
Status ExerciseSSTable(std::string_view file, const std::vector<PartitionUpdate>& keys);

}  // namespace cassette::fuzz
