// `cassette stats` on a database filled through the C++ API, read through a
// read-only second view while the first is still open.
#include "tools/stats_command.h"
#include "tools/command_line.h"
#include "tools/stats_sstables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

class StatsCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.file_system = fs_;
    options.clock = clock_;
    options.scheduler = std::make_shared<ManualScheduler>();
    options.auto_compaction = false;
    auto db = Database::Open(options, "/data");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    ASSERT_TRUE(db_->CreateKeyspace({.name = "iot"}).ok());
    TableOptions twcs;
    twcs.compaction = {{"class", "TimeWindowCompactionStrategy"},
                       {"compaction_window_unit", "HOURS"},
                       {"compaction_window_size", "1"}};
    twcs.default_time_to_live = 7200;
    twcs.gc_grace_seconds = 0;
    ASSERT_TRUE(db_->CreateTable(TableSchema("iot", "readings")
                                     .AddPartitionKey("sensor", DataType::Text())
                                     .AddClustering("ts", DataType::Timestamp())
                                     .AddRegular("v", DataType::Double())
                                     .WithOptions(twcs))
                    .ok());
    ASSERT_TRUE(db_->CreateTable(TableSchema("iot", "sensors")
                                     .AddPartitionKey("sensor", DataType::Text())
                                     .AddRegular("model", DataType::Text()))
                    .ok());
    for (int hour = 0; hour < 2; ++hour) {
      Mutation reading("iot", "readings", {Value::Text("s1")});
      reading.Insert({Value::Timestamp(kStart / 1000 + hour * 3600000LL)})
          .Set("v", Value::Double(1.5));
      ASSERT_TRUE(db_->Apply(reading).ok());
      ASSERT_TRUE(db_->Flush().ok());
      ASSERT_TRUE(clock_->Advance(3600LL * 1000000).ok());
    }
    Mutation sensor("iot", "sensors", {Value::Text("s1")});
    sensor.Insert({}).Set("model", Value::Text("bme280"));
    ASSERT_TRUE(db_->Apply(sensor).ok());
    ASSERT_TRUE(db_->FlushTable("iot", "sensors").ok());
  }

  int Run(const std::string& format, const std::string& table,
          std::optional<int64_t> clock = std::nullopt) {
    StatsSettings settings;
    settings.manual_clock_micros = clock;
    settings.data_dir = "/data";
    settings.format = format == "json" ? OutputFormat::kJson : OutputFormat::kTable;
    settings.table = table;
    return RunStatsCommand(settings, fs_, out_, err_);
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>(kStart);
  std::unique_ptr<Database> db_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(StatsCommandTest, JsonHasOneObjectPerTableWithTheDesignKeys) {
  ASSERT_EQ(Run("json", ""), 0) << err_.str();
  std::istringstream lines(out_.str());
  std::vector<std::string> objects;
  for (std::string line; std::getline(lines, line);) objects.push_back(line);
  ASSERT_EQ(objects.size(), 3u) << out_.str();
  // The last line is the database's device counters.
  EXPECT_EQ(objects.back().rfind("{\"device\":{\"bytes_written\":", 0), 0u) << objects.back();
  objects.pop_back();
  for (const std::string& object : objects) {
    for (const char* key :
         {"\"keyspace\":\"iot\"", "\"sstable_count\":", "\"live_bytes\":", "\"bytes_on_disk\":",
          "\"bytes_written_by_users\":", "\"bytes_flushed\":", "\"bytes_compacted\":0",
          "\"write_amplification\":", "\"partition_size_p50\":", "\"partition_size_p99\":",
          "\"partition_size_max\":", "\"tombstone_cells\":0", "\"sstables_per_window\":{",
          "\"background_errors\":0"}) {
      EXPECT_NE(object.find(key), std::string::npos) << key << " in " << object;
    }
    EXPECT_EQ(object.front(), '{');
    EXPECT_EQ(object.back(), '}');
  }
  // Tables in name order; only the TWCS table has windows and an expiry.
  EXPECT_EQ(
      objects[0].rfind("{\"keyspace\":\"iot\",\"table\":\"readings\",\"sstable_count\":2,", 0), 0u)
      << objects[0];
  EXPECT_NE(objects[0].find("\"sstables_per_window\":{\"2024-01-15T00:00:00Z\":1,"
                            "\"2024-01-15T01:00:00Z\":1}"),
            std::string::npos)
      << objects[0];
  EXPECT_NE(objects[0].find("\"expiry\":[{\"window\":\"2024-01-15T00:00:00Z\""), std::string::npos)
      << objects[0];
  EXPECT_EQ(objects[1].rfind("{\"keyspace\":\"iot\",\"table\":\"sensors\",\"sstable_count\":1,", 0),
            0u)
      << objects[1];
  EXPECT_NE(objects[1].find("\"sstables_per_window\":{}"), std::string::npos);
  EXPECT_EQ(objects[1].find("\"expiry\""), std::string::npos);
}

TEST_F(StatsCommandTest, TableModeLooksLikeNodetoolTablestats) {
  ASSERT_EQ(Run("table", "iot.readings"), 0) << err_.str();
  const std::string out = out_.str();
  EXPECT_EQ(out.rfind("Total number of tables: 1\n----------------\nKeyspace : iot\n"
                      "\t\tTable: readings\n\t\tSSTable count: 2\n",
                      0),
            0u)
      << out;
  EXPECT_NE(out.find("\t\tSSTables in each window: 2024-01-15T00:00:00Z=1, "
                     "2024-01-15T01:00:00Z=1\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\t\tExpiry by window:\n\t\t\t2024-01-15T00:00:00Z: SSTables ["),
            std::string::npos)
      << out;
  // Expired once the TTL (2 h) has passed; gc_grace_seconds is 0. The view
  // reads the system clock, long after: everything is droppable now.
  EXPECT_NE(out.find("all droppable at 2024-01-15T02:00:01Z"), std::string::npos) << out;
  EXPECT_NE(out.find(" 0 bytes live, "), std::string::npos) << out;
  EXPECT_EQ(out.find("SSTables in each level"), std::string::npos) << out;
}

TEST_F(StatsCommandTest, SelectsOneKeyspace) {
  ASSERT_EQ(Run("json", "iot"), 0) << err_.str();
  const std::string out = out_.str();
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3);  // two tables, the device
}

