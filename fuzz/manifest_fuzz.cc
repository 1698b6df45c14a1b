// libFuzzer target: the MANIFEST decoder (schema + live SSTables). A damaged
// manifest must be reported as Corruption, never crash the open.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/db/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  cassette::ManifestState state;
  cassette::Status s =
      cassette::DecodeManifest(std::string_view(reinterpret_cast<const char*>(data), size), &state);
  if (!s.ok() && !s.IsCorruption()) std::abort();
  return 0;
}
