// `cassette sstable dump|meta|verify|expired-blockers|layout` on a database
// a shell holds open (the tools read beside it), on the in-memory file
// system, and on damaged and truncated copies of its SSTables.
#include "tools/sstable_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/sstable_format.h"
#include "engine/sstable/sstable_reader.h"
#include "tests/support/file_contents.h"
#include "tools/shell.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

class SSTableCommandTest : public ::testing::Test {
 protected:
  // iot.readings (TWCS, hourly windows, TTL 3600, gc_grace 0) with two
  // SSTables: the first holds expiring rows, a collection, a range
  // tombstone and a partition deletion written at kStart; the second one
  // row without a TTL written with an older timestamp, so it blocks the
  // first from being dropped once that expires.
  void SetUp() override {
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kStart;
    auto shell = Shell::Open(settings, fs_, ShellIo{.out = &shell_out_, .err = &shell_out_});
    ASSERT_TRUE(shell.ok()) << shell.status().ToString();
    shell_ = std::move(shell).value();
    shell_->RunScript(R"(
      CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
      CREATE TABLE iot.readings (sensor text, ts timestamp, v double, tags map<text, int>,
        PRIMARY KEY (sensor, ts))
        WITH compaction = {'class': 'TimeWindowCompactionStrategy',
                           'compaction_window_unit': 'HOURS', 'compaction_window_size': '1'}
        AND default_time_to_live = 3600 AND gc_grace_seconds = 0;
      INSERT INTO iot.readings (sensor, ts, v, tags) VALUES ('s1', '2024-01-15T00:00:00Z', 1.5, {'x': 1});
      DELETE FROM iot.readings WHERE sensor = 's1' AND ts > '2024-01-15T00:30:00Z';
      DELETE FROM iot.readings WHERE sensor = 's2';
      FLUSH;
      INSERT INTO iot.readings (sensor, ts, v) VALUES ('s3', '2024-01-14T23:00:00Z', 9.5)
        USING TTL 0 AND TIMESTAMP 1705276000000000;
      FLUSH;
    )",
                      "setup");
    ASSERT_EQ(shell_->ExitCode(), 0) << shell_out_.str();
    auto dirs = fs_->GetChildren("/data/iot");
    ASSERT_TRUE(dirs.ok() && dirs->size() == 1);
    table_dir_ = "/data/iot/" + dirs->front();
    auto files = fs_->GetChildren(table_dir_);
    ASSERT_TRUE(files.ok());
    std::sort(files->begin(), files->end());
    for (const std::string& file : *files) {
      if (file.size() > 4 && file.substr(file.size() - 4) == ".sst") {
        sstables_.push_back(table_dir_ + "/" + file);
      }
    }
    ASSERT_EQ(sstables_.size(), 2u) << shell_out_.str();
  }

  void TearDown() override {
    if (shell_) {
      EXPECT_TRUE(shell_->Close().ok());
    }
  }

  int Run(const std::vector<std::string>& args) {
    out_.str("");
    err_.str("");
    Result<SSTableSettings> settings = ParseSSTableArguments(args);
    if (!settings.ok()) {
      err_ << settings.status().message();
      return 2;
    }
    return RunSSTableCommand(*settings, fs_, out_, err_);
  }

  void Damage(const std::string& path, const std::function<void(std::string*)>& damage) {
    std::string bytes = *ReadFileToString(*fs_, path);
    damage(&bytes);
    ASSERT_TRUE(WriteStringToFile(*fs_, path, bytes, true).ok());
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::unique_ptr<Shell> shell_;
  std::ostringstream shell_out_;
  std::string table_dir_;
  std::vector<std::string> sstables_;
  std::ostringstream out_;
  std::ostringstream err_;
};

