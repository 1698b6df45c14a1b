// VersionedList: newest first, and snapshots skip newer versions.
#include "engine/memtable/versioned_list.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cassette {
namespace {

std::vector<std::string> Visible(const VersionedList& list, uint64_t snapshot) {
  std::vector<std::string> out;
  for (const VersionedList::Version* v = list.NewestVisible(snapshot); v != nullptr;
       v = VersionedList::OlderVisible(v, snapshot)) {
    out.emplace_back(v->data());
  }
  return out;
}

TEST(VersionedListTest, SnapshotsSeeOnlyOlderVersions) {
  MemtableArena arena;
  VersionedList list;
  EXPECT_EQ(list.Newest(), nullptr);
  EXPECT_EQ(list.NewestVisible(100), nullptr);
  list.Push(2, "two", &arena);
  list.Push(5, "five", &arena);
  list.Push(7, "", &arena);
  list.Push(9, std::string("nine\0", 5), &arena);

  ASSERT_NE(list.Newest(), nullptr);
  EXPECT_EQ(list.Newest()->seq, 9u);
  EXPECT_EQ(list.Newest()->data(), std::string("nine\0", 5));
  EXPECT_EQ(Visible(list, 1), (std::vector<std::string>{}));
  EXPECT_EQ(Visible(list, 2), (std::vector<std::string>{"two"}));
  EXPECT_EQ(Visible(list, 6), (std::vector<std::string>{"five", "two"}));
  EXPECT_EQ(Visible(list, 8), (std::vector<std::string>{"", "five", "two"}));
  EXPECT_EQ(Visible(list, 9).size(), 4u);
}

}  // namespace
}  // namespace cassette