TEST_F(StatsCommandTest, UnknownTableOrDirectoryFails) {
  EXPECT_EQ(Run("json", "iot.nosuch"), 1);
  EXPECT_NE(err_.str().find("cassette stats: "), std::string::npos);
  err_.str("");
  StatsSettings settings;
  settings.data_dir = "/nowhere";
  EXPECT_EQ(RunStatsCommand(settings, fs_, out_, err_), 1);
  EXPECT_EQ(err_.str().rfind("cassette stats: cannot open /nowhere: NotFound: ", 0), 0u)
      << err_.str();
}

// --clock judges expiry at the shell's manual time: 30 minutes after the
// first hour's reading was written, nothing of it is droppable yet (TTL
// 2 h); on the system clock, long after, all of it is.
TEST_F(StatsCommandTest, ClockJudgesExpiryAtTheManualTime) {
  ASSERT_EQ(Run("table", "iot.readings", kStart + 1800LL * 1000000), 0) << err_.str();
  const std::string at_start = out_.str();
  EXPECT_NE(at_start.find("2024-01-15T00:00:00Z: SSTables [1]; "), std::string::npos) << at_start;
  EXPECT_EQ(at_start.find(" 0 bytes live, "), std::string::npos) << at_start;
  EXPECT_NE(at_start.find("fully expired at 2024-01-15T02:00:01Z, droppable tombstones 0.000"),
            std::string::npos)
      << at_start;
  out_.str("");
  ASSERT_EQ(Run("table", "iot.readings"), 0) << err_.str();
  EXPECT_NE(out_.str().find(" 0 bytes live, "), std::string::npos) << out_.str();
  // sstablemetadata's ratio: the expiring cell and the row marker, over
  // the one cell.
  EXPECT_NE(out_.str().find("droppable tombstones 2.000"), std::string::npos) << out_.str();
}

