#include "engine/util/murmur3.h"

#include <array>
#include <limits>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "engine/util/coding.h"

namespace cassette {
namespace {

std::string IntKey(int32_t v) {
  std::string s;
  PutBigEndian32(&s, static_cast<uint32_t>(v));
  return s;
}

// CompositeType.build: [u16 BE length][bytes][0x00] per component.
std::string Composite(std::initializer_list<std::string> parts) {
  std::string s;
  for (const auto& p : parts) {
    PutBigEndian16(&s, static_cast<uint16_t>(p.size()));
    s += p;
    s.push_back('\0');
  }
  return s;
}

// docs/SEMANTICS.md §8.
TEST(Murmur3Test, IntKeysMatchCassandra) {
  const std::array<std::pair<int32_t, int64_t>, 8> cases = {{
      {0, -3485513579396041028},
      {1, -4069959284402364209},
      {2, -3248873570005575792},
      {3, 9010454139840013625},
      {4, -2729420104000364805},
      {5, -7509452495886106294},
      {-1, 7297452126230313552},  // tail bytes >= 0x80: the sign-extension quirk
      {42, -7160136740246525330},
  }};
  for (auto [key, token] : cases) EXPECT_EQ(Murmur3Token(IntKey(key)), token) << "int " << key;
}

TEST(Murmur3Test, TextKeysMatchCassandra) {
  EXPECT_EQ(Murmur3Token("a"), -8839064797231613815);
  EXPECT_EQ(Murmur3Token("abc"), -5434086359492102041);
}

TEST(Murmur3Test, CompositeKeyMatchesCassandra) {
  EXPECT_EQ(Murmur3Token(Composite({IntKey(1), IntKey(2)})), 4881097376275569167);
}

TEST(Murmur3Test, EmptyKeyIsTheMinimumToken) {
  EXPECT_EQ(Murmur3Token(""), std::numeric_limits<int64_t>::min());
}

TEST(Murmur3Test, EveryTailLengthAndFullBlocksAreDeterministicAndDistinct) {
  // Lengths 1..40 cover every tail length with 0, 1 and 2 full blocks; with
  // high bytes the sign-extended tail path runs for each position.
  std::set<int64_t> seen;
  for (size_t len = 1; len <= 40; ++len) {
    std::string key(len, '\0');
    for (size_t i = 0; i < len; ++i) key[i] = static_cast<char>(0x80 + i * 3);
    int64_t t = Murmur3Token(key);
    EXPECT_EQ(t, Murmur3Token(key));
    EXPECT_NE(t, std::numeric_limits<int64_t>::min());
    EXPECT_TRUE(seen.insert(t).second) << len;
  }
}

TEST(Murmur3Test, SignExtensionChangesTheTokenOfHighTailBytes) {
  // 0x7f and 0x80 differ by one in the byte but by the whole sign extension
  // in the mixed word; both must hash, and differently.
  EXPECT_NE(Murmur3Token(std::string(1, '\x7f')), Murmur3Token(std::string(1, '\x80')));
}

}  // namespace
}  // namespace cassette
