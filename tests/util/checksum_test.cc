#include "engine/util/checksum.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

// These values are persisted in every on-disk block: they must never change
// (a new xxHash release or a refactor that changes them breaks old files).
TEST(ChecksumTest, EmptyInputMatchesPublishedXxHashValues) {
  EXPECT_EQ(Checksum32(""), 0x02CC5D05u);        // XXH32, seed 0
  EXPECT_EQ(Hash64(""), 0x2D06800538D394C2ull);  // XXH3_64bits
  Hash128 h = Hash128Of("");
  EXPECT_EQ(h.high, 0x99AA06D3014798D8ull);  // XXH3_128bits
  EXPECT_EQ(h.low, 0x6001C324468D497Full);
}

TEST(ChecksumTest, PinnedValuesForNonEmptyInput) {
  EXPECT_EQ(Checksum32("abc"), 0x32D153FFu);
  EXPECT_EQ(Hash64("abc"), 0x78AF5F94892F3950ull);
  EXPECT_EQ(Hash64("abc", 7), 0x48FF56F569E39912ull);
}

TEST(ChecksumTest, DetectsSingleBitFlips) {
  std::string data(1000, 'x');
  const uint32_t base = Checksum32(data);
  for (size_t i = 0; i < data.size(); i += 97) {
    std::string flipped = data;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x01);
    EXPECT_NE(Checksum32(flipped), base) << i;
  }
}

TEST(ChecksumTest, SeedChangesHash) {
  EXPECT_NE(Hash64("key", 0), Hash64("key", 1));
  Hash128 a = Hash128Of("key", 0);
  Hash128 b = Hash128Of("key", 1);
  EXPECT_FALSE(a.low == b.low && a.high == b.high);
}

}  // namespace
}  // namespace cassette
