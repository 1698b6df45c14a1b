#include "engine/schema/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/types/type_codec.h"

namespace cassette {
namespace {

std::string I(int32_t v) { return Value::Int(v).bytes(); }
std::string T(std::string_view v) { return Value::Text(v).bytes(); }

TableSchema SingleKey() {
  TableSchema t("ks", "t");
  t.AddPartitionKey("k", DataType::Int()).AddRegular("v", DataType::Int());
  return t;
}

TableSchema CompositeKey() {
  TableSchema t("ks", "t");
  t.AddPartitionKey("a", DataType::Int())
      .AddPartitionKey("b", DataType::Text())
      .AddClustering("c1", DataType::Text())
      .AddClustering("c2", DataType::Int(), ClusteringOrder::kDesc)
      .AddRegular("v", DataType::Int());
  return t;
}

TEST(PartitionKey, SingleColumnIsTheRawValue) {
  TableSchema t = SingleKey();
  auto key = SerializePartitionKey(t, {I(42)});
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, I(42));
  auto back = DeserializePartitionKey(t, *key);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, (std::vector<std::string>{I(42)}));
}

TEST(PartitionKey, CompositeIsCassandrasCompositeType) {
  TableSchema t = CompositeKey();
  auto key = SerializePartitionKey(t, {I(1), T("xy")});
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, std::string("\x00\x04\x00\x00\x00\x01\x00\x00\x02xy\x00", 12));
  std::vector<std::string> parts;
  ASSERT_TRUE(DeserializePartitionKey(t, *key, &parts).ok());
  EXPECT_EQ(parts, (std::vector<std::string>{I(1), T("xy")}));
  // Empty components are allowed inside a composite key.
  ASSERT_TRUE(SerializePartitionKey(t, {I(1), T("")}).ok());
}

TEST(PartitionKey, Errors) {
  TableSchema single = SingleKey();
  TableSchema text("ks", "t");
  text.AddPartitionKey("k", DataType::Text());
  EXPECT_EQ(SerializePartitionKey(text, {""}).status().message(), "Key may not be empty");
  EXPECT_EQ(SerializePartitionKey(text, {std::string(65536, 'x')}).status().message(),
            "Key length of 65536 is longer than maximum of 65535");
  EXPECT_TRUE(SerializePartitionKey(text, {std::string(65535, 'x')}).ok());
  EXPECT_TRUE(SerializePartitionKey(single, {I(1), I(2)}).status().IsInvalidRequest());
  TableSchema c = CompositeKey();
  EXPECT_EQ(SerializePartitionKey(c, {I(1), std::string(65536, 'x')}).status().message(),
            "Key length of 65536 is longer than maximum of 65535");
  EXPECT_EQ(SerializePartitionKey(c, {I(1), std::string(65530, 'x')}).status().message(),
            "Key length of 65540 is longer than maximum of 65535");
  std::string key = SerializePartitionKey(c, {I(1), T("xy")}).value();
  for (size_t cut = 0; cut < key.size(); ++cut) {
    EXPECT_TRUE(DeserializePartitionKey(c, key.substr(0, cut)).status().IsCorruption()) << cut;
  }
  std::string bad = key;
  bad[6] = 1;  // end-of-component byte
  EXPECT_TRUE(DeserializePartitionKey(c, bad).status().IsCorruption());
  EXPECT_TRUE(DeserializePartitionKey(c, key + "x").status().IsCorruption());
}

TEST(Clustering, RoundTripsAndHonoursDesc) {
  TableSchema t = CompositeKey();
  std::string enc = EncodeClustering(t, {T("a"), I(5)});
  std::vector<std::string> parts;
  ASSERT_TRUE(DecodeClustering(t, enc, &parts).ok());
  EXPECT_EQ(parts, (std::vector<std::string>{T("a"), I(5)}));
  // c2 is DESC: larger values sort first within the same c1.
  EXPECT_LT(EncodeClustering(t, {T("a"), I(9)}), EncodeClustering(t, {T("a"), I(5)}));
  EXPECT_LT(EncodeClustering(t, {T("a"), I(-9)}), EncodeClustering(t, {T("b"), I(100)}));
  // A prefix is a byte prefix of every clustering starting with it.
  std::string prefix = EncodeClustering(t, {T("a")});
  EXPECT_EQ(enc.compare(0, prefix.size(), prefix), 0);
  auto decoded_prefix = DecodeClustering(t, prefix);
  ASSERT_TRUE(decoded_prefix.ok());
  EXPECT_EQ(*decoded_prefix, (std::vector<std::string>{T("a")}));
  EXPECT_TRUE(DecodeClustering(t, "").value().empty());
  EXPECT_TRUE(DecodeClustering(t, enc + "junk").status().IsCorruption());
  EXPECT_TRUE(DecodeClustering(t, enc.substr(0, enc.size() - 1)).status().IsCorruption());
}

