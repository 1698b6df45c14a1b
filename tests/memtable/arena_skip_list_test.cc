// ArenaSkipList: order, duplicates newest first, seeks, and the append and
// prepend fast paths, checked against a sorted vector.
#include "engine/memtable/arena_skip_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/util/random.h"
#include "tests/memtable/memtable_test_util.h"

namespace cassette {
namespace {

// Keys are (value, insertion number) records; the list orders by value only.
struct Item {
  int value;
  int serial;
};
struct ItemComparator {
  int operator()(const Item* item, int target) const {
    return item->value < target ? -1 : (item->value > target ? 1 : 0);
  }
};
using List = ArenaSkipList<const Item*, int, ItemComparator>;

class SkipListModel {
 public:
  SkipListModel() : list_(ItemComparator(), &arena_) {}

  void Insert(int value) {
    items_.push_back(std::make_unique<Item>(Item{value, serial_++}));
    list_.Insert(items_.back().get(), value);
    // Newest first among equal values.
    auto pos = std::lower_bound(expected_.begin(), expected_.end(), value,
                                [](const Item* a, int v) { return a->value < v; });
    expected_.insert(pos, items_.back().get());
  }

  std::vector<const Item*> Scan() const {
    std::vector<const Item*> out;
    List::Iterator it(&list_);
    for (it.SeekToFirst(); it.Valid(); it.Next()) out.push_back(it.key());
    return out;
  }

  const List& list() const { return list_; }
  const std::vector<const Item*>& expected() const { return expected_; }

 private:
  MemtableArena arena_;
  List list_;
  std::vector<std::unique_ptr<Item>> items_;
  std::vector<const Item*> expected_;
  int serial_ = 0;
};

TEST(ArenaSkipListTest, EmptyList) {
  SkipListModel m;
  List::Iterator it(&m.list());
  it.SeekToFirst();
  EXPECT_FALSE(it.Valid());
  it.SeekToLast();
  EXPECT_FALSE(it.Valid());
  it.Seek(5);
  EXPECT_FALSE(it.Valid());
  it.SeekBefore(5);
  EXPECT_FALSE(it.Valid());
}

TEST(ArenaSkipListTest, RandomInsertsWithDuplicatesKeepOrderNewestFirst) {
  Random rnd(memtable_test::TestSeed());
  SkipListModel m;
  for (int i = 0; i < 3000; ++i) m.Insert(static_cast<int>(rnd.Uniform(500)));
  EXPECT_EQ(m.Scan(), m.expected());
}

TEST(ArenaSkipListTest, AppendsMixedWithInserts) {
  Random rnd(memtable_test::TestSeed() + 1);
  SkipListModel m;
  int next = 0;
  for (int i = 0; i < 3000; ++i) {
    if (rnd.Percent(80)) {
      m.Insert(next);  // the append fast path (or a duplicate of the last)
      next += static_cast<int>(rnd.Uniform(3));
    } else {
      m.Insert(static_cast<int>(rnd.Uniform(static_cast<uint64_t>(next) + 1)));
    }
  }
  EXPECT_EQ(m.Scan(), m.expected());
}

// A descending series (time series in DESC clustering order) takes the
// prepend fast path; duplicates of the first key, a second-to-first key
// and seeks must still see every level linked right.
TEST(ArenaSkipListTest, PrependsMixedWithInserts) {
  Random rnd(memtable_test::TestSeed() + 3);
  SkipListModel m;
  int next = 100000;
  for (int i = 0; i < 3000; ++i) {
    if (rnd.Percent(80)) {
      m.Insert(next);  // the prepend fast path (or a duplicate of the first)
      next -= static_cast<int>(rnd.Uniform(3));
    } else {
      m.Insert(next + static_cast<int>(rnd.Uniform(100001 - static_cast<uint64_t>(next))));
    }
  }
  EXPECT_EQ(m.Scan(), m.expected());
  const std::vector<const Item*>& e = m.expected();
  List::Iterator it(&m.list());
  for (int target = next - 1; target <= next + 50; ++target) {
    auto ge = std::lower_bound(e.begin(), e.end(), target,
                               [](const Item* a, int v) { return a->value < v; });
    it.Seek(target);
    ASSERT_TRUE(it.Valid()) << target;
    EXPECT_EQ(it.key(), *ge) << target;
  }
}

TEST(ArenaSkipListTest, LocateBeforeTheFirstNodeSplicesAtTheHead) {
  SkipListModel m;
  m.Insert(10);
  List& list = const_cast<List&>(m.list());
  List::Splice splice;
  EXPECT_EQ(list.Locate(5, &splice)->key->value, 10);  // one node: it is the last too
  m.Insert(5);
  m.Insert(5);
  m.Insert(20);
  auto* node = list.Locate(5, &splice);
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->key->serial, 2) << "the newest of the equal first keys";
  EXPECT_EQ(list.Locate(1, &splice)->key->serial, 2);
  EXPECT_EQ(list.Locate(7, &splice)->key->value, 10) << "not before the first: searched";
  m.Insert(1);
  m.Insert(7);
  EXPECT_EQ(m.Scan(), m.expected());
}

TEST(ArenaSkipListTest, SeekAndSeekBefore) {
  Random rnd(memtable_test::TestSeed() + 2);
  SkipListModel m;
  for (int i = 0; i < 500; ++i) m.Insert(2 * static_cast<int>(rnd.Uniform(200)));
  const std::vector<const Item*>& e = m.expected();
  List::Iterator it(&m.list());
  for (int target = -1; target <= 401; ++target) {
    auto ge = std::lower_bound(e.begin(), e.end(), target,
                               [](const Item* a, int v) { return a->value < v; });
    it.Seek(target);
    if (ge == e.end()) {
      EXPECT_FALSE(it.Valid()) << target;
    } else {
      ASSERT_TRUE(it.Valid()) << target;
      EXPECT_EQ(it.key(), *ge) << target;  // the newest of an equal run
    }
    it.SeekBefore(target);
    if (ge == e.begin()) {
      EXPECT_FALSE(it.Valid()) << target;
    } else {
      ASSERT_TRUE(it.Valid()) << target;
      EXPECT_EQ(it.key(), *(ge - 1)) << target;  // the oldest of the run before
    }
  }
  it.SeekToLast();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.key(), e.back());
}

TEST(ArenaSkipListTest, LocateReturnsNewestEqualNode) {
  SkipListModel m;
  m.Insert(10);
  m.Insert(20);
  m.Insert(20);
  List::Splice splice;
  auto* node = const_cast<List&>(m.list()).Locate(20, &splice);
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->key, m.expected()[1]);
  EXPECT_EQ(node->key->serial, 2);
  EXPECT_EQ(const_cast<List&>(m.list()).Locate(30, &splice), nullptr);  // append
  node = const_cast<List&>(m.list()).Locate(15, &splice);
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->key->value, 20);
}

}  // namespace
}  // namespace cassette