// The keys of Cassandra's sstabledump (tools/JsonTransformer.java and
// test/unit/org/apache/cassandra/tools/JsonTransformerTest.java).
TEST_F(SSTableCommandTest, DumpHasSstabledumpShape) {
  ASSERT_EQ(Run({"dump", sstables_[0], "--now", "2024-01-15T00:10:00Z"}), 0) << err_.str();
  const std::string dump = out_.str();
  EXPECT_EQ(dump.rfind("[\n{\"partition\":{\"key\":[", 0), 0u) << dump;
  EXPECT_EQ(dump.substr(dump.size() - 3), "\n]\n") << dump;
  for (const std::string expected : {
           R"({"partition":{"key":["s1"],"position":)",
           R"("rows":[{"type":"row","clustering":["2024-01-15 00:00:00.000000+0000"],)",
           R"("liveness_info":{"tstamp":"2024-01-15T00:00:00Z","ttl":3600,)"
           R"("expires_at":"2024-01-15T01:00:00Z","expired":false})",
           R"({"name":"v","value":1.5,"tstamp":"2024-01-15T00:00:00Z","ttl":3600,)",
           R"({"name":"tags","path":["x"],"value":1,)",
           R"({"type":"range_tombstone_bound","start":{"type":"exclusive",)"
           R"("clustering":["2024-01-15 00:30:00.000000+0000"],"deletion_info":{"marked_deleted":)",
           R"({"partition":{"key":["s2"],"position":)",
           R"("deletion_info":{"marked_deleted":"2024-01-15T00:00:00)",
           R"("local_delete_time":"2024-01-15T00:00:00Z"})",
       }) {
    EXPECT_NE(dump.find(expected), std::string::npos) << expected << "\n" << dump;
  }
  // An hour later the same cells are expired.
  ASSERT_EQ(Run({"dump", sstables_[0], "--now", "2024-01-15T01:00:00Z"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("\"expired\":true"), std::string::npos);
  EXPECT_EQ(out_.str().find("\"expired\":false"), std::string::npos);
}

// sstabledump -k: one partition, by its key's text.
TEST_F(SSTableCommandTest, DumpKeySelectsOnePartition) {
  ASSERT_EQ(Run({"dump", sstables_[0], "--key", "s2"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("\"key\":[\"s2\"]"), std::string::npos) << out_.str();
  EXPECT_EQ(out_.str().find("\"key\":[\"s1\"]"), std::string::npos) << out_.str();
  ASSERT_EQ(Run({"dump", sstables_[0], "--key", "'s1'"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("\"key\":[\"s1\"]"), std::string::npos) << out_.str();
  ASSERT_EQ(Run({"dump", sstables_[0], "--key", "nope"}), 0) << err_.str();
  EXPECT_EQ(out_.str(), "[]\n");
}

TEST_F(SSTableCommandTest, DumpWithoutSchemaPrintsBytes) {
  ASSERT_TRUE(
      WriteStringToFile(*fs_, "/loose.sst", *ReadFileToString(*fs_, sstables_[0]), true).ok());
  ASSERT_EQ(Run({"dump", "/loose.sst"}), 0) << err_.str();
  EXPECT_NE(err_.str().find("no schema"), std::string::npos) << err_.str();
  EXPECT_NE(out_.str().find("\"key\":[\"0x7331\"]"), std::string::npos) << out_.str();
  // --data names the table explicitly.
  ASSERT_EQ(Run({"dump", "/loose.sst", "--data", "/data", "iot.readings"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("\"key\":[\"s1\"]"), std::string::npos) << out_.str();
  EXPECT_EQ(Run({"dump", "/loose.sst", "--key", "s1"}), 1);
  EXPECT_NE(err_.str().find("--key needs the table's schema"), std::string::npos) << err_.str();
}

// The figures of sstablemetadata (tools/SSTableMetadataViewer.java).
TEST_F(SSTableCommandTest, MetaShowsTimesTtlsDroppableTombstonesAndWindow) {
  ASSERT_EQ(Run({"meta", sstables_[0], "--format", "json", "--gc-before", "2024-01-14T00:00:00Z"}),
            0)
      << err_.str();
  const std::string before = out_.str();
  for (const std::string expected : {
           R"("table":"iot.readings")",
           R"("partitions":2,)",
           // The map literal first deletes the collection at the insert's
           // timestamp - 1, as Cassandra does.
           R"("min_timestamp":1705276799999999,)",
           R"("max_local_deletion_time":1705280400,)",
           R"("max_ttl":3600,)",
           R"("estimated_droppable_tombstones":0.000000,)",
           R"("compression_ratio":)",
           R"("partition_size_histogram":[[)",
           R"("cell_count_histogram":[[)",
           R"("twcs_window":{"start":"2024-01-15T00:00:00Z","end":"2024-01-15T01:00:00Z"})",
       }) {
    EXPECT_NE(before.find(expected), std::string::npos) << expected << "\n" << before;
  }
  ASSERT_EQ(Run({"meta", sstables_[0], "--format", "json", "--gc-before", "2024-01-16T00:00:00Z"}),
            0);
  EXPECT_EQ(out_.str().find(R"("estimated_droppable_tombstones":0.000000,)"), std::string::npos)
      << out_.str();
  ASSERT_EQ(Run({"meta", sstables_[1]}), 0) << err_.str();
  EXPECT_NE(out_.str().find("TWCS window: 2024-01-14T23:00:00Z .. 2024-01-15T00:00:00Z\n"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("SSTable max local deletion time: never (holds data without a TTL)\n"),
            std::string::npos)
      << out_.str();
}

TEST_F(SSTableCommandTest, VerifyPassesEveryFileOfADirectory) {
  ASSERT_EQ(Run({"verify", "/data"}), 0) << err_.str();
  EXPECT_EQ(out_.str(), sstables_[0] + ": OK, " + std::to_string(*fs_->GetFileSize(sstables_[0])) +
                            " bytes, 2 partitions, 1 rows\n" + sstables_[1] + ": OK, " +
                            std::to_string(*fs_->GetFileSize(sstables_[1])) +
                            " bytes, 1 partitions, 1 rows\n");
}

TEST_F(SSTableCommandTest, VerifyNamesTheFirstBadFileAndOffset) {
  Damage(sstables_[1], [](std::string* bytes) { (*bytes)[3] ^= 0x5a; });
  ASSERT_EQ(Run({"verify", table_dir_}), 1);
  EXPECT_NE(out_.str().find(sstables_[0] + ": OK"), std::string::npos) << out_.str();
  EXPECT_EQ(err_.str(), "cassette sstable verify: " + sstables_[1] + ": Corruption: sstable " +
                            sstables_[1] + ": data chunk checksum mismatch at offset 0\n");
}

// An index that passes its checksums but points a partition where the data
// does not hold it (an index written wrong, not damaged on disk): the
// index-against-data check finds it, as Cassandra's sstableverify
// -e (extended) compares the data with the index.
TEST_F(SSTableCommandTest, VerifyChecksTheIndexAgainstTheData) {
  auto reader = SSTableReader::Open(fs_.get(), sstables_[0], nullptr);
  ASSERT_TRUE(reader.ok());
  const BlockHandle handle = (*reader)->summary()[0].handle;
  std::string bytes = *ReadFileToString(*fs_, sstables_[0]);
  std::string_view payload;
  BlockType type;
  ASSERT_TRUE(CheckBlock(std::string_view(bytes).substr(handle.offset, handle.size), sstables_[0],
                         handle.offset, "index", &payload, &type)
                  .ok());
  ASSERT_EQ(type, BlockType::kRaw);
  std::vector<PartitionIndexEntry> entries;
  for (std::string_view in = payload; !in.empty();) {
    entries.emplace_back();
    ASSERT_TRUE(DecodePartitionIndexEntry(&in, &entries.back()));
  }
  ASSERT_EQ(entries.size(), 2u);
  entries[1].data_position += 1;
  std::string block;
  for (const PartitionIndexEntry& entry : entries) EncodePartitionIndexEntry(entry, &block);
  ASSERT_EQ(block.size(), payload.size());
  AppendBlockTrailer(block, BlockType::kRaw, &block);
  bytes.replace(handle.offset, handle.size, block);
  ASSERT_TRUE(WriteStringToFile(*fs_, sstables_[0], bytes, true).ok());

  ASSERT_EQ(Run({"verify", sstables_[0]}), 1);
  EXPECT_EQ(err_.str(), "cassette sstable verify: " + sstables_[0] + ": Corruption: sstable " +
                            sstables_[0] + ": partition index entry points at data position " +
                            std::to_string(entries[1].data_position) + ", expected " +
                            std::to_string(entries[1].data_position - 1) + " at offset " +
                            std::to_string(handle.offset) + "\n");
}

// Every byte of a file flipped in turn, and the file cut at many lengths:
// dump and meta either succeed or name the file, verify always finds it,
// nothing crashes (the ASan build runs this).
TEST_F(SSTableCommandTest, FileToolsOnDamagedAndTruncatedFiles) {
  const std::string path = sstables_[0];
  const std::string original = *ReadFileToString(*fs_, path);
  for (size_t offset = 0; offset < original.size(); ++offset) {
    std::string damaged = original;
    damaged[offset] ^= 0x5a;
    ASSERT_TRUE(WriteStringToFile(*fs_, path, damaged, true).ok());
    EXPECT_EQ(Run({"verify", path}), 1) << "flip at " << offset;
    EXPECT_NE(err_.str().find(path + ": Corruption: sstable " + path), std::string::npos)
        << "flip at " << offset << ": " << err_.str();
    EXPECT_NE(err_.str().find(" at offset "), std::string::npos) << err_.str();
    for (const char* tool : {"dump", "meta"}) {
      const int code = Run({tool, path});
      EXPECT_TRUE(code == 0 || (code == 1 && err_.str().find(path) != std::string::npos))
          << tool << " flip at " << offset << ": " << code << " " << err_.str();
    }
  }
  for (size_t length = 0; length < original.size(); length += 17) {
    ASSERT_TRUE(WriteStringToFile(*fs_, path, original.substr(0, length), true).ok());
    for (const char* tool : {"dump", "meta", "verify"}) {
      EXPECT_EQ(Run({tool, path}), 1) << tool << " cut to " << length;
      EXPECT_NE(err_.str().find("sstable " + path + ": "), std::string::npos) << err_.str();
      EXPECT_NE(err_.str().find(" at offset "), std::string::npos) << err_.str();
    }
  }
}

// Cassandra's sstableexpiredblockers (tools/SSTableExpiredBlockers.java),
// beside the shell that holds the directory.
TEST_F(SSTableCommandTest, ExpiredBlockersNamesTheOlderFileWithoutTtl) {
  ASSERT_EQ(
      Run({"expired-blockers", "--data", "/data", "iot.readings", "--now", "2024-01-15T02:00:00Z"}),
      0)
      << err_.str();
  EXPECT_NE(out_.str().find("iot.readings: 2 SSTables, 1 fully expired"), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find(
                sstables_[1] + " (minTS = 1705276000000000, maxTS = 1705276000000000, maxLDT = " +
                std::to_string(INT64_MAX) +
                ") blocks 1 expired sstables from getting dropped: " + sstables_[0] + " (minTS = "),
            std::string::npos)
      << out_.str();
  // Before the first file expires nothing is blocked.
  ASSERT_EQ(Run({"expired-blockers", "--data", "/data", "iot.readings", "--now",
                 "2024-01-15T00:30:00Z", "--format", "json"}),
            0)
      << err_.str();
  EXPECT_NE(out_.str().find(R"("sstables":2,"fully_expired":0,"blockers":[]})"), std::string::npos)
      << out_.str();
}

TEST_F(SSTableCommandTest, LayoutShowsEachWindowAndWhatBlocksIt) {
  ASSERT_EQ(Run({"layout", "--data", "/data", "iot.readings", "--now", "2024-01-15T02:00:00Z"}), 0)
      << err_.str();
  const std::string text = out_.str();
  EXPECT_NE(text.find("iot.readings at 2024-01-15T02:00:00Z: 2 windows\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("2024-01-15T00:00:00Z: SSTables [1]; "), std::string::npos) << text;
  EXPECT_NE(text.find("all droppable at 2024-01-15T01:00:01Z; kept by older overlapping "
                      "SSTables [2]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(sstables_[0] + ": "), std::string::npos) << text;
  ASSERT_EQ(Run({"layout", "--data", "/data", "iot.readings", "--format", "json"}), 0);
  EXPECT_NE(out_.str().find(R"("blocked_by":[2])"), std::string::npos) << out_.str();
}

TEST_F(SSTableCommandTest, TableToolsOnADamagedFileNameItAndTheOffset) {
  auto reader = SSTableReader::Open(fs_.get(), sstables_[0], nullptr);
  ASSERT_TRUE(reader.ok());
  const SectionEntry* statistics = (*reader)->footer().Find(SectionType::kStatistics);
  ASSERT_NE(statistics, nullptr);
  const uint64_t at = statistics->offset + statistics->length / 2;
  Damage(sstables_[0], [at](std::string* bytes) { (*bytes)[at] ^= 0x5a; });
  for (const char* tool : {"expired-blockers", "layout"}) {
    EXPECT_EQ(Run({tool, "--data", "/data", "iot.readings"}), 1) << tool;
    EXPECT_NE(err_.str().find("Corruption: sstable " + sstables_[0] + ": "), std::string::npos)
        << err_.str();
    EXPECT_NE(err_.str().find(" at offset "), std::string::npos) << err_.str();
  }
  Damage(sstables_[1], [](std::string* bytes) { bytes->resize(bytes->size() / 2); });
  EXPECT_EQ(Run({"layout", "--data", "/data", "iot.readings"}), 1);
  EXPECT_NE(err_.str().find("sstable " + sstables_[0]), std::string::npos) << err_.str();
}

TEST_F(SSTableCommandTest, UsageErrors) {
  EXPECT_EQ(Run({}), 2);
  EXPECT_EQ(Run({"nope"}), 2);
  EXPECT_EQ(err_.str(),
            "cassette sstable needs dump, meta, verify, expired-blockers or layout, not 'nope'");
  EXPECT_EQ(Run({"layout", "iot.readings"}), 2);
  EXPECT_EQ(err_.str(), "cassette sstable layout needs --data DIR ks.table");
  EXPECT_EQ(Run({"meta", sstables_[0], "--key", "s1"}), 2);
  EXPECT_EQ(Run({"meta", "--gc-before", "yesterday", sstables_[0]}), 2);
  EXPECT_EQ(Run({"verify"}), 2);
  EXPECT_EQ(err_.str(), "cassette sstable verify needs FILE or DIR");
}

}  // namespace
}  // namespace cassette::tools
