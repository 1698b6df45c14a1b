// libFuzzer target: the partition-update decoder (commit-log records and
// the row bodies of SSTables share it). Malformed input must give
// Corruption, never a crash; what decodes must re-encode to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/mutation/row_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view in = input;
  cassette::PartitionUpdate update;
  cassette::Status s = cassette::DecodePartitionUpdate(&in, &update);
  if (!s.ok()) {
    if (!s.IsCorruption() || in.size() != input.size()) std::abort();
    return 0;
  }
  std::string again;
  cassette::EncodePartitionUpdate(update, &again);
  std::string_view round = again;
  cassette::PartitionUpdate decoded;
  if (!cassette::DecodePartitionUpdate(&round, &decoded).ok() || !(decoded == update)) {
    std::abort();
  }
  return 0;
}
