// Table's view swaps: an SSTable a compaction replaced stays on disk while
// a reader that started before the swap still holds the old view.
#include "engine/db/table.h"

#include <gtest/gtest.h>

#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

Status WriteFile(FileSystem* fs, const std::string& path) {
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(path));
  CASSETTE_RETURN_IF_ERROR(file->Append("sstable bytes"));
  return file->Close();
}

TEST(TableTest, ReplacedSSTableIsDeletedWhenTheLastReaderLetsGo) {
  auto fs = NewMemFileSystem();
  ASSERT_OK(fs->CreateDirs("/t"));
  ASSERT_OK(WriteFile(fs.get(), "/t/000001.sst"));
  ASSERT_OK(WriteFile(fs.get(), "/t/000002.sst"));
  std::vector<Table::LiveSSTable> live;
  for (uint64_t generation : {1, 2}) {
    const std::string path = "/t/00000" + std::to_string(generation) + ".sst";
    live.push_back(
        {generation, 0, nullptr, std::make_shared<ObsoleteFileDeleter>(fs.get(), path), {}});
  }
  Table table(1, SimpleTable(), "/t", std::move(live));

  std::shared_ptr<const Table::View> reader = table.view();  // a read in progress
  ASSERT_OK(WriteFile(fs.get(), "/t/000003.sst"));
  table.ReplaceSSTables(
      {1, 2},
      {{3, 1, nullptr, std::make_shared<ObsoleteFileDeleter>(fs.get(), "/t/000003.sst"), {}}},
      /*bytes_compacted=*/13);
  ASSERT_EQ(table.view()->sstables.size(), 1u);
  EXPECT_EQ(table.view()->sstables[0].generation, 3u);
  EXPECT_EQ(table.view()->sstables[0].level, 1u);
  EXPECT_EQ(table.bytes_compacted(), 13u);
  // The old reader still sees (and can open) the inputs.
  ASSERT_EQ(reader->sstables.size(), 2u);
  EXPECT_TRUE(fs->FileExists("/t/000001.sst"));
  EXPECT_TRUE(fs->FileExists("/t/000002.sst"));
  reader.reset();
  EXPECT_FALSE(fs->FileExists("/t/000001.sst"));
  EXPECT_FALSE(fs->FileExists("/t/000002.sst"));
  EXPECT_TRUE(fs->FileExists("/t/000003.sst"));
}

TEST(TableTest, SSTablesThatAreNotReplacedAreNeverDeleted) {
  auto fs = NewMemFileSystem();
  ASSERT_OK(fs->CreateDirs("/t"));
  ASSERT_OK(WriteFile(fs.get(), "/t/000001.sst"));
  {
    Table table(
        1, SimpleTable(), "/t",
        {{1, 0, nullptr, std::make_shared<ObsoleteFileDeleter>(fs.get(), "/t/000001.sst"), {}}});
    table.ReplaceSSTables({7}, {}, 0);  // not ours: nothing happens
    EXPECT_EQ(table.view()->sstables.size(), 1u);
  }
  // Closing a table leaves its files alone.
  EXPECT_TRUE(fs->FileExists("/t/000001.sst"));
}

}  // namespace
}  // namespace cassette::testing
