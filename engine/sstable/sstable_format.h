// On-disk constants of the SSTable file and the codecs of its smallest
// pieces: block handles, the block trailer and the footer. Layout and the
// meaning of every field: engine/sstable/FORMAT.md. Pure functions over
// bytes; no I/O here.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"

namespace cassette {

// The last 8 bytes of every SSTable: "CSTSST01" read as a little-endian u64.
inline constexpr uint64_t kSSTableMagic = 0x3130545353545343ULL;
// Written by this code; readers also read every version from
// kOldestSSTableFormatVersion on (FORMAT.md, "Versioning").
inline constexpr uint32_t kSSTableFormatVersion = 3;
inline constexpr uint32_t kOldestSSTableFormatVersion = 1;

// Trailer after every block (data chunk, partition index block, row index
// node): a type byte and Checksum32 over the payload and the type byte.
inline constexpr size_t kBlockTrailerSize = 5;

// Block types. On disk: do not renumber; retired values stay reserved.
enum class BlockType : uint8_t {
  kRaw = 0,   // payload stored as is
  kZstd = 1,  // payload is one zstd frame
};

// Section types listed in the footer's table of contents. On disk: do not
// renumber; retired values stay reserved. 0 marks an unused TOC slot.
enum class SectionType : uint32_t {
  kNone = 0,
  kChunkOffsets = 1,  // Cassandra's CompressionInfo.db
  kIndexSummary = 2,  // Cassandra's Summary.db (first key of each index block)
  kBloomFilter = 3,   // Cassandra's Filter.db
  kStatistics = 4,    // Cassandra's Statistics.db
};

// Where a block or section lives in the file.
struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;  // bytes on disk, trailer included for blocks
  friend bool operator==(const BlockHandle&, const BlockHandle&) = default;
};

void EncodeBlockHandle(const BlockHandle& h, std::string* out);
bool DecodeBlockHandle(std::string_view* in, BlockHandle* h);

// Appends the trailer of `payload` stored as `type`; `payload` may be *out itself.
void AppendBlockTrailer(std::string_view payload, BlockType type, std::string* out);
// Splits a stored block into payload and type after checking its checksum.
// `what` and `offset` only shape the error message.
Status CheckBlock(std::string_view block, const std::string& path, uint64_t offset,
                  std::string_view what, std::string_view* payload, BlockType* type);

// One entry of the table of contents.
struct SectionEntry {
  SectionType type = SectionType::kNone;
  uint32_t checksum = 0;  // Checksum32 of the section's bytes
  uint64_t offset = 0;
  uint64_t length = 0;
  friend bool operator==(const SectionEntry&, const SectionEntry&) = default;
};

inline constexpr size_t kMaxSections = 8;
inline constexpr size_t kSectionEntrySize = 24;
// TOC slots, version, footer checksum, magic.
inline constexpr size_t kFooterSize = kMaxSections * kSectionEntrySize + 4 + 4 + 8;

struct Footer {
  uint32_t format_version = kSSTableFormatVersion;
  std::array<SectionEntry, kMaxSections> sections{};

  // The entry of `type`, or nullptr.
  const SectionEntry* Find(SectionType type) const;
};

void EncodeFooter(const Footer& footer, std::string* out);
// `footer_offset` (where the footer starts in the file) shapes error messages
// and bounds the sections, which must all lie before the footer.
Status DecodeFooter(std::string_view in, const std::string& path, uint64_t footer_offset,
                    Footer* footer);

// "sstable <path>: <what> at offset <offset>" as a Corruption.
Status SSTableCorruption(const std::string& path, uint64_t offset, std::string_view what);

}  // namespace cassette
