// libFuzzer target: a whole .sst file of arbitrary bytes through the public
// reader (open, full and partial scans, point lookups forward and reversed,
// statistics, Describe, VerifyChecksums). Seeds are whole files the writer
// made, so most mutations meet a checksum: the per-component targets
// (sstable_component_fuzz.cc) reach past them. A Corruption naming the
// file and an offset, or data, are fine; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz/sstable_fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<cassette::PartitionUpdate> no_keys;
  (void)cassette::fuzz::ExerciseSSTable(std::string_view(reinterpret_cast<const char*>(data), size),
                                        no_keys);
  return 0;
}
