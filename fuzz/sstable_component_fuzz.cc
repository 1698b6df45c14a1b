// libFuzzer targets, one per component of the .sst file (FORMAT.md): the
// input is that component's bytes, put into a template SSTable in place of
// the template's own with every checksum made good, so the bytes reach the
// component's decoder instead of stopping at a checksum. Then every read a
// client could make. CASSETTE_FUZZ_COMPONENT picks the component (one
// executable each, see fuzz/CMakeLists.txt):
//   data           the uncompressed data stream (partitions, rows, cells)
//   index          one partition index block (entries and row index roots)
//   summary        the index summary section
//   bloom          the bloom filter section
//   statistics     the statistics section
//   chunk_offsets  the chunk offsets section
//   toc            the footer (table of contents, version, magic)
// A Corruption naming the file and an offset, or data, are fine; a crash,
// a sanitizer report or any other error is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/sstable_fuzz_support.h"

namespace {

using cassette::fuzz::SSTableParts;

const SSTableParts& Template() {
  static const SSTableParts* parts = [] {
    auto made = cassette::fuzz::MakeSSTable(1, 24, true);
    if (!made.ok()) std::abort();
    return new SSTableParts(std::move(made).value());
  }();
  return *parts;
}

std::string Assemble(const SSTableParts& t, std::string_view in) {
  using cassette::SectionType;
  const std::string_view component = CASSETTE_FUZZ_COMPONENT;
  if (component == "data") return cassette::fuzz::WithDataStream(t, in);
  if (component == "index") return cassette::fuzz::WithIndexBlock(t, in);
  if (component == "summary") return cassette::fuzz::WithSection(t, SectionType::kIndexSummary, in);
  if (component == "bloom") return cassette::fuzz::WithSection(t, SectionType::kBloomFilter, in);
  if (component == "statistics") {
    return cassette::fuzz::WithSection(t, SectionType::kStatistics, in);
  }
  if (component == "chunk_offsets") {
    return cassette::fuzz::WithSection(t, SectionType::kChunkOffsets, in);
  }
  if (component == "toc") return cassette::fuzz::WithFooter(t, in);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const SSTableParts& t = Template();
  const std::string file = Assemble(t, std::string_view(reinterpret_cast<const char*>(data), size));
  (void)cassette::fuzz::ExerciseSSTable(file, t.partitions);
  return 0;
}
