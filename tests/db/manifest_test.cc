// The manifest codec: a round trip of every field, version 1 manifests
// (before per-SSTable start bounds) still read, and corruption detected.
#include "engine/db/manifest.h"

#include <gtest/gtest.h>

#include "engine/schema/table_schema_internals.h"
#include "engine/util/checksum.h"
#include "engine/util/coding.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

// A manifest of `version` around `payload` (magic, version, length,
// payload, checksum), as an older build wrote it.
std::string Reframed(std::string_view payload, uint32_t version) {
  std::string out;
  PutFixed32(&out, 0x464d5343);  // "CSMF"
  PutFixed32(&out, version);
  PutFixed32(&out, static_cast<uint32_t>(payload.size()));
  out.append(payload);
  PutFixed32(&out, Checksum32(payload));
  return out;
}

ManifestState SampleState() {
  ManifestState state;
  state.next_table_id = 3;
  state.next_generation = 42;
  state.keyspaces["ks"] = KeyspaceSchema{.name = "ks"};
  TableState table;
  table.schema = SimpleTable();
  TableSchemaInternals::SetId(table.schema, 2);
  table.persisted = {7, 1234};
  table.sstables = {{5, 0, std::nullopt},
                    {9, 2, std::optional<int64_t>(-42)},
                    {11, 1, std::optional<int64_t>(INT64_MIN)}};
  state.tables[2] = table;
  return state;
}

TEST(ManifestTest, RoundTripsEveryField) {
  ManifestState state = SampleState();
  state.tables[2].counters = {1000, 700, 1400, 3, 2, 55, 9};
  state.commitlog_first_segment = 17;
  std::string encoded;
  EncodeManifest(state, &encoded);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(encoded, &decoded));
  EXPECT_EQ(decoded.tables[2].counters, state.tables.at(2).counters);
  EXPECT_EQ(decoded.next_table_id, 3u);
  EXPECT_EQ(decoded.next_generation, 42u);
  EXPECT_EQ(decoded.commitlog_first_segment, 17u);
  ASSERT_EQ(decoded.tables.count(2), 1u);
  EXPECT_EQ(decoded.tables[2].sstables, state.tables.at(2).sstables);
  EXPECT_EQ(decoded.tables[2].persisted.offset, 1234u);
}

TEST(ManifestTest, RoundTripsSSTablesOutOfService) {
  ManifestState state = SampleState();
  state.tables[2].out_of_service = {
      {4, "open", "Corruption: sstable /db/ks/t-2/000004.sst: truncated footer at offset 12"},
      {8, "read", ""}};
  std::string encoded;
  EncodeManifest(state, &encoded);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(encoded, &decoded));
  EXPECT_EQ(decoded.tables[2].out_of_service, state.tables[2].out_of_service);
  EXPECT_EQ(decoded.tables[2].sstables, state.tables[2].sstables);
}

TEST(ManifestTest, ReadsVersionFourWithoutSSTablesOutOfService) {
  ManifestState state = SampleState();
  std::string v5;
  EncodeManifest(state, &v5);
  std::string_view in(v5);
  uint32_t magic, version, length;
  ASSERT_TRUE(GetFixed32(&in, &magic) && GetFixed32(&in, &version) && GetFixed32(&in, &length));
  ASSERT_EQ(version, 5u);
  // The one table's count of SSTables out of service (0) is the last byte;
  // the three device counters (0: a byte each) follow the log's first
  // segment.
  std::string v4_payload(in.substr(0, length - 1));
  v4_payload.erase(3, 3);
  const std::string v4 = Reframed(v4_payload, 4);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(v4, &decoded));
  EXPECT_EQ(decoded.tables[2].sstables, state.tables[2].sstables);
  EXPECT_TRUE(decoded.tables[2].out_of_service.empty());
}

TEST(ManifestTest, ReadsVersionTwoWithoutCounters) {
  ManifestState state = SampleState();
  std::string v3;
  EncodeManifest(state, &v3);
  std::string_view in(v3);
  uint32_t magic, version, length;
  ASSERT_TRUE(GetFixed32(&in, &magic) && GetFixed32(&in, &version) && GetFixed32(&in, &length));
  // The last table's seven zero counters, then its count of SSTables out
  // of service (0: one byte), are the payload's last bytes; the commit
  // log's first segment (one byte) and the three device counters (zero: a
  // byte each) follow the header's two counters, as only versions 4 and 5
  // have them.
  std::string v2_payload(in.substr(0, length - 7 - 1));
  v2_payload.erase(2, 4);
  const std::string v2 = Reframed(v2_payload, 2);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(v2, &decoded));
  EXPECT_EQ(decoded.tables[2].sstables, state.tables[2].sstables);
  EXPECT_EQ(decoded.tables[2].counters, TableCounters{});
}

