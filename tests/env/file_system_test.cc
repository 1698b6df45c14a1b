// Behaviour every FileSystem must share, run against the POSIX file system
// (in a temporary directory) and the in-memory one.
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/file_system.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"

namespace cassette {
namespace {

class FileSystemTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "posix") {
      tmp_ = std::make_unique<TempDir>();
      fs_ = NewPosixFileSystem();
      root_ = tmp_->path();
    } else {
      fs_ = NewMemFileSystem();
      root_ = "/data";
      ASSERT_TRUE(fs_->CreateDirs(root_).ok());
    }
  }

  std::string P(const std::string& name) const { return root_ + "/" + name; }

  std::unique_ptr<TempDir> tmp_;
  std::shared_ptr<FileSystem> fs_;
  std::string root_;
};

TEST_P(FileSystemTest, WriteThenReadBack) {
  auto w = fs_->NewWritableFile(P("f"));
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  std::string big(200 * 1024, 'x');  // larger than the POSIX write buffer
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  ASSERT_TRUE((*w)->Append("hello ").ok());
  ASSERT_TRUE((*w)->Append(big).ok());
  ASSERT_TRUE((*w)->Append("!").ok());
  EXPECT_EQ((*w)->Size(), 6 + big.size() + 1);
  ASSERT_TRUE((*w)->Sync().ok());
  ASSERT_TRUE((*w)->Close().ok());
  EXPECT_FALSE((*w)->Append("late").ok());

  auto size = fs_->GetFileSize(P("f"));
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 6 + big.size() + 1);

  auto r = fs_->NewRandomAccessFile(P("f"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->Size(), *size);
  std::string out;
  ASSERT_TRUE((*r)->Read(0, 5, &out).ok());
  EXPECT_EQ(out, "hello");
  ASSERT_TRUE((*r)->Read(6, 3, &out).ok());
  EXPECT_EQ(out, "abc");
  ASSERT_TRUE((*r)->Read(*size - 2, 10, &out).ok());  // short read at end of file
  EXPECT_EQ(out, big.substr(big.size() - 1) + "!");
  ASSERT_TRUE((*r)->Read(*size + 100, 10, &out).ok());
  EXPECT_EQ(out, "");

  auto s = fs_->NewSequentialFile(P("f"));
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE((*s)->Read(5, &out).ok());
  EXPECT_EQ(out, "hello");
  ASSERT_TRUE((*s)->Skip(1 + 26).ok());
  ASSERT_TRUE((*s)->Read(3, &out).ok());
  EXPECT_EQ(out, "abc");
  auto all = ReadFileToString(*fs_, P("f"));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, "hello " + big + "!");
}

TEST_P(FileSystemTest, FlushMakesBufferedBytesVisibleToReaders) {
  auto w = fs_->NewWritableFile(P("f"));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Append("abc").ok());
  ASSERT_TRUE((*w)->Flush().ok());
  auto all = ReadFileToString(*fs_, P("f"));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, "abc");
}

// Truncate takes back what a failed write left: bytes flushed or still
// buffered past the cut are gone, and appends go on from the cut, both for
// a new file and for one opened to append.
TEST_P(FileSystemTest, TruncateCutsBackAndAppendsContinueThere) {
  for (bool appendable : {false, true}) {
    ASSERT_TRUE(WriteStringToFile(*fs_, P("t"), appendable ? "kept" : "", false).ok());
    auto w = appendable ? fs_->NewAppendableFile(P("t")) : fs_->NewWritableFile(P("t"));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Append(appendable ? "" : "kept").ok());
    ASSERT_TRUE((*w)->Append("-flushed").ok());
    ASSERT_TRUE((*w)->Flush().ok());
    ASSERT_TRUE((*w)->Append("-buffered").ok());
    ASSERT_TRUE((*w)->Truncate(4).ok());
    EXPECT_EQ((*w)->Size(), 4u);
    ASSERT_TRUE((*w)->Append("+next").ok());
    ASSERT_TRUE((*w)->Close().ok());
    EXPECT_EQ(*ReadFileToString(*fs_, P("t")), "kept+next") << appendable;
  }
}

TEST_P(FileSystemTest, NewWritableFileTruncatesAndAppendableAppends) {
  ASSERT_TRUE(WriteStringToFile(*fs_, P("f"), "old content", false).ok());
  auto w = fs_->NewAppendableFile(P("f"));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)->Size(), 11u);
  ASSERT_TRUE((*w)->Append("+more").ok());
  ASSERT_TRUE((*w)->Close().ok());
  EXPECT_EQ(*ReadFileToString(*fs_, P("f")), "old content+more");

  ASSERT_TRUE(WriteStringToFile(*fs_, P("f"), "new", false).ok());
  EXPECT_EQ(*ReadFileToString(*fs_, P("f")), "new");

  auto created = fs_->NewAppendableFile(P("fresh"));
  ASSERT_TRUE(created.ok());
  EXPECT_EQ((*created)->Size(), 0u);
  EXPECT_TRUE(fs_->FileExists(P("fresh")));
}