// Each table lists its SSTables (generation, level, size, counts,
// timestamps, expiry), its write stalls and its compaction history.
TEST_F(StatsCommandTest, ListsEachSSTableWriteStallsAndCompactionHistory) {
  ASSERT_EQ(Run("table", "iot.sensors"), 0) << err_.str();
  const std::string out = out_.str();
  EXPECT_NE(out.find("\t\tMemtable write stalls (since opened): 0\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\t\tSSTables:\n\t\t\t3: level 0, "), std::string::npos) << out;
  EXPECT_NE(out.find(" bytes, 1 partitions, 1 rows, 1 cells (0 tombstones), "), std::string::npos)
      << out;
  EXPECT_NE(out.find("timestamps 2024-01-15T02:00:00Z .. 2024-01-15T02:00:00Z, max TTL 0 s, "
                     "fully expired never"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\t\tMemtable write stalls (total): 0\n\t\tTime stalled (total, ms): 0\n"
                     "\t\tLast memtable write stall: never\n"),
            std::string::npos)
      << out;
  // Nothing compacted the table yet, in this process or an earlier one.
  EXPECT_NE(out.find("Compaction history (last 7 days, at most 100; nodetool compactionhistory):\n"
                     "\t\t\t(none)\n"),
            std::string::npos)
      << out;
  out_.str("");
  ASSERT_EQ(Run("json", "iot.sensors"), 0) << err_.str();
  EXPECT_NE(out_.str().find(",\"memtable_write_stalls\":0,\"memtable_write_stalls_total\":0,"
                            "\"memtable_write_stall_micros_total\":0,"
                            "\"last_memtable_write_stall\":null,"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find(",\"history_warnings\":[],"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find(",\"sstables\":[{\"generation\":3,\"level\":0,\"bytes_on_disk\":"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find(",\"compaction_history\":[]}\n"), std::string::npos) << out_.str();
}

// The history as the writing process sees it after a major compaction
// (Database::GetTableStats: recent_compactions).
TEST_F(StatsCommandTest, CompactionHistoryNamesInputsOutputsAndBytes) {
  ASSERT_TRUE(db_->CompactMajor("iot", "sensors").ok());
  Result<TableStats> stats = db_->GetTableStats("iot", "sensors");
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(stats->recent_compactions.size(), 1u);
  const std::string text = CompactionHistoryText(stats->recent_compactions);
  EXPECT_NE(text.find("\t\t\t2024-01-15T02:00:00Z: major; [3] -> [4]; bytes in "),
            std::string::npos)
      << text;
  const std::string json = CompactionHistoryJson(stats->recent_compactions);
  EXPECT_EQ(json.rfind("[{\"compacted_at\":\"2024-01-15T02:00:00Z\",\"strategy\":", 0), 0u) << json;
  EXPECT_NE(json.find("\"major\":true,\"inputs\":[3],\"expired\":[],\"outputs\":[4],"),
            std::string::npos)
      << json;
}

// The compaction a previous process did, read back from the table's
// HISTORY file by `cassette stats` (a read-only open), on the manual clock
// the data was written on (--clock manual:2024-01-15T02:00:00Z): what
// nodetool compactionhistory shows after a restart.
TEST_F(StatsCommandTest, ShowsTheCompactionHistoryOfAPreviousProcess) {
  ASSERT_TRUE(db_->CompactMajor("iot", "sensors").ok());
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  Result<StatsSettings> settings = ParseStatsArguments(
      {"--data", "/data", "--clock", "manual:2024-01-15T02:00:00Z", "iot.sensors"});
  ASSERT_TRUE(settings.ok()) << settings.status().ToString();
  ASSERT_EQ(RunStatsCommand(*settings, fs_, out_, err_), 0) << err_.str();
  const std::string text = out_.str();
  EXPECT_NE(text.find("Compaction history (last 7 days, at most 100; nodetool "
                      "compactionhistory):\n\t\t\t2024-01-15T02:00:00Z: major; [3] -> [4]; "
                      "bytes in "),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Warning"), std::string::npos) << text;

  out_.str("");
  settings->format = OutputFormat::kJson;
  ASSERT_EQ(RunStatsCommand(*settings, fs_, out_, err_), 0) << err_.str();
  const std::string json = out_.str();
  EXPECT_NE(json.find(",\"compaction_history\":[{\"compacted_at\":\"2024-01-15T02:00:00Z\","
                      "\"strategy\":"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"major\":true,\"inputs\":[3],\"expired\":[],\"outputs\":[4],"),
            std::string::npos)
      << json;
}

// A damaged record in the middle of the HISTORY file is a warning naming
// the file and the offset; the statistics are still printed, exit code 0.
TEST_F(StatsCommandTest, WarnsOfADamagedHistoryFileWithFileAndOffset) {
  ASSERT_TRUE(db_->CompactMajor("iot", "sensors").ok());
  ASSERT_TRUE(clock_->Advance(60LL * 1000000).ok());
  Mutation sensor("iot", "sensors", {Value::Text("s2")});
  sensor.Insert({}).Set("model", Value::Text("sht31"));
  ASSERT_TRUE(db_->Apply(sensor).ok());
  ASSERT_TRUE(db_->FlushTable("iot", "sensors").ok());
  ASSERT_TRUE(db_->CompactMajor("iot", "sensors").ok());
  ASSERT_EQ(db_->GetTableStats("iot", "sensors")->recent_compactions.size(), 2u);
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  Result<TableSchema> schema = [&] {
    Options options;
    options.file_system = fs_;
    options.clock = clock_;
    options.read_only = true;
    auto db = Database::Open(options, "/data");
    return db.ok() ? (*db)->GetTable("iot", "sensors") : Result<TableSchema>(db.status());
  }();
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const std::string path = "/data/iot/sensors-" + std::to_string(schema->id()) + "/HISTORY";
  std::string bytes;
  {
    auto file = fs_->NewSequentialFile(path);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    std::string chunk;
    do {
      ASSERT_TRUE((*file)->Read(1 << 20, &chunk).ok());
      bytes += chunk;
    } while (!chunk.empty());
  }
  ASSERT_GT(bytes.size(), 30u);
  bytes[20] ^= 0x01;  // inside the first record, after the 8-byte header and frame
  {
    auto file = fs_->NewWritableFile(path);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append(bytes).ok());
    ASSERT_TRUE((*file)->Close().ok());
  }
  ASSERT_EQ(Run("table", "iot.sensors", kStart + 7200LL * 1000000), 0) << err_.str();
  EXPECT_NE(
      out_.str().find("\t\tWarning (history file): " + path + ": checksum mismatch at offset 8\n"),
      std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("compactionhistory):\n\t\t\t(none)\n"), std::string::npos)
      << out_.str();
  out_.str("");
  ASSERT_EQ(Run("json", "iot.sensors", kStart + 7200LL * 1000000), 0) << err_.str();
  EXPECT_NE(
      out_.str().find(",\"history_warnings\":[\"" + path + ": checksum mismatch at offset 8\"]"),
      std::string::npos)
      << out_.str();
}

// A table whose background flushes or compactions failed shows how many,
// in both formats (the shell's STATS reports the open database's count).
TEST(TableStatsOutputTest, ShowsBackgroundErrors) {
  TableStats stats;
  stats.keyspace = "iot";
  stats.table = "sensors";
  stats.background_errors = 3;
  EXPECT_NE(TableStatsText(stats, nullptr).find("\t\tBackground errors (since opened): 3\n"),
            std::string::npos);
  EXPECT_NE(TableStatsJson(stats, nullptr).find(",\"background_errors\":3"), std::string::npos);
}

}  // namespace
}  // namespace cassette::tools
