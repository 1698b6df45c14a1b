#include "engine/compaction/compaction_range_tombstones.h"

#include <gtest/gtest.h>

#include "tests/compaction/compaction_data_test_util.h"

namespace cassette {
namespace {

using namespace compaction_data_test;  // NOLINT: test builders

std::string Text(const std::vector<RangeTombstone>& rts) {
  PartitionUpdate p;
  p.range_tombstones = rts;
  return PartitionText(p);
}

TEST(NormalizeRangeTombstones, DropsDuplicatesContainedWeakerAndPartitionShadowed) {
  uint64_t dropped = 0;
  auto out = NormalizeRangeTombstones(
      {
          Rt(5, 6, Del(25, 1)), Rt(1, 10, Del(20, 1)), Rt(1, 10, Del(20, 1)),  // duplicate
          Rt(3, 4, Del(20, 1)),                                                // inside, as strong
          Rt(2, 3, Del(19, 9)),                                                // inside, weaker
          Rt(8, 20, Del(21, 1)),                                               // overlaps only
          Rt(30, 31, Del(10, 1)),        // = partition deletion
          Rt(32, 33, Del(10, 2)),        // same ts, later ldt: supersedes it, kept
          Rt(40, 40, Del(50, 1), false)  // [40, 40): covers nothing
      },
      Del(10, 1), &dropped);
  EXPECT_EQ(Text(out), " rt[1,10]=20/1 rt[5,6]=25/1 rt[8,20]=21/1 rt[32,33]=10/2");
  EXPECT_EQ(dropped, 5u);
}

TEST(NormalizeRangeTombstones, UnboundedEndsContainBoundedOnes) {
  RangeTombstone open_end;
  open_end.range.start = Bound{Ck(3), false};
  open_end.deletion = Del(20, 1);
  RangeTombstone everything;
  everything.deletion = Del(15, 1);
  auto out =
      NormalizeRangeTombstones({Rt(4, 9, Del(20, 1)), open_end, everything, Rt(1, 2, Del(14, 1))},
                               DeletionTime::Live(), nullptr);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], everything);
  EXPECT_EQ(out[1], open_end);
}

TEST(CoveringRangeTombstones, StrongestCoveringDeletionRowByRow) {
  CoveringRangeTombstones covering(
      {Rt(5, 8, Del(30, 1)), Rt(1, 6, Del(20, 1)), Rt(7, 9, Del(10, 1), /*hi_inclusive=*/false)});
  EXPECT_TRUE(covering.Covering(Ck(0)).IsLive());
  EXPECT_EQ(covering.Covering(Ck(1)), Del(20, 1));
  EXPECT_EQ(covering.Covering(Ck(4)), Del(20, 1));
  EXPECT_EQ(covering.Covering(Ck(5)), Del(30, 1));
  EXPECT_EQ(covering.Covering(Ck(8)), Del(30, 1));
  // [7, 9) stops short of 9.
  EXPECT_TRUE(covering.Covering(Ck(9)).IsLive());
  EXPECT_TRUE(covering.Covering(Ck(100)).IsLive());
}

TEST(CoveringRangeTombstones, PrefixBoundsCoverEveryRowStartingWithThePrefix) {
  RangeTombstone prefix;
  prefix.range.start = Bound{Ck(2), true};
  prefix.range.end = Bound{Ck(2), true};
  prefix.deletion = Del(5, 1);
  CoveringRangeTombstones covering({prefix});
  EXPECT_TRUE(covering.Covering(Ck(1) + Ck(9)).IsLive());
  EXPECT_EQ(covering.Covering(Ck(2) + Ck(0)), Del(5, 1));
  EXPECT_EQ(covering.Covering(Ck(2) + Ck(7)), Del(5, 1));
  EXPECT_TRUE(covering.Covering(Ck(3) + Ck(0)).IsLive());
}

}  // namespace
}  // namespace cassette