TEST(Clustering, MemcmpOrderIsClusteringOrder) {
  TableSchema t = CompositeKey();
  std::mt19937 rng(11);
  std::vector<std::pair<std::string, int32_t>> rows;
  for (int i = 0; i < 300; ++i) {
    std::string s(rng() % 3, 'a');
    for (char& ch : s) ch = static_cast<char>('a' + rng() % 3);
    rows.emplace_back(s, static_cast<int32_t>(rng() % 7) - 3);
  }
  std::vector<std::pair<std::string, std::pair<std::string, int32_t>>> encoded;
  for (const auto& r : rows) encoded.push_back({EncodeClustering(t, {T(r.first), I(r.second)}), r});
  std::sort(encoded.begin(), encoded.end());
  for (size_t i = 1; i < encoded.size(); ++i) {
    const auto& a = encoded[i - 1].second;
    const auto& b = encoded[i].second;
    // c1 ascending, then c2 descending.
    EXPECT_TRUE(a.first < b.first || (a.first == b.first && a.second >= b.second))
        << a.first << "," << a.second << " then " << b.first << "," << b.second;
  }
}

// From public Values: the same bytes as from serialized components, and
// each value checked against its column with Cassandra's messages (the
// messages of CQL's UPDATE/INSERT/SELECT key checks).
TEST(KeyValues, EncodeAsTheSerializedComponents) {
  TableSchema t = CompositeKey();
  auto key = EncodePartitionKeyValues(t, {Value::Int(7), Value::Text("x")});
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(*key, *SerializePartitionKey(t, {I(7), T("x")}));
  auto clustering = EncodeClusteringValues(t, {Value::Text("a"), Value::Int(3)});
  ASSERT_TRUE(clustering.ok()) << clustering.status().ToString();
  EXPECT_EQ(*clustering, EncodeClustering(t, {T("a"), I(3)}));
  // A suffix from the second clustering column is the tail of the whole.
  auto suffix = EncodeClusteringValues(t, {Value::Int(3)}, 1);
  ASSERT_TRUE(suffix.ok());
  EXPECT_EQ(*EncodeClusteringValues(t, {Value::Text("a")}) + *suffix, *clustering);
}

TEST(KeyValues, RefuseWhatDoesNotFitTheColumns) {
  TableSchema t = CompositeKey();
  EXPECT_EQ(EncodePartitionKeyValues(t, {Value::Int(7)}).status().message(),
            "Some partition key parts are missing: b");
  EXPECT_EQ(EncodePartitionKeyValues(t, {Value::Int(7), Value::Text("x"), Value::Int(1)})
                .status()
                .message(),
            "Too many partition key values: expected 2");
  EXPECT_EQ(EncodePartitionKeyValues(t, {Value::Int(7), Value::Null(DataType::Text())})
                .status()
                .message(),
            "Invalid null value for partition key part b");
  EXPECT_EQ(EncodePartitionKeyValues(t, {Value::Text("7"), Value::Text("x")}).status().message(),
            "Invalid value for partition key part a: expected int, got text");
  EXPECT_EQ(EncodeClusteringValues(t, {Value::Text("a"), Value::Int(1), Value::Int(2)})
                .status()
                .message(),
            "Too many clustering values: the table has 2 clustering columns");
  EXPECT_EQ(EncodeClusteringValues(t, {Value::Int(1)}, 2).status().message(),
            "Too many clustering values: the table has 2 clustering columns");
  EXPECT_EQ(EncodeClusteringValues(t, {Value::Text(std::string(65536, 'x'))}).status().message(),
            "Key length of 65536 is longer than maximum of 65535");
  EXPECT_TRUE(EncodePartitionKeyValues(SingleKey(), {Value::Int(1), Value::Int(2)})
                  .status()
                  .IsInvalidRequest());
}

TEST(KeyValues, AppendLeavesTheOutputAsItWasOnError) {
  TableSchema t = CompositeKey();
  const ColumnDefinition& c2 = t.columns()[t.clustering()[1]];
  std::string out = "prefix";
  EXPECT_FALSE(AppendClusteringValue(c2, Value::Text("not an int"), &out).ok());
  EXPECT_FALSE(AppendClusteringValue(c2, Value::Null(DataType::Int()), &out).ok());
  EXPECT_EQ(out, "prefix");
  ASSERT_TRUE(AppendClusteringValue(c2, Value::Int(5), &out).ok());
  EXPECT_EQ(out, "prefix" + *EncodeClusteringValues(t, {Value::Int(5)}, 1));
}

}  // namespace
}  // namespace cassette
