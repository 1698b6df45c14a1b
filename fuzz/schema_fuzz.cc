// libFuzzer target: the schema records (engine/schema/schema_codec.h) the
// manifest stores, and the key codec driven by the schema they decode.
// Input: a first byte whose low bit picks a keyspace record (0) or a table
// record (1); the record follows, then bytes used as a partition key and
// a clustering of the decoded table. Properties: a malformed record is
// Corruption, never a crash; a decoded record re-encodes to bytes that
// decode to the same encoding again; key bytes of any shape decode or
// give Corruption.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/schema/key_codec.h"
#include "engine/schema/schema_codec.h"

namespace {

void Fail(const char* why, const cassette::Status& s) {
  std::fprintf(stderr, "%s: %s\n", why, s.ToString().c_str());
  std::abort();
}

template <typename Schema, typename Decode, typename Encode>
bool RoundTrip(std::string_view* in, Schema* decoded, Decode decode, Encode encode) {
  const std::string_view before = *in;
  cassette::Status s = decode(in, decoded);
  if (!s.ok()) {
    if (!s.IsCorruption()) Fail("schema decoder error is not Corruption", s);
    return false;
  }
  if (in->size() > before.size()) std::abort();
  std::string once;
  encode(*decoded, &once);
  std::string_view again = once;
  Schema redecoded;
  s = decode(&again, &redecoded);
  if (!s.ok()) Fail("a decoded record does not decode once re-encoded", s);
  std::string twice;
  encode(redecoded, &twice);
  if (!again.empty() || twice != once) {
    std::fprintf(stderr, "schema record does not round-trip\n");
    std::abort();
  }
  return true;
}

void ExerciseKeys(const cassette::TableSchema& table, std::string_view rest) {
  const std::string_view key = rest.substr(0, rest.size() / 2);
  const std::string_view clustering = rest.substr(rest.size() / 2);
  std::vector<std::string> components;
  cassette::Status s = cassette::DeserializePartitionKey(table, key, &components);
  if (!s.ok() && !s.IsCorruption()) Fail("partition key decoder error is not Corruption", s);
  components.clear();
  s = cassette::DecodeClustering(table, clustering, &components);
  if (!s.ok() && !s.IsCorruption()) Fail("clustering decoder error is not Corruption", s);
  if (s.ok() && cassette::EncodeClustering(table, components) != clustering) {
    std::fprintf(stderr, "clustering does not re-encode to its bytes\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (in.empty()) return 0;
  const bool table = (in[0] & 1) != 0;
  in.remove_prefix(1);
  if (!table) {
    cassette::KeyspaceSchema keyspace;
    RoundTrip(&in, &keyspace, cassette::DecodeKeyspaceSchema, cassette::EncodeKeyspaceSchema);
    return 0;
  }
  cassette::TableSchema decoded("", "");
  if (!RoundTrip(&in, &decoded, cassette::DecodeTableSchema, cassette::EncodeTableSchema)) {
    return 0;
  }
  (void)decoded.Validate();
  ExerciseKeys(decoded, in);
  return 0;
}
