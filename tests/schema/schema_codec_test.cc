#include "engine/schema/schema_codec.h"
#include "engine/schema/table_schema_internals.h"

#include <gtest/gtest.h>

#include <random>

namespace cassette {
namespace {

TableSchema Rich() {
  TableSchema t("telemetry", "readings");
  t.AddPartitionKey("sensor", DataType::Text())
      .AddPartitionKey("bucket", DataType::Int())
      .AddClustering("ts", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddStatic("meta", DataType::Map(DataType::Text(), DataType::Text()))
      .AddRegular("value", DataType::Double())
      .AddRegular("tags", DataType::Set(DataType::Text()))
      .AddRegular("old", DataType::Int());
  TableOptions& o = t.mutable_options();
  o.default_time_to_live = 86400;
  o.gc_grace_seconds = 3600;
  o.bloom_filter_fp_chance = 0.1;
  o.compaction = {{"class", "TimeWindowCompactionStrategy"},
                  {"compaction_window_unit", "HOURS"},
                  {"compaction_window_size", "6"}};
  o.compression = {{"class", "ZstdCompressor"}, {"compression_level", "5"}};
  o.comment = "sensor data";
  o.other = {{"caching", "{'keys': 'ALL'}"}};
  EXPECT_TRUE(t.DropColumn("old", 123456789).ok());
  TableSchemaInternals::SetId(t, 77);
  return t;
}

void ExpectSame(const TableSchema& a, const TableSchema& b) {
  EXPECT_EQ(a.id(), b.id());
  EXPECT_EQ(a.keyspace(), b.keyspace());
  EXPECT_EQ(a.name(), b.name());
  ASSERT_EQ(a.columns().size(), b.columns().size());
  for (size_t i = 0; i < a.columns().size(); ++i) {
    const ColumnDefinition& x = a.columns()[i];
    const ColumnDefinition& y = b.columns()[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.order, y.order);
    EXPECT_EQ(x.id, y.id);
  }
  EXPECT_EQ(a.partition_key(), b.partition_key());
  EXPECT_EQ(a.clustering(), b.clustering());
  EXPECT_EQ(a.dropped_columns(), b.dropped_columns());
  EXPECT_EQ(a.next_column_id(), b.next_column_id());
  const TableOptions& o = a.options();
  const TableOptions& p = b.options();
  EXPECT_EQ(o.default_time_to_live, p.default_time_to_live);
  EXPECT_EQ(o.gc_grace_seconds, p.gc_grace_seconds);
  EXPECT_EQ(o.bloom_filter_fp_chance, p.bloom_filter_fp_chance);
  EXPECT_EQ(o.compaction, p.compaction);
  EXPECT_EQ(o.compression, p.compression);
  EXPECT_EQ(o.comment, p.comment);
  EXPECT_EQ(o.other, p.other);
}

TEST(SchemaCodec, TableRoundTrip) {
  TableSchema t = Rich();
  std::string enc;
  EncodeTableSchema(t, &enc);
  std::string_view in = enc;
  TableSchema back;
  ASSERT_TRUE(DecodeTableSchema(&in, &back).ok());
  EXPECT_TRUE(in.empty());
  ExpectSame(t, back);
  EXPECT_TRUE(back.Validate().ok()) << back.Validate().message();
  // A default-constructed table round-trips too.
  TableSchema empty;
  std::string e2;
  EncodeTableSchema(empty, &e2);
  std::string_view in2 = e2;
  ASSERT_TRUE(DecodeTableSchema(&in2, &back).ok());
  ExpectSame(empty, back);
}

TEST(SchemaCodec, KeyspaceRoundTripAndConsumesOneRecord) {
  KeyspaceSchema k;
  k.name = "telemetry";
  k.replication = {{"class", "NetworkTopologyStrategy"}, {"dc1", "3"}};
  k.durable_writes = false;
  std::string enc;
  EncodeKeyspaceSchema(k, &enc);
  EncodeKeyspaceSchema(KeyspaceSchema{}, &enc);
  std::string_view in = enc;
  KeyspaceSchema a, b;
  ASSERT_TRUE(DecodeKeyspaceSchema(&in, &a).ok());
  ASSERT_TRUE(DecodeKeyspaceSchema(&in, &b).ok());
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(a.name, "telemetry");
  EXPECT_EQ(a.replication, k.replication);
  EXPECT_FALSE(a.durable_writes);
  EXPECT_EQ(b.replication, KeyspaceSchema{}.replication);
  EXPECT_TRUE(b.durable_writes);
}

TEST(SchemaCodec, TruncationsAreCorruption) {
  std::string enc;
  EncodeTableSchema(Rich(), &enc);
  for (size_t cut = 0; cut < enc.size(); ++cut) {
    std::string_view in(enc.data(), cut);
    TableSchema t;
    Status s = DecodeTableSchema(&in, &t);
    EXPECT_TRUE(s.IsCorruption()) << cut;
  }
  std::string k;
  EncodeKeyspaceSchema(KeyspaceSchema{}, &k);
  for (size_t cut = 0; cut < k.size(); ++cut) {
    std::string_view in(k.data(), cut);
    KeyspaceSchema ks;
    EXPECT_TRUE(DecodeKeyspaceSchema(&in, &ks).IsCorruption()) << cut;
  }
}

TEST(SchemaCodec, BadBytesAreCorruptionNeverACrash) {
  std::string enc;
  EncodeTableSchema(Rich(), &enc);
  std::string bad_version = enc;
  bad_version[0] = 9;
  std::string_view in = bad_version;
  TableSchema t;
  Status s = DecodeTableSchema(&in, &t);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("unknown version 9 at offset 1"), std::string::npos) << s.message();
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    std::string mutated = enc;
    for (int k = 0; k < 3; ++k) mutated[rng() % mutated.size()] = static_cast<char>(rng());
    std::string_view m = mutated;
    TableSchema out;
    Status st = DecodeTableSchema(&m, &out);
    if (!st.ok()) {
      EXPECT_TRUE(st.IsCorruption());
    }
  }
}

}  // namespace
}  // namespace cassette
