// `cassette advise`: the sizing rule (docs/ADVISE.md) on the workload
// shapes time-series users paste (daily-bucketed sensors with a 7-day TTL,
// market ticks without a TTL, a hot identifier needing hash sub-buckets),
// its readable units, and the --data form on tables built through the C++
// API and read through a read-only second view.
#include "tools/advise_command.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cassette/db.h"
#include "engine/sstable/sstable_format.h"
#include "engine/sstable/sstable_reader.h"
#include "tests/support/file_contents.h"
#include "tools/advise_observed.h"
#include "tools/advise_rule.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z
constexpr int64_t kSecond = 1000000;

Advice MustAdvise(double rate, double row_bytes, int64_t ttl, double target = 100e6,
                  int64_t identifiers = 1) {
  Result<Advice> advice = Advise({.rows_per_second = rate,
                                  .row_bytes = row_bytes,
                                  .ttl_seconds = ttl,
                                  .target_partition_bytes = target,
                                  .identifiers = identifiers});
  EXPECT_TRUE(advice.ok()) << advice.status().ToString();
  return advice.ok() ? *advice : Advice{};
}

const BucketChoice* Candidate(const Advice& advice, int64_t bucket_seconds) {
  for (const BucketChoice& choice : advice.candidates) {
    if (choice.bucket_seconds == bucket_seconds) return &choice;
  }
  return nullptr;
}