TEST(ManifestTest, ReadsVersionThreeWithoutTheLogStart) {
  ManifestState state = SampleState();
  std::string v4;
  EncodeManifest(state, &v4);
  std::string_view in(v4);
  uint32_t magic, version, length;
  ASSERT_TRUE(GetFixed32(&in, &magic) && GetFixed32(&in, &version) && GetFixed32(&in, &length));
  // Without the count of SSTables out of service (0: the last byte).
  std::string v3_payload(in.substr(0, length - 1));
  v3_payload.erase(2, 4);  // the log's first segment and the device counters
  const std::string v3 = Reframed(v3_payload, 3);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(v3, &decoded));
  EXPECT_EQ(decoded.commitlog_first_segment, 0u);
  EXPECT_EQ(decoded.tables[2].sstables, state.tables[2].sstables);
}

TEST(ManifestTest, DeviceCountersRoundTripAndVersionFourHasNone) {
  ManifestState state = SampleState();
  state.device = DeviceCounters{123456789012ull, 98765ull, 4321ull};
  std::string v5;
  EncodeManifest(state, &v5);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(v5, &decoded));
  EXPECT_EQ(decoded.device, state.device);

  state.device = DeviceCounters{};
  v5.clear();
  EncodeManifest(state, &v5);
  std::string_view in(v5);
  uint32_t magic, version, length;
  ASSERT_TRUE(GetFixed32(&in, &magic) && GetFixed32(&in, &version) && GetFixed32(&in, &length));
  std::string v4_payload(in.substr(0, length - 1));  // less the out-of-service count
  v4_payload.erase(3, 3);                            // the three device counters, zero
  const std::string v4 = Reframed(v4_payload, 4);
  ASSERT_OK(DecodeManifest(v4, &decoded));
  EXPECT_EQ(decoded.device, DeviceCounters{});
  EXPECT_EQ(decoded.commitlog_first_segment, state.commitlog_first_segment);
  EXPECT_EQ(decoded.tables[2].sstables, state.tables[2].sstables);
}

TEST(ManifestTest, ReadsVersionOneWithoutStartBounds) {
  // Re-encode the payload as version 1 wrote it: no bound byte per SSTable.
  ManifestState state = SampleState();
  for (SSTableEntry& entry : state.tables[2].sstables) entry.start_after_token.reset();
  std::string v3;
  EncodeManifest(state, &v3);
  std::string_view in(v3);
  uint32_t magic, version, length;
  ASSERT_TRUE(GetFixed32(&in, &magic) && GetFixed32(&in, &version) && GetFixed32(&in, &length));
  ASSERT_EQ(version, 5u);
  // Version 5 has the commit log's first segment and three device counters
  // after the header's two counters (a byte each here); it ends the table
  // with seven counters (zero: a byte each), then the count of SSTables
  // out of service (0: a byte); unbounded entries end in a 0 byte each,
  // which version 1 did not have. The three entries come just before the
  // counters (generation, level, 0).
  std::string payload(in.substr(0, length));
  std::string v1_payload = payload.substr(0, payload.size() - 1 - 7 - 9);
  v1_payload.erase(2, 4);
  for (const SSTableEntry& entry : state.tables[2].sstables) {
    PutVarint64(&v1_payload, entry.generation);
    PutVarint32(&v1_payload, entry.level);
  }
  const std::string v1 = Reframed(v1_payload, 1);
  ManifestState decoded;
  ASSERT_OK(DecodeManifest(v1, &decoded));
  EXPECT_EQ(decoded.tables[2].sstables, state.tables[2].sstables);
}

TEST(ManifestTest, CorruptionIsDetected) {
  std::string encoded;
  EncodeManifest(SampleState(), &encoded);
  for (size_t i = 0; i < encoded.size(); i += 7) {
    std::string damaged = encoded;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    ManifestState decoded;
    EXPECT_FALSE(DecodeManifest(damaged, &decoded).ok()) << "byte " << i;
  }
  ManifestState decoded;
  EXPECT_FALSE(DecodeManifest(encoded.substr(0, encoded.size() - 1), &decoded).ok());
}

}  // namespace
}  // namespace cassette::testing
