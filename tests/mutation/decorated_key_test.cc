// DecoratedKey: Cassandra's Murmur3 tokens and the memcmp-ordered sort key.
#include "engine/mutation/decorated_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

std::string Int(int32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(static_cast<uint32_t>(v) >> (8 * (3 - i)));
  return s;
}

// docs/SEMANTICS.md §8 vectors.
TEST(DecoratedKeyTest, TokensMatchCassandra) {
  EXPECT_EQ(DecoratedKey::FromKey(Int(0)).token, -3485513579396041028);
  EXPECT_EQ(DecoratedKey::FromKey(Int(1)).token, -4069959284402364209);
  EXPECT_EQ(DecoratedKey::FromKey(Int(2)).token, -3248873570005575792);
  EXPECT_EQ(DecoratedKey::FromKey(Int(3)).token, 9010454139840013625);
  EXPECT_EQ(DecoratedKey::FromKey(Int(4)).token, -2729420104000364805);
  EXPECT_EQ(DecoratedKey::FromKey(Int(5)).token, -7509452495886106294);
  EXPECT_EQ(DecoratedKey::FromKey(Int(-1)).token, 7297452126230313552);
  EXPECT_EQ(DecoratedKey::FromKey(Int(42)).token, -7160136740246525330);
  EXPECT_EQ(DecoratedKey::FromKey("a").token, -8839064797231613815);
  EXPECT_EQ(DecoratedKey::FromKey("abc").token, -5434086359492102041);
  std::string composite = std::string("\x00\x04", 2) + Int(1) + std::string(1, '\0') +
                          std::string("\x00\x04", 2) + Int(2) + std::string(1, '\0');
  EXPECT_EQ(DecoratedKey::FromKey(composite).token, 4881097376275569167);
  DecoratedKey k = DecoratedKey::FromKey("abc");
  EXPECT_EQ(k.key, "abc");
}

TEST(DecoratedKeyTest, SortKeyLayout) {
  DecoratedKey k{0, "xy"};
  EXPECT_EQ(k.SortKey(), std::string("\x80\x00\x00\x00\x00\x00\x00\x00xy", 10));
  DecoratedKey min{INT64_MIN, ""};
  EXPECT_EQ(min.SortKey(), std::string(8, '\0'));
  DecoratedKey neg{-1, "\xff"};
  EXPECT_EQ(neg.SortKey(), std::string("\x7f\xff\xff\xff\xff\xff\xff\xff\xff", 9));
}

TEST(DecoratedKeyTest, SortKeyOrderIsPartitionOrderAndRoundTrips) {
  uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  Random rnd(seed);
  std::vector<DecoratedKey> keys;
  const int64_t special[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX};
  for (int i = 0; i < 300; ++i) {
    std::string key = rnd.Bytes(rnd.Uniform(4));
    // Many equal tokens so that the key bytes decide, including bytes >= 0x80.
    int64_t token = rnd.OneIn(2) ? special[rnd.Uniform(6)] : static_cast<int64_t>(rnd.Next());
    keys.push_back(DecoratedKey{token, key});
  }
  for (const DecoratedKey& a : keys) {
    ASSERT_EQ(DecoratedKey::FromSortKey(a.SortKey()), a);
    for (const DecoratedKey& b : keys) {
      ASSERT_EQ(a < b, a.SortKey() < b.SortKey());
    }
  }
}

TEST(DecoratedKeyTest, FromSortKeyToleratesShortInput) {
  DecoratedKey k = DecoratedKey::FromSortKey(std::string("\x80\x00", 2));
  EXPECT_EQ(k.token, 0);
  EXPECT_TRUE(k.key.empty());
  EXPECT_EQ(DecoratedKey::FromSortKey("").token, INT64_MIN);
}

}  // namespace
}  // namespace cassette