TEST(AdviseUnitsTest, RatesDurationsAndSizesReadAsPeopleWriteThem) {
  for (const char* text : {"0.1/s", "6/min", "1/10s", "360/h", "8640/d", "0.1"}) {
    Result<double> rate = ParseRatePerSecond(text);
    ASSERT_TRUE(rate.ok()) << text << ": " << rate.status().ToString();
    EXPECT_NEAR(*rate, 0.1, 1e-12) << text;
  }
  for (const char* bad : {"", "fast", "-1/s", "0/s", "1/0s", "1/xs", "1/s/s"}) {
    Result<double> rate = ParseRatePerSecond(bad);
    EXPECT_FALSE(rate.ok()) << bad;
    if (!rate.ok()) {
      EXPECT_TRUE(rate.status().IsInvalidArgument()) << bad;
    }
  }
  const std::pair<const char*, int64_t> durations[] = {
      {"7d", 604800}, {"12h", 43200},  {"30m", 1800},    {"30min", 1800}, {"90", 90},
      {"90s", 90},    {"2w", 1209600}, {"1y", 31536000}, {"1.5h", 5400},  {"none", 0}};
  for (const auto& [text, seconds] : durations) {
    Result<int64_t> parsed = ParseDurationSeconds(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, seconds) << text;
  }
  for (const char* bad : {"", "7q", "d", "-1d", "seven days"}) {
    EXPECT_FALSE(ParseDurationSeconds(bad).ok()) << bad;
  }
  const std::pair<const char*, double> sizes[] = {
      {"60", 60}, {"60B", 60}, {"1.5KB", 1500}, {"2KiB", 2048}, {"1MiB", 1048576}, {"1mb", 1e6}};
  for (const auto& [text, bytes] : sizes) {
    Result<double> parsed = ParseByteSize(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_DOUBLE_EQ(*parsed, bytes) << text;
  }
  for (const char* bad : {"0", "-5", "5XB", "big"}) EXPECT_FALSE(ParseByteSize(bad).ok()) << bad;
}

// The worked examples of the rule of thumb (docs/ADVISE.md): 1 row/s of
// 100 B rows is 8.64 MB a day; 100/s is 36 MB an hour; 1000/s is 60 MB
// in 10 minutes.
TEST(AdviseRuleTest, PartitionSizeIsRateTimesBucketTimesRowSize) {
  EXPECT_DOUBLE_EQ(Candidate(MustAdvise(1, 100, 0), 86400)->partition_bytes, 8.64e6);
  EXPECT_DOUBLE_EQ(Candidate(MustAdvise(100, 100, 0), 3600)->partition_bytes, 36e6);
  EXPECT_DOUBLE_EQ(Candidate(MustAdvise(1000, 100, 0), 600)->partition_bytes, 60e6);
  // Without a TTL the largest bucket under the target wins.
  EXPECT_EQ(MustAdvise(1, 100, 0).bucket.bucket_seconds, 7 * 86400);   // 60.5 MB
  EXPECT_EQ(MustAdvise(100, 100, 0).bucket.bucket_seconds, 2 * 3600);  // 72 MB
  EXPECT_EQ(MustAdvise(1000, 100, 0).bucket.bucket_seconds, 15 * 60);  // 90 MB
  // A smaller target moves the choice down.
  EXPECT_EQ(MustAdvise(100, 100, 0, 10e6).bucket.bucket_seconds, 15 * 60);  // 9 MB
}

// 1000 sensors, a reading every 10 s, 60-byte rows, 7-day TTL (the
// daily-bucketed sensor table of the examples).
TEST(AdviseRuleTest, SensorsWithASevenDayTtl) {
  const Advice advice = MustAdvise(0.1, 60, 7 * 86400, 100e6, 1000);
  EXPECT_TRUE(advice.twcs_recommended);
  EXPECT_EQ(advice.window.unit, "HOURS");
  EXPECT_EQ(advice.window.size, 6);
  EXPECT_EQ(advice.window_count, 28);
  EXPECT_EQ(advice.bucket.bucket_seconds, 6 * 3600);  // the window: one window per partition
  EXPECT_EQ(advice.sub_buckets, 1);
  EXPECT_DOUBLE_EQ(advice.partition_bytes, 0.1 * 21600 * 60);
  EXPECT_DOUBLE_EQ(advice.bytes_per_day, 0.1 * 86400 * 60 * 1000);
  EXPECT_DOUBLE_EQ(advice.live_bytes, 0.1 * 604800 * 60 * 1000);
  // The daily bucket the example uses: 518.4 KB, 7 windows over the TTL.
  const BucketChoice* daily = Candidate(advice, 86400);
  ASSERT_NE(daily, nullptr);
  EXPECT_DOUBLE_EQ(daily->partition_bytes, 518400);
  EXPECT_EQ(daily->window_count, 7);
  EXPECT_FALSE(daily->recommended);
  EXPECT_EQ(daily->note, "under 1 MB: overhead dominates");
  ASSERT_FALSE(advice.reasons.empty());
  EXPECT_NE(advice.reasons[0].find("28 windows"), std::string::npos) << advice.reasons[0];

  std::string text = AdviceText(advice);
  EXPECT_NE(text.find("6 h *"), std::string::npos) << text;
  EXPECT_NE(text.find("'compaction_window_unit': 'HOURS', 'compaction_window_size': 6"),
            std::string::npos)
      << text;
  std::string json = AdviceJson(advice);
  EXPECT_NE(json.find("\"bucket_seconds\":21600,\"bucket\":\"6 h\",\"sub_buckets\":1"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"window_count\":28"), std::string::npos) << json;
}

// Market ticks: a busy symbol (50 ticks/s of 80 B) kept for good.
TEST(AdviseRuleTest, MarketTicksWithoutTtl) {
  const Advice advice = MustAdvise(50, 80, 0);
  EXPECT_FALSE(advice.twcs_recommended);
  EXPECT_EQ(advice.bucket.bucket_seconds, 6 * 3600);
  EXPECT_DOUBLE_EQ(advice.partition_bytes, 86.4e6);
  EXPECT_EQ(advice.sub_buckets, 1);
  // The trading-date partition of the example would be 346 MB.
  const BucketChoice* daily = Candidate(advice, 86400);
  ASSERT_NE(daily, nullptr);
  EXPECT_EQ(daily->sub_buckets_needed, 4);
  EXPECT_EQ(advice.window_count, 365 * 4);  // windows per year, never dropped
  EXPECT_NE(AdviceJson(advice).find("\"windows_per_year\":1460"), std::string::npos);
  EXPECT_NE(advice.reasons.back().find("no TTL"), std::string::npos) << advice.reasons.back();
}

// One very busy identifier (the hash-bucketed event timelines): even a
// minute of it exceeds the target.
TEST(AdviseRuleTest, HotIdentifierNeedsHashSubBuckets) {
  const Advice advice = MustAdvise(50000, 100, 86400);
  EXPECT_EQ(advice.bucket.bucket_seconds, 60);
  EXPECT_EQ(advice.sub_buckets, 3);  // 300 MB a minute over 100 MB partitions
  EXPECT_DOUBLE_EQ(advice.partition_bytes, 100e6);
  EXPECT_EQ(advice.window.unit, "HOURS");
  EXPECT_EQ(advice.window.size, 1);
  EXPECT_EQ(advice.window_count, 24);
  EXPECT_NE(advice.reasons.back().find("3 partitions (id, bucket, sub_bucket)"), std::string::npos)
      << advice.reasons.back();
}

TEST(AdviseRuleTest, WindowAimsAtTwentyFiveWindowsOverTheTtl) {
  const std::pair<int64_t, std::pair<const char*, int64_t>> cases[] = {
      {86400, {"HOURS", 1}},        // 24 windows
      {90 * 86400, {"DAYS", 4}},    // 23
      {365 * 86400, {"DAYS", 15}},  // 25
      {30 * 86400, {"DAYS", 1}},    // 30
      {600, {"MINUTES", 1}},        // 10: too short for 20 windows of a minute
  };
  for (const auto& [ttl, expected] : cases) {
    const TwcsWindow window = WindowForTtl(ttl);
    EXPECT_EQ(window.unit, expected.first) << ttl;
    EXPECT_EQ(window.size, expected.second) << ttl;
  }
  // With a TTL the bucket tiles the window: a bucket over the target
  // shrinks to a divisor of the window.
  const Advice advice = MustAdvise(2000, 100, 7 * 86400);  // 4.32 GB per 6 h window
  EXPECT_EQ(advice.window.size, 6);
  EXPECT_EQ(21600 % advice.bucket.bucket_seconds, 0);
  EXPECT_EQ(advice.bucket.bucket_seconds, 5 * 60);  // 60 MB; 10 min would be 120 MB
}

TEST(AdviseRuleTest, OutOfRangeInputsAreErrors) {
  EXPECT_TRUE(Advise({.rows_per_second = 0, .row_bytes = 60}).status().IsInvalidArgument());
  EXPECT_TRUE(Advise({.rows_per_second = 1, .row_bytes = 0}).status().IsInvalidArgument());
  EXPECT_TRUE(Advise({.rows_per_second = 1, .row_bytes = 60, .ttl_seconds = -1})
                  .status()
                  .IsInvalidArgument());
  EXPECT_TRUE(Advise({.rows_per_second = 1, .row_bytes = 60, .target_partition_bytes = 0})
                  .status()
                  .IsInvalidArgument());
}

TEST(AdviseArgumentsTest, UsageErrors) {
  Result<AdviseSettings> ok =
      ParseAdviseArguments({"--rate", "1/10s", "--row-bytes=60", "--ttl", "7d", "--identifiers",
                            "1000", "--target-partition-mb", "50", "--format", "json"});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_DOUBLE_EQ(*ok->rows_per_second, 0.1);
  EXPECT_EQ(ok->ttl_seconds, 604800);
  EXPECT_EQ(ok->identifiers, 1000);
  EXPECT_DOUBLE_EQ(ok->target_partition_bytes, 50e6);
  const std::vector<std::vector<std::string>> bad = {
      {"--rate", "1/s"},                                      // no row size
      {"--rate", "1/s", "--row-bytes", "60", "--ttl", "7q"},  // bad unit
      {"--data", "/d"},                                       // no table
      {"--data", "/d", "ks.t", "--rate", "1/s"},              // both forms
      {"--rate", "1/s", "--row-bytes", "60", "ks.t"},         // a table without --data
      {"--rate", "1/s", "--row-bytes", "60", "--identifiers", "1.5"},
      {"--rate", "1/s", "--row-bytes", "60", "--bogus"},
      {"--rate"},
  };
  for (const auto& args : bad) {
    Result<AdviseSettings> settings = ParseAdviseArguments(args);
    EXPECT_FALSE(settings.ok()) << args.front() << " " << args.size();
    if (!settings.ok()) {
      EXPECT_TRUE(settings.status().IsInvalidArgument());
    }
  }
  std::ostringstream out;
  std::ostringstream err;
  ok->format = OutputFormat::kTable;
  EXPECT_EQ(RunAdviseCommand(*ok, NewMemFileSystem(), out, err), 0) << err.str();
  EXPECT_NE(out.str().find("Recommendation:"), std::string::npos) << out.str();
}

// The --data form, on tables written through the C++ API under a manual
// clock and read through a read-only second view while the first is open.
class AdviseDataTest : public ::testing::Test {
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
  }

  // The daily-bucketed sensor table: 3 sensors, a reading every 10 s for
  // two hours, 7-day TTL, TWCS with 1-day windows.
  void WriteSensors() {
    TableOptions twcs;
    twcs.compaction = {{"class", "TimeWindowCompactionStrategy"},
                       {"compaction_window_unit", "DAYS"},
                       {"compaction_window_size", "1"}};
    twcs.default_time_to_live = 604800;
    ASSERT_TRUE(db_->CreateTable(TableSchema("iot", "sensor_readings_daily")
                                     .AddPartitionKey("sensor_id", DataType::Text())
                                     .AddPartitionKey("reading_date", DataType::Date())
                                     .AddClustering("reading_time", DataType::Timestamp(),
                                                    ClusteringOrder::kDesc)
                                     .AddRegular("temperature", DataType::Double())
                                     .AddRegular("humidity", DataType::Double())
                                     .WithOptions(twcs))
                    .ok());
    for (int tick = 0; tick < 720; ++tick) {
      const int64_t now = clock_->WallMicros();
      for (const char* sensor : {"s1", "s2", "s3"}) {
        Mutation m("iot", "sensor_readings_daily",
                   {Value::Text(sensor), Value::Date(static_cast<int32_t>(now / kSecond / 86400))});
        m.Insert({Value::Timestamp(now / 1000)})
            .Set("temperature", Value::Double(21.5))
            .Set("humidity", Value::Double(60.0));
        ASSERT_TRUE(db_->Apply(m).ok());
      }
      ASSERT_TRUE(clock_->Advance(10 * kSecond).ok());
    }
    ASSERT_TRUE(db_->Flush().ok());
  }

  int Run(std::vector<std::string> args) {
    args.insert(args.begin(), {"--data", "/data", "--clock", "manual:2024-01-15T02:00:00Z"});
    Result<AdviseSettings> settings = ParseAdviseArguments(args);
    EXPECT_TRUE(settings.ok()) << settings.status().ToString();
    if (!settings.ok()) return -1;
    out_.str("");
    err_.str("");
    return RunAdviseCommand(*settings, fs_, out_, err_);
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>(kStart);
  std::unique_ptr<Database> db_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(AdviseDataTest, DerivesTheSensorWorkloadAndJudgesTheDailyWindow) {
  WriteSensors();
  Result<ObservedWorkload> observed = ObserveTable(db_.get(), "iot", "sensor_readings_daily");
  ASSERT_TRUE(observed.ok()) << observed.status().ToString();
  EXPECT_EQ(observed->identifier_columns, std::vector<std::string>{"sensor_id"});
  EXPECT_EQ(observed->bucket_columns, std::vector<std::string>{"reading_date"});
  EXPECT_EQ(observed->rows, 3 * 720);
  EXPECT_EQ(observed->partitions, 3);
  EXPECT_EQ(observed->identifiers, 3);
  EXPECT_NEAR(observed->mean_rows_per_second, 0.1, 1e-9);
  EXPECT_NEAR(observed->busiest_rows_per_second, 0.1, 1e-9);
  EXPECT_EQ(observed->ttl_mix, (std::map<int64_t, int64_t>{{604800, 3 * 720}}));
  EXPECT_EQ(observed->dominant_ttl_seconds, 604800);
  ASSERT_TRUE(observed->bucket_seconds.has_value());
  EXPECT_EQ(*observed->bucket_seconds, 86400);
  ASSERT_TRUE(observed->window.has_value());
  EXPECT_EQ(observed->window->unit, "DAYS");
  // reading_time (8) + two doubles (8 each) + 8 per cell.
  EXPECT_DOUBLE_EQ(observed->row_bytes, 8 + 2 * (8 + 8));

  ASSERT_EQ(Run({"--format", "json", "iot.sensor_readings_daily"}), 0) << err_.str();
  const std::string json = out_.str();
  EXPECT_NE(json.find("\"bucket_seconds\":86400,\"sub_buckets\":1"), std::string::npos) << json;
  // 1-day windows give 7 windows over the 7-day TTL: outside 20-30.
  EXPECT_NE(json.find("current TWCS window 1 DAYS: 7 windows over the 1 week TTL, outside "
                      "20-30: change to 6 HOURS (28 windows)"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"compaction_window_unit\":\"HOURS\",\"compaction_window_size\":6"),
            std::string::npos)
      << json;

  ASSERT_EQ(Run({"iot.sensor_readings_daily"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("identifier columns: sensor_id; time bucket: reading_date"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("Recommendation:"), std::string::npos) << out_.str();
}

// The event-timeline shape: (identifier, time_bucket = epoch s / 600,
// event_bucket in 0..3), no TTL, under STCS.
TEST_F(AdviseDataTest, RecognizesEpochBucketsAndHashSubBuckets) {
  ASSERT_TRUE(db_->CreateTable(TableSchema("iot", "time_series_events")
                                   .AddPartitionKey("identifier", DataType::Text())
                                   .AddPartitionKey("time_bucket", DataType::Bigint())
                                   .AddPartitionKey("event_bucket", DataType::Int())
                                   .AddClustering("event_time", DataType::Timestamp())
                                   .AddRegular("payload", DataType::Blob()))
                  .ok());
  for (int tick = 0; tick < 400; ++tick) {
    const int64_t now = clock_->WallMicros();
    Mutation m(
        "iot", "time_series_events",
        {Value::Text("counter:views"), Value::Bigint(now / kSecond / 600), Value::Int(tick % 4)});
    m.Insert({Value::Timestamp(now / 1000)}).Set("payload", Value::Blob(std::string(40, 'x')));
    ASSERT_TRUE(db_->Apply(m).ok());
    ASSERT_TRUE(clock_->Advance(5 * kSecond).ok());
  }
  Result<ObservedWorkload> observed = ObserveTable(db_.get(), "iot", "time_series_events");
  ASSERT_TRUE(observed.ok()) << observed.status().ToString();
  EXPECT_EQ(observed->bucket_columns, std::vector<std::string>{"time_bucket"});
  EXPECT_EQ(observed->sub_bucket_columns, std::vector<std::string>{"event_bucket"});
  ASSERT_TRUE(observed->bucket_seconds.has_value());
  EXPECT_EQ(*observed->bucket_seconds, 600);
  EXPECT_EQ(observed->sub_buckets, 4);
  EXPECT_NEAR(observed->busiest_rows_per_second, 0.2, 1e-9);
  EXPECT_EQ(observed->ttl_mix, (std::map<int64_t, int64_t>{{0, 400}}));
  EXPECT_DOUBLE_EQ(observed->row_bytes, 8 + 40 + 8);
  Result<Advice> advice = Advise(
      {.rows_per_second = observed->busiest_rows_per_second, .row_bytes = observed->row_bytes});
  ASSERT_TRUE(advice.ok());
  const std::vector<std::string> findings = CompareWithAdvice(*observed, *advice);
  ASSERT_FALSE(findings.empty());
  EXPECT_NE(findings[0].find("current bucket 10 min x 4 sub-buckets"), std::string::npos)
      << findings[0];
  EXPECT_NE(findings[0].find("within the target"), std::string::npos) << findings[0];
}

TEST_F(AdviseDataTest, ErrorsAreMessagesAndExitCodes) {
  WriteSensors();
  EXPECT_EQ(Run({"iot.missing"}), 1);
  EXPECT_NE(err_.str().find("iot.missing"), std::string::npos) << err_.str();
  EXPECT_EQ(Run({"not_a_table_name"}), 1);
  EXPECT_NE(err_.str().find("is not keyspace.table"), std::string::npos) << err_.str();

  Result<AdviseSettings> elsewhere = ParseAdviseArguments({"--data", "/nowhere", "iot.t"});
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_EQ(RunAdviseCommand(*elsewhere, fs_, out_, err_), 1);
  EXPECT_NE(err_.str().find("cannot open /nowhere"), std::string::npos) << err_.str();

  // A table with one row per identifier cannot give a rate.
  ASSERT_TRUE(db_->CreateTable(TableSchema("iot", "sensors")
                                   .AddPartitionKey("sensor", DataType::Text())
                                   .AddRegular("model", DataType::Text()))
                  .ok());
  Mutation sensor("iot", "sensors", {Value::Text("s1")});
  sensor.Insert({}).Set("model", Value::Text("bme280"));
  ASSERT_TRUE(db_->Apply(sensor).ok());
  EXPECT_EQ(Run({"iot.sensors"}), 1);
  EXPECT_NE(err_.str().find("cannot derive a write rate"), std::string::npos) << err_.str();
}

// A damaged SSTable: the open refuses it (disk_failure_policy stop), and
// the message names the file.
TEST_F(AdviseDataTest, CorruptedSSTableIsAClearError) {
  WriteSensors();
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  auto dirs = fs_->GetChildren("/data/iot");
  ASSERT_TRUE(dirs.ok() && dirs->size() == 1);
  const std::string damaged = "/data/iot/" + dirs->front() + "/000001.sst";
  auto reader = SSTableReader::Open(fs_.get(), damaged, nullptr);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const SectionEntry* statistics = (*reader)->footer().Find(SectionType::kStatistics);
  ASSERT_NE(statistics, nullptr);
  const uint64_t middle = statistics->offset + statistics->length / 2;
  reader->reset();
  std::string bytes = *ReadFileToString(*fs_, damaged);
  bytes[middle] ^= 0x5a;
  ASSERT_TRUE(WriteStringToFile(*fs_, damaged, bytes, true).ok());
  EXPECT_EQ(Run({"iot.sensor_readings_daily"}), 1);
  EXPECT_NE(err_.str().find("Corruption"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find(damaged), std::string::npos) << err_.str();
  EXPECT_TRUE(out_.str().empty()) << out_.str();
}

}  // namespace
}  // namespace cassette::tools
