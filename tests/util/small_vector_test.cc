#include "engine/util/small_vector.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cassette {
namespace {

// Counts live instances, so a test sees every element constructed being
// destroyed exactly once.
struct Tracked {
  static inline int live = 0;
  std::string value;

  Tracked() { ++live; }
  Tracked(std::string v) : value(std::move(v)) { ++live; }  // implicit, for brevity
  Tracked(const Tracked& o) : value(o.value) { ++live; }
  Tracked(Tracked&& o) noexcept : value(std::move(o.value)) { ++live; }
  Tracked& operator=(const Tracked&) = default;
  Tracked& operator=(Tracked&&) noexcept = default;
  ~Tracked() { --live; }
  friend bool operator==(const Tracked& a, const Tracked& b) { return a.value == b.value; }
};

// Values long enough to live on the heap, so a moved-from or leaked string
// shows up under ASan.
std::string Long(int i) { return "value number " + std::to_string(i) + " beyond the SSO"; }

std::vector<std::string> Values(const SmallVector<Tracked, 2>& v) {
  std::vector<std::string> out;
  for (const Tracked& t : v) out.push_back(t.value);
  return out;
}

class SmallVectorTest : public ::testing::Test {
 protected:
  void SetUp() override { Tracked::live = 0; }
  void TearDown() override { EXPECT_EQ(Tracked::live, 0) << "elements leaked or destroyed twice"; }
};

TEST_F(SmallVectorTest, StaysInlineUpToNThenMovesToTheHeap) {
  SmallVector<Tracked, 2> v;
  EXPECT_TRUE(v.empty());
  EXPECT_TRUE(v.is_inline());
  EXPECT_EQ(v.capacity(), 2u);
  v.push_back(Long(0));
  v.emplace_back(Long(1));
  EXPECT_TRUE(v.is_inline());
  EXPECT_EQ(Tracked::live, 2);
  v.push_back(Long(2));
  EXPECT_FALSE(v.is_inline());
  EXPECT_GE(v.capacity(), 3u);
  EXPECT_EQ(Values(v), (std::vector<std::string>{Long(0), Long(1), Long(2)}));
  EXPECT_EQ(Tracked::live, 3);
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(Tracked::live, 0);
  EXPECT_FALSE(v.is_inline()) << "clear keeps the heap block, as std::vector keeps its capacity";
}

TEST_F(SmallVectorTest, PushingAnOwnElementWhileGrowingCopiesItFirst) {
  SmallVector<Tracked, 2> v{Tracked(Long(0)), Tracked(Long(1))};
  v.push_back(v[0]);  // grows: v[0] moves to the heap during the push
  v.push_back(v[2]);
  v.emplace_back(v.back());
  EXPECT_EQ(Values(v), (std::vector<std::string>{Long(0), Long(1), Long(0), Long(0), Long(0)}));
  v.resize(9, v[1]);  // grows again, filling with an own element
  EXPECT_EQ(v.size(), 9u);
  for (size_t i = 5; i < 9; ++i) EXPECT_EQ(v[i].value, Long(1));
}

TEST_F(SmallVectorTest, MovingInlineElementsMovesThemOneByOne) {
  SmallVector<Tracked, 2> a{Tracked(Long(0))};
  SmallVector<Tracked, 2> b(std::move(a));
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_TRUE(b.is_inline());
  EXPECT_EQ(Values(b), std::vector<std::string>{Long(0)});
  a.push_back(Long(5));
  EXPECT_EQ(Values(a), std::vector<std::string>{Long(5)});
  EXPECT_EQ(Tracked::live, 2);
}

TEST_F(SmallVectorTest, MovingHeapElementsStealsTheBlock) {
  SmallVector<Tracked, 2> a{Tracked(Long(0)), Tracked(Long(1)), Tracked(Long(2))};
  const Tracked* block = a.data();
  SmallVector<Tracked, 2> b(std::move(a));
  EXPECT_EQ(b.data(), block);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(a.is_inline());
  SmallVector<Tracked, 2> c{Tracked(Long(9))};
  c = std::move(b);  // inline target takes the heap block
  EXPECT_EQ(c.data(), block);
  EXPECT_EQ(Values(c), (std::vector<std::string>{Long(0), Long(1), Long(2)}));
  SmallVector<Tracked, 2> d{Tracked(Long(7)), Tracked(Long(8)), Tracked(Long(9))};
  d = std::move(c);  // a heap target frees its own block first (ASan: no leak)
  EXPECT_EQ(d.data(), block);
  SmallVector<Tracked, 2>& same = d;
  d = std::move(same);  // self-move leaves it alone
  EXPECT_EQ(d.size(), 3u);
  EXPECT_EQ(Tracked::live, 3);
}

TEST_F(SmallVectorTest, MoveAssigningInlineIntoAHeapTargetReusesItsBlock) {
  SmallVector<Tracked, 2> heap{Tracked(Long(0)), Tracked(Long(1)), Tracked(Long(2))};
  SmallVector<Tracked, 2> small{Tracked(Long(3))};
  heap = std::move(small);
  EXPECT_EQ(Values(heap), std::vector<std::string>{Long(3)});
  EXPECT_TRUE(small.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(Tracked::live, 1);
}

TEST_F(SmallVectorTest, CopiesAreDeepAndEqual) {
  SmallVector<Tracked, 2> a{Tracked(Long(0)), Tracked(Long(1)), Tracked(Long(2))};
  SmallVector<Tracked, 2> b(a);
  EXPECT_EQ(a, b);
  EXPECT_NE(a.data(), b.data());
  b[1].value = "changed";
  EXPECT_FALSE(a == b);
  EXPECT_EQ(a[1].value, Long(1));
  SmallVector<Tracked, 2> c;
  c = a;
  EXPECT_EQ(c, a);
  const SmallVector<Tracked, 2>& same = c;
  c = same;  // self-copy
  EXPECT_EQ(c, a);
  c.pop_back();
  EXPECT_FALSE(c == a) << "a prefix is not equal";
  EXPECT_EQ(Tracked::live, 8);
}

TEST_F(SmallVectorTest, InsertAndEraseKeepOrder) {
  SmallVector<Tracked, 2> v;
  v.insert(v.begin(), Long(2));
  v.insert(v.begin(), Long(0));
  auto it = v.insert(v.begin() + 1, Tracked(Long(1)));  // grows to the heap
  EXPECT_EQ(it->value, Long(1));
  v.insert(v.end(), v[0]);    // an own element, at the end
  v.insert(v.begin(), v[3]);  // an own element, in front
  EXPECT_EQ(Values(v), (std::vector<std::string>{Long(0), Long(0), Long(1), Long(2), Long(0)}));
  it = v.erase(v.begin() + 1);
  EXPECT_EQ(it->value, Long(1));
  it = v.erase(v.begin() + 1, v.begin() + 3);
  EXPECT_EQ(it->value, Long(0));
  EXPECT_EQ(Values(v), (std::vector<std::string>{Long(0), Long(0)}));
  it = v.erase(v.begin(), v.begin());
  EXPECT_EQ(it, v.begin());
  EXPECT_EQ(v.size(), 2u);
  v.erase(v.begin(), v.end());
  EXPECT_TRUE(v.empty());
}

TEST_F(SmallVectorTest, ResizeConstructsAndDestroys) {
  SmallVector<Tracked, 2> v;
  v.resize(1);
  EXPECT_TRUE(v.is_inline());
  v[0].value = Long(0);
  v.resize(4);
  EXPECT_EQ(Values(v), (std::vector<std::string>{Long(0), "", "", ""}));
  v.resize(1);
  EXPECT_EQ(Tracked::live, 1);
  EXPECT_EQ(v[0].value, Long(0)) << "shrinking keeps the front";
  v.reserve(100);
  EXPECT_GE(v.capacity(), 100u);
  EXPECT_EQ(v[0].value, Long(0));
}

TEST_F(SmallVectorTest, EraseIfRemovesMatchesAndCountsThem) {
  SmallVector<Tracked, 2> v;
  for (int i = 0; i < 7; ++i) v.push_back(Long(i));
  const size_t removed =
      erase_if(v, [](const Tracked& t) { return t.value == Long(1) || t.value == Long(4); });
  EXPECT_EQ(removed, 2u);
  EXPECT_EQ(Values(v), (std::vector<std::string>{Long(0), Long(2), Long(3), Long(5), Long(6)}));
  EXPECT_EQ(erase_if(v, [](const Tracked&) { return false; }), 0u);
  EXPECT_EQ(erase_if(v, [](const Tracked&) { return true; }), 5u);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(Tracked::live, 0);
}

TEST_F(SmallVectorTest, AtChecksBoundsAndIteratorsWalkBothWays) {
  SmallVector<int, 3> v{1, 2, 3, 4};
  EXPECT_EQ(v.at(3), 4);
  EXPECT_THROW(v.at(4), std::out_of_range);
  EXPECT_EQ(std::vector<int>(v.rbegin(), v.rend()), (std::vector<int>{4, 3, 2, 1}));
  const SmallVector<int, 3>& c = v;
  EXPECT_EQ(c.front(), 1);
  EXPECT_EQ(c.back(), 4);
  SmallVector<int, 3> from_range(c.begin() + 1, c.end());
  EXPECT_EQ(from_range, (SmallVector<int, 3>{2, 3, 4}));
  SmallVector<int, 3> filled(2, 7);
  EXPECT_EQ(filled, (SmallVector<int, 3>{7, 7}));
}

TEST_F(SmallVectorTest, SwapExchangesInlineAndHeapContents) {
  SmallVector<Tracked, 2> a{Tracked(Long(0))};
  SmallVector<Tracked, 2> b{Tracked(Long(1)), Tracked(Long(2)), Tracked(Long(3))};
  a.swap(b);
  EXPECT_EQ(Values(a), (std::vector<std::string>{Long(1), Long(2), Long(3)}));
  EXPECT_EQ(Values(b), std::vector<std::string>{Long(0)});
  EXPECT_EQ(Tracked::live, 4);
}

// The same random operations on a SmallVector and a std::vector give the
// same contents after every step.
TEST_F(SmallVectorTest, MatchesStdVectorUnderRandomOperations) {
  std::mt19937 rng(20261122);
  SmallVector<Tracked, 2> v;
  std::vector<std::string> model;
  for (int step = 0; step < 20000; ++step) {
    const std::string value = Long(step);
    switch (rng() % 9) {
      case 0:
      case 1:
        v.push_back(value);
        model.push_back(value);
        break;
      case 2: {
        const size_t at = model.empty() ? 0 : rng() % (model.size() + 1);
        v.insert(v.begin() + at, value);
        model.insert(model.begin() + at, value);
        break;
      }
      case 3:
        if (!model.empty()) {
          const size_t at = rng() % model.size();
          v.erase(v.begin() + at);
          model.erase(model.begin() + at);
        }
        break;
      case 4:
        if (!model.empty()) {
          v.pop_back();
          model.pop_back();
        }
        break;
      case 5: {
        const size_t n = rng() % 6;
        v.resize(n);
        model.resize(n);
        break;
      }
      case 6: {
        SmallVector<Tracked, 2> moved(std::move(v));
        v = std::move(moved);
        break;
      }
      case 7: {
        SmallVector<Tracked, 2> copy(v);
        v = copy;
        break;
      }
      case 8:
        if (rng() % 8 == 0) {
          v.clear();
          model.clear();
        }
        break;
    }
    ASSERT_EQ(Values(v), model) << "after step " << step;
    ASSERT_EQ(Tracked::live, static_cast<int>(model.size()));
  }
}

}  // namespace
}  // namespace cassette