TEST_P(FileSystemTest, GetChildrenIsSortedNamesOnly) {
  for (const char* name : {"b", "c", "a"}) {
    ASSERT_TRUE(WriteStringToFile(*fs_, P(name), "", false).ok());
  }
  ASSERT_TRUE(fs_->CreateDirs(P("dir")).ok());
  auto children = fs_->GetChildren(root_);
  ASSERT_TRUE(children.ok());
  EXPECT_EQ(*children, (std::vector<std::string>{"a", "b", "c", "dir"}));
  auto empty = fs_->GetChildren(P("dir"));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST_P(FileSystemTest, MissingFilesAreNotFoundAndNamed) {
  const std::string missing = P("missing");
  EXPECT_FALSE(fs_->FileExists(missing));
  Status statuses[] = {
      fs_->NewRandomAccessFile(missing).status(), fs_->NewSequentialFile(missing).status(),
      fs_->GetFileSize(missing).status(),         fs_->DeleteFile(missing),
      fs_->GetChildren(missing).status(),         fs_->RenameFile(missing, P("x")),
      fs_->NewWritableFile(P("nodir/f")).status()};
  for (const Status& s : statuses) {
    EXPECT_TRUE(s.IsNotFound()) << s.ToString();
    EXPECT_NE(s.message().find(root_), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("No such file or directory"), std::string::npos) << s.ToString();
  }
}

TEST_P(FileSystemTest, CreateDirsIsRecursiveAndIdempotent) {
  ASSERT_TRUE(fs_->CreateDirs(P("a/b/c")).ok());
  ASSERT_TRUE(fs_->CreateDirs(P("a/b/c")).ok());
  ASSERT_TRUE(fs_->CreateDirs(P("a/b/c/")).ok());
  EXPECT_TRUE(fs_->FileExists(P("a/b/c")));
  ASSERT_TRUE(WriteStringToFile(*fs_, P("a/b/c/f"), "x", false).ok());

  ASSERT_TRUE(WriteStringToFile(*fs_, P("file"), "x", false).ok());
  Status s = fs_->CreateDirs(P("file/sub"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

TEST_P(FileSystemTest, DeleteDirOnlyWhenEmpty) {
  ASSERT_TRUE(fs_->CreateDirs(P("d")).ok());
  ASSERT_TRUE(WriteStringToFile(*fs_, P("d/f"), "x", false).ok());
  Status s = fs_->DeleteDir(P("d"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("Directory not empty"), std::string::npos) << s.ToString();
  ASSERT_TRUE(fs_->DeleteFile(P("d/f")).ok());
  ASSERT_TRUE(fs_->DeleteDir(P("d")).ok());
  EXPECT_FALSE(fs_->FileExists(P("d")));
}

TEST_P(FileSystemTest, RenameReplacesTarget) {
  ASSERT_TRUE(WriteStringToFile(*fs_, P("new"), "new", true).ok());
  ASSERT_TRUE(WriteStringToFile(*fs_, P("cur"), "old", true).ok());
  ASSERT_TRUE(fs_->RenameFile(P("new"), P("cur")).ok());
  EXPECT_FALSE(fs_->FileExists(P("new")));
  EXPECT_EQ(*ReadFileToString(*fs_, P("cur")), "new");
  ASSERT_TRUE(fs_->SyncDir(root_).ok());
  EXPECT_FALSE(fs_->SyncDir(P("nodir")).ok());
}

TEST_P(FileSystemTest, LockFileIsExclusiveUntilReleased) {
  auto first = fs_->LockFile(P("LOCK"));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(fs_->FileExists(P("LOCK")));
  auto second = fs_->LockFile(P("LOCK"));
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(second.status().IsBusy());
  EXPECT_EQ(
      second.status().message(),
      "data directory " + root_ + " is locked by another process (lock file " + P("LOCK") + ")");
  first->reset();
  auto third = fs_->LockFile(P("LOCK"));
  EXPECT_TRUE(third.ok()) << third.status().ToString();
}

TEST_P(FileSystemTest, FreeSpaceIsReported) {
  auto free = fs_->GetFreeSpace(root_);
  ASSERT_TRUE(free.ok()) << free.status().ToString();
  EXPECT_GT(*free, 0u);
  EXPECT_TRUE(fs_->GetFreeSpace(P("nodir")).status().IsNotFound());
}

TEST_P(FileSystemTest, ConcurrentRandomReads) {
  std::string data(64 * 1024, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7);
  ASSERT_TRUE(WriteStringToFile(*fs_, P("f"), data, false).ok());
  auto r = fs_->NewRandomAccessFile(P("f"));
  ASSERT_TRUE(r.ok());
  const RandomAccessFile* file = r->get();
  std::vector<std::thread> threads;
  std::vector<int> errors(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::string out;
      for (uint64_t off = t; off + 100 < data.size(); off += 997) {
        if (!file->Read(off, 100, &out).ok() || out != data.substr(off, 100)) ++errors[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(errors, std::vector<int>(4, 0));
}

INSTANTIATE_TEST_SUITE_P(Impls, FileSystemTest, ::testing::Values("posix", "mem"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace cassette
