#include "engine/read/paging_state.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

PagingState Sample() {
  PagingState s;
  s.key_index = 3;
  s.partition = DecoratedKey{-42, std::string("\x00\x01\xff", 3)};
  s.last_clustering = std::string("\x80\x00\x00\x07", 4);
  s.partition_done = false;
  s.rows_returned = 12;
  s.rows_in_partition = 2;
  return s;
}

TEST(PagingStateTest, RoundTrips) {
  PagingState s = Sample();
  Result<PagingState> back = PagingState::Decode(s.Encode());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, s);

  PagingState done;
  done.partition = DecoratedKey{INT64_MIN, ""};
  done.partition_done = true;
  done.rows_returned = 1;
  done.rows_in_partition = 1;
  back = PagingState::Decode(done.Encode());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, done);
  EXPECT_FALSE(back->last_clustering.has_value());
}

TEST(PagingStateTest, RejectsEveryTruncationAndGarbage) {
  std::string encoded = Sample().Encode();
  for (size_t n = 0; n < encoded.size(); ++n) {
    Result<PagingState> r = PagingState::Decode(encoded.substr(0, n));
    ASSERT_FALSE(r.ok()) << "prefix of " << n << " bytes";
    EXPECT_TRUE(r.status().IsInvalidRequest());
    EXPECT_EQ(r.status().message(), "Invalid value for the paging state");
  }
  EXPECT_FALSE(PagingState::Decode(encoded + "x").ok());
  std::string bad_version = encoded;
  bad_version[0] = 9;
  EXPECT_FALSE(PagingState::Decode(bad_version).ok());
  std::string bad_flags = encoded;
  bad_flags[1] = static_cast<char>(0x80);
  EXPECT_FALSE(PagingState::Decode(bad_flags).ok());
}

}  // namespace
}  // namespace cassette
