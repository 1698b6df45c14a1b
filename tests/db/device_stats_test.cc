// Database::GetDeviceStats: every byte the database writes to its device,
// the commit log's share, and fsyncs, kept across restarts (manifest v5).
#include <gtest/gtest.h>

#include "engine/env/counting_file_system.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

Mutation Reading(int32_t pk, int32_t ck) {
  Mutation m("ks", "t", {Value::Int(pk)});
  m.Insert({Value::Int(ck)}).Set("v", Value::Int(ck * 7 + pk));
  return m;
}

Status Fill(Database& db, int first, int rows) {
  for (int i = first; i < first + rows; ++i) CASSETTE_RETURN_IF_ERROR(db.Apply(Reading(i % 5, i)));
  return Status::OK();
}

TEST(DeviceStatsTest, CountsEveryByteAppendedAndEveryFsync) {
  TestDb t;
  // An observer below the database sees what reaches the file system.
  auto observer = std::make_shared<CountingFileSystem>(t.fs);
  Options options = t.MakeOptions();
  options.file_system = observer;
  auto opened = Database::Open(options, "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Database> db = std::move(opened).value();
  ASSERT_TRUE(db->CreateKeyspace({.name = "ks"}).ok());
  ASSERT_TRUE(db->CreateTable(SimpleTable()).ok());
  ASSERT_TRUE(Fill(*db, 0, 200).ok());
  ASSERT_TRUE(db->Flush().ok());
  const DeviceStats stats = db->GetDeviceStats();
  EXPECT_EQ(stats.bytes_written, observer->bytes_written());
  EXPECT_EQ(stats.syncs, observer->syncs());
  EXPECT_GT(stats.commitlog_bytes_written, 200u * 10);
  EXPECT_LT(stats.commitlog_bytes_written, stats.bytes_written);
  auto table = db->GetTableStats("ks", "t");
  ASSERT_TRUE(table.ok());
  EXPECT_GE(stats.bytes_written,
            stats.commitlog_bytes_written + static_cast<uint64_t>(table->bytes_flushed));
}

TEST(DeviceStatsTest, CountersSurviveRestartsAndCrashes) {
  TestDb t;
  ASSERT_TRUE(t.Open(t.MakeOptions()).ok());
  ASSERT_TRUE(t.db->CreateKeyspace({.name = "ks"}).ok());
  ASSERT_TRUE(t.db->CreateTable(SimpleTable()).ok());
  ASSERT_TRUE(Fill(*t.db, 0, 100).ok());
  ASSERT_TRUE(t.db->Flush().ok());
  ASSERT_TRUE(t.Reopen().ok());
  const DeviceStats after_close = t.db->GetDeviceStats();
  EXPECT_GT(after_close.bytes_written, 0u);
  EXPECT_GT(after_close.commitlog_bytes_written, 0u);

  // A read-only view (what `cassette stats` opens) sees them too.
  Options view = t.MakeOptions();
  view.read_only = true;
  auto reader = Database::Open(view, "/db");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const DeviceStats seen = (*reader)->GetDeviceStats();
  EXPECT_GT(seen.bytes_written, 0u);
  EXPECT_LE(seen.bytes_written, after_close.bytes_written);
  reader->reset();

  // They only grow: after more writes and a flush, and after a crash (which
  // loses only what was counted since the last manifest write).
  ASSERT_TRUE(Fill(*t.db, 100, 100).ok());
  ASSERT_TRUE(t.db->Flush().ok());
  const DeviceStats flushed = t.db->GetDeviceStats();
  EXPECT_GT(flushed.bytes_written, after_close.bytes_written);
  EXPECT_GT(flushed.commitlog_bytes_written, after_close.commitlog_bytes_written);
  EXPECT_GT(flushed.syncs, after_close.syncs);
  ASSERT_TRUE(Fill(*t.db, 200, 50).ok());
  ASSERT_TRUE(t.CrashAndReopen().ok());
  const DeviceStats recovered = t.db->GetDeviceStats();
  EXPECT_GE(recovered.bytes_written, flushed.bytes_written - 4096);
  EXPECT_GE(recovered.commitlog_bytes_written, after_close.commitlog_bytes_written);
}

// The commit log is most of an ingest's bytes; compressed, it is a
// fraction of them (records this alike).
TEST(DeviceStatsTest, ACompressedCommitLogWritesFewerBytes) {
  auto commitlog_bytes = [](CommitLogCompression compression) {
    TestDb t;
    Options options = t.MakeOptions();
    options.commitlog_compression = compression;
    EXPECT_TRUE(t.Open(options).ok());
    EXPECT_TRUE(t.db->CreateKeyspace({.name = "ks"}).ok());
    EXPECT_TRUE(t.db->CreateTable(SimpleTable()).ok());
    EXPECT_TRUE(Fill(*t.db, 0, 2000).ok());
    EXPECT_TRUE(t.db->Flush().ok());
    return t.db->GetDeviceStats().commitlog_bytes_written;
  };
  const uint64_t plain = commitlog_bytes(CommitLogCompression::kNone);
  const uint64_t zstd = commitlog_bytes(CommitLogCompression::kZstd);
  EXPECT_LT(zstd * 2, plain) << zstd << " against " << plain;
}

}  // namespace
}  // namespace cassette::testing
