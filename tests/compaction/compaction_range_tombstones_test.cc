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

}  // namespace
}  // namespace cassette
