// Bounded memory and limits of the CQL layer: aggregates and GROUP BY
// stream their input, statement and value sizes, BATCH sizes
// (BatchStatement.verifyBatchSize), large IN lists in writes, odd-length
// hex literals and out-of-range time conversions.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/cql/cql_session_fixture.h"

namespace cassette::cql {
namespace {

class LimitsTest : public CqlSessionTest {
 protected:
  // The error of a statement that must fail, with its class.
  std::string ErrorText(const std::string& cql, const std::vector<Value>& values = {}) {
    return Failure(cql, values).ToString();
  }

  // One value of a one-row result, rendered.
  std::string Scalar(const std::string& cql) {
    CqlResult result = Run(cql);
    if (result.rows.size() != 1 || result.rows[0].size() != 1) return "<not one value>";
    return result.rows[0][0].ToString();
  }

  // Every page of `cql`, each row rendered "a, b".
  std::vector<std::string> PagedRows(const std::string& cql, int32_t page_size) {
    std::vector<std::string> rows;
    CqlQueryOptions options;
    options.page_size = page_size;
    for (int pages = 0; pages < 10000; ++pages) {
      CqlResult page = Run(cql, {}, options);
      EXPECT_LE(page.rows.size(), static_cast<size_t>(page_size));
      for (const auto& row : page.rows) {
        std::string text;
        for (const Value& v : row) text += (text.empty() ? "" : ", ") + v.ToString();
        rows.push_back(text);
      }
      if (page.paging_state.empty()) break;
      options.paging_state = page.paging_state;
    }
    return rows;
  }

  void FillPartition(int rows) {
    Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
    auto prepared = session_->Prepare("INSERT INTO t (k, c, v) VALUES (0, ?, ?)");
    ASSERT_TRUE(prepared.ok());
    for (int i = 0; i < rows; ++i) {
      auto r = session_->Execute(*prepared, std::vector<Value>{Value::Int(i), Value::Int(i % 7)});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
  }
};

// --- Aggregates stream their input ---------------------------------------

TEST_F(LimitsTest, AggregatesOverManyRowsStream) {
  FillPartition(5000);
  ASSERT_TRUE(db_->Flush().ok());
  Run("INSERT INTO t (k, c, v) VALUES (0, 5000, 100)");  // memtable and SSTable
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"), "5001");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t WHERE k = 0"), "5001");
  EXPECT_EQ(Scalar("SELECT max(v) FROM t"), "100");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t WHERE k = 0 AND c >= 4000"), "1001");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t WHERE v = 3 ALLOW FILTERING"), "714");
  // Paged, the single group is one page whatever the page size.
  EXPECT_EQ(PagedRows("SELECT count(*) FROM t", 10), std::vector<std::string>{"5001"});
}

TEST_F(LimitsTest, GroupByPagesInGroups) {
  Run("CREATE TABLE g (k int, c int, d int, v int, PRIMARY KEY (k, c, d))");
  std::vector<std::string> expected;
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 7; ++c) {
      for (int d = 0; d < 5; ++d) {
        Run("INSERT INTO g (k, c, d, v) VALUES (" + std::to_string(k) + ", " + std::to_string(c) +
            ", " + std::to_string(d) + ", " + std::to_string(d) + ")");
      }
    }
  }
  CqlResult whole = Run("SELECT k, c, count(*), sum(v) FROM g GROUP BY k, c");
  ASSERT_EQ(whole.rows.size(), 21u);
  for (const auto& row : whole.rows) {
    std::string text;
    for (const Value& v : row) text += (text.empty() ? "" : ", ") + v.ToString();
    expected.push_back(text);
    EXPECT_EQ(row[2].ToString(), "5");
    EXPECT_EQ(row[3].ToString(), "10");
  }
  for (int page_size : {1, 2, 5, 20, 21, 22, 100}) {
    EXPECT_EQ(PagedRows("SELECT k, c, count(*), sum(v) FROM g GROUP BY k, c", page_size), expected)
        << page_size;
  }
  // LIMIT and PER PARTITION LIMIT count groups, paged or not.
  EXPECT_EQ(Run("SELECT k, c, count(*) FROM g GROUP BY k, c LIMIT 9").rows.size(), 9u);
  EXPECT_EQ(PagedRows("SELECT k, c, count(*) FROM g GROUP BY k, c LIMIT 9", 4).size(), 9u);
  EXPECT_EQ(PagedRows("SELECT k, c FROM g GROUP BY k, c PER PARTITION LIMIT 2", 3),
            (std::vector<std::string>{"1, 0", "1, 1", "0, 0", "0, 1", "2, 0", "2, 1"}));
}

TEST_F(LimitsTest, AggregateWithLimitStopsEarly) {
  FillPartition(3000);
  // One group per clustering value: LIMIT 3 ends the read after the fourth row.
  CqlResult result = Run("SELECT c, count(*) FROM t WHERE k = 0 GROUP BY c LIMIT 3");
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[2][0].ToString(), "2");
}

TEST_F(LimitsTest, GroupByPagingStateBeyondTheGroupsIsRefused) {
  FillPartition(10);
  CqlQueryOptions options;
  options.page_size = 4;
  CqlResult first = Run("SELECT c, count(*) FROM t GROUP BY k, c", {}, options);
  ASSERT_FALSE(first.paging_state.empty());
  // A state from another query over more groups: its offset is past these.
  Run("CREATE TABLE many (k int, c int, PRIMARY KEY (k, c))");
  for (int i = 0; i < 30; ++i) Run("INSERT INTO many (k, c) VALUES (0, " + std::to_string(i) + ")");
  options.paging_state.clear();
  CqlResult page = Run("SELECT c, count(*) FROM many GROUP BY k, c", {}, options);
  for (int i = 0; i < 4 && !page.paging_state.empty(); ++i) {
    options.paging_state = page.paging_state;
    page = Run("SELECT c, count(*) FROM many GROUP BY k, c", {}, options);
  }
  ASSERT_FALSE(page.paging_state.empty());
  options.paging_state = page.paging_state;
  auto refused = session_->Execute("SELECT c, count(*) FROM t GROUP BY k, c", {}, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Status::Code::kInvalidRequest);
}

// --- Statement and value sizes -------------------------------------------

TEST_F(LimitsTest, StatementLargerThanTheFrameIsRefusedBeforeParsing) {
  Options options;
  options.native_transport_max_frame_size = 100;
  OpenDatabase(options);
  Run("CREATE TABLE b (k int PRIMARY KEY, v blob)");
  const std::string statement = "INSERT INTO b (k, v) VALUES (1, 0x" + std::string(100, 'a') + ")";
  // Mirrors Cassandra's frame decoder (transport/Frame.Decoder.fail).
  EXPECT_EQ(ErrorText(statement), "InvalidRequest: Request is too big: length " +
                                      std::to_string(statement.size()) +
                                      " exceeds maximum allowed length 100.");
  EXPECT_FALSE(session_->Prepare(statement).ok());
  Run("INSERT INTO b (k, v) VALUES (1, 0xab)");
}

TEST_F(LimitsTest, BoundValueLargerThanMaxValueSizeIsRefused) {
  Options options;
  options.max_value_size = 64;
  OpenDatabase(options);
  Run("CREATE TABLE b (k int PRIMARY KEY, v blob)");
  EXPECT_EQ(ErrorText("INSERT INTO b (k, v) VALUES (1, ?)", {Value::Blob(std::string(65, 'x'))}),
            "InvalidRequest: Value length 65 exceeds the maximum of 64, which is set via "
            "max_value_size");
  Run("INSERT INTO b (k, v) VALUES (1, ?)", {Value::Blob(std::string(64, 'x'))});
  EXPECT_EQ(Scalar("SELECT count(*) FROM b"), "1");
}

// --- BATCH sizes ----------------------------------------------------------

std::string Batch(int partitions, size_t value_bytes) {
  std::string batch = "BEGIN UNLOGGED BATCH\n";
  for (int i = 0; i < partitions; ++i) {
    batch += "INSERT INTO kv (k, v) VALUES (" + std::to_string(i) + ", '" +
             std::string(value_bytes, 'x') + "');\n";
  }
  return batch + "APPLY BATCH";
}

// Mirrors BatchStatement.verifyBatchSize (and BatchTest's size cases):
// each row is one cell of 16 bytes of metadata plus its value, and a
// primary key liveness of 8 bytes.
TEST_F(LimitsTest, BatchOverTheWarnThresholdWarns) {
  Run("CREATE TABLE kv (k int PRIMARY KEY, v text)");
  // 2 rows of 8 + 16 + 2600 bytes: 5248 bytes, 128 past 5120.
  CqlResult result = Run(Batch(2, 2600));
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0],
            "Batch for [ks.kv] is of size 5248, exceeding specified threshold of 5120 by 128.");
  EXPECT_EQ(Scalar("SELECT count(*) FROM kv"), "2");
  // One partition: never checked (CASSANDRA-10876).
  EXPECT_TRUE(Run(Batch(1, 20000)).warnings.empty());
  // Through the mutation path (an UPDATE is no plain insert).
  result = Run("BEGIN BATCH UPDATE kv SET v = '" + std::string(3000, 'y') +
               "' WHERE k = 1; UPDATE kv SET v = '" + std::string(3000, 'y') +
               "' WHERE k = 2; APPLY BATCH");
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0],
            "Batch for [ks.kv] is of size 6032, exceeding specified threshold of 5120 by 912.");
}

TEST_F(LimitsTest, BatchOverTheFailThresholdIsRefusedWhole) {
  Run("CREATE TABLE kv (k int PRIMARY KEY, v text)");
  Run("CREATE TABLE other (k int PRIMARY KEY, v text)");
  EXPECT_EQ(ErrorText(Batch(30, 2000)), "InvalidRequest: Batch too large");
  EXPECT_EQ(Scalar("SELECT count(*) FROM kv"), "0");
  EXPECT_EQ(ErrorText("BEGIN BATCH INSERT INTO kv (k, v) VALUES (1, '" + std::string(30000, 'a') +
                      "'); UPDATE other SET v = '" + std::string(30000, 'b') +
                      "' WHERE k = 2; APPLY BATCH"),
            "InvalidRequest: Batch too large");
  EXPECT_EQ(Scalar("SELECT count(*) FROM kv"), "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM other"), "0");
}

TEST_F(LimitsTest, SinglePartitionBatchOverTheMutationSizeIsRefusedWhole) {
  Options options;
  options.max_mutation_size = 64 << 10;
  OpenDatabase(options);
  Run("CREATE TABLE wide (k int, c int, v text, PRIMARY KEY (k, c))");
  // Every statement alone fits; together they do not.
  std::string batch = "BEGIN BATCH\n";
  for (int c = 0; c < 10; ++c) {
    batch += "INSERT INTO wide (k, c, v) VALUES (0, " + std::to_string(c) + ", '" +
             std::string(10000, 'v') + "');\n";
  }
  batch += "APPLY BATCH";
  const std::string error = ErrorText(batch);
  EXPECT_EQ(error.rfind("InvalidRequest: Mutation of ", 0), 0u) << error;
  EXPECT_NE(error.find("bytes is too large for the maximum size of 65536"), std::string::npos);
  EXPECT_EQ(Scalar("SELECT count(*) FROM wide"), "0");
  // The same rows as separate statements are accepted.
  for (int c = 0; c < 10; ++c) {
    Run("INSERT INTO wide (k, c, v) VALUES (0, " + std::to_string(c) + ", '" +
        std::string(10000, 'v') + "')");
  }
  EXPECT_EQ(Scalar("SELECT count(*) FROM wide"), "10");
}

// --- Large IN lists in writes ------------------------------------------

std::string InList(int n, int repeat_every) {
  std::string list;
  for (int i = 0; i < n; ++i) {
    if (i > 0) list += ", ";
    list += std::to_string(repeat_every > 0 && i % repeat_every == 0 ? 0 : i);
  }
  return list;
}

TEST_F(LimitsTest, UpdateAndDeleteWithLargeInLists) {
  // 20 000 values: an n^2 de-duplication took minutes here; the time is
  // measured by hand (docs/RELIABILITY.md), the test checks the rows.
  constexpr int kValues = 20000;
  Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("UPDATE t SET v = 7 WHERE k = 0 AND c IN (" + InList(kValues, 0) + ")");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"), std::to_string(kValues));
  EXPECT_EQ(Scalar("SELECT sum(v) FROM t"), std::to_string(7 * kValues));
  // Duplicates (every tenth value is 0) are written once.
  Run("DELETE FROM t WHERE k = 0 AND c IN (" + InList(kValues / 2, 10) + ")");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t"),
            std::to_string(kValues - kValues / 2 + kValues / 20 - 1));
  EXPECT_EQ(Scalar("SELECT count(*) FROM t WHERE k = 0 AND c = 0"), "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t WHERE k = 0 AND c = 10"), "1");
  // Partition key IN by clustering IN: the product, each pair once.
  Run("UPDATE t SET v = 1 WHERE k IN (1, 2, 1) AND c IN (" + InList(1000, 0) + ")");
  EXPECT_EQ(Scalar("SELECT count(*) FROM t WHERE k IN (1, 2)"), "2000");
}

// --- Hex literals ----------------------------------------------------------

// Mirrors Constants.Literal (HEX) -> BytesType.fromString -> Hex.hexToBytes.
TEST_F(LimitsTest, OddLengthHexLiteralIsRefused) {
  Run("CREATE TABLE b (k int PRIMARY KEY, v blob)");
  EXPECT_EQ(ErrorText("INSERT INTO b (k, v) VALUES (1, 0xabc)"),
            "InvalidRequest: cannot parse 'abc' as hex bytes");
  EXPECT_EQ(ErrorText("SELECT * FROM b WHERE k = 1 AND v = 0x1 ALLOW FILTERING"),
            "InvalidRequest: cannot parse '1' as hex bytes");
  EXPECT_EQ(ErrorText("INSERT INTO b JSON '{\"k\": 1, \"v\": \"0xabc\"}'"),
            "InvalidRequest: Error decoding JSON value for v: Value '0xabc' is not a valid blob "
            "representation: cannot parse 'abc' as hex bytes");
  Run("INSERT INTO b (k, v) VALUES (1, 0x0abc)");
  Run("INSERT INTO b (k, v) VALUES (2, 0x)");
  EXPECT_EQ(Scalar("SELECT v FROM b WHERE k = 1"), "0x0abc");
  EXPECT_EQ(Scalar("SELECT v FROM b WHERE k = 2"), "0x");
}

// --- Time conversions out of range -----------------------------------------

// Mirrors SimpleDateSerializer.timeInMillisToDay's range check.
TEST_F(LimitsTest, ToDateOfAnOutOfRangeTimestampFails) {
  Run("CREATE TABLE ts (k int PRIMARY KEY, t timestamp)");
  Run("INSERT INTO ts (k, t) VALUES (1, ?)", {Value::Timestamp(INT64_MAX)});
  Run("INSERT INTO ts (k, t) VALUES (2, ?)", {Value::Timestamp(INT64_MIN)});
  Run("INSERT INTO ts (k, t) VALUES (3, '2024-05-06 07:08:09.010+0000')");
  EXPECT_EQ(ErrorText("SELECT toDate(t) FROM ts WHERE k = 1"),
            "InvalidRequest: Input date +292278994-08-17T07:12:55.807Z is greater than max "
            "supported date 5881580-07-11");
  EXPECT_EQ(ErrorText("SELECT toDate(t) FROM ts WHERE k = 2"),
            "InvalidRequest: Input date -292275055-05-16T16:47:04.192Z is less than min "
            "supported date -5877641-06-23");
  EXPECT_EQ(Scalar("SELECT toDate(t) FROM ts WHERE k = 3"), "2024-05-06");
  // The last day a date holds is still converted (cqlsh shows a date past
  // the year 9999 as its day number).
  Run("INSERT INTO ts (k, t) VALUES (4, ?)", {Value::Timestamp(int64_t{INT32_MAX} * 86400 * 1000)});
  EXPECT_EQ(Scalar("SELECT toDate(t) FROM ts WHERE k = 4"), "2147483647");
  // CAST and date arithmetic check the same range.
  EXPECT_EQ(ErrorText("SELECT CAST(t AS date) FROM ts WHERE k = 1"),
            "InvalidRequest: Input date +292278994-08-17T07:12:55.807Z is greater than max "
            "supported date 5881580-07-11");
  EXPECT_EQ(ErrorText("INSERT INTO ts (k, t) VALUES (5, ? + 1d)", {Value::Timestamp(INT64_MAX)})
                .rfind("InvalidRequest: ", 0),
            0u);
  EXPECT_EQ(ErrorText("INSERT INTO ts (k, t) VALUES (5, ? - 1mo)", {Value::Timestamp(INT64_MIN)})
                .rfind("InvalidRequest: ", 0),
            0u);
}

TEST_F(LimitsTest, NowWithAClockPastTheTimeuuidRangeFails) {
  Options options;
  // The commit log counts monotonic nanoseconds, which a clock this far
  // ahead overflows; this test is about now() alone.
  options.commitlog_enabled = false;
  OpenDatabase(options);
  Run("CREATE TABLE u (k int PRIMARY KEY, id timeuuid)");
  Run("INSERT INTO u (k, id) VALUES (0, now())");
  // The year 8307: a timeuuid's 60-bit clock ends in 5236.
  ASSERT_TRUE(clock_->Set(200'000'000'000'000'000).ok());
  const std::string error = ErrorText("INSERT INTO u (k, id) VALUES (1, now())");
  EXPECT_EQ(error.rfind("InvalidRequest: Cannot make a timeuuid at 8307-", 0), 0u) << error;
  EXPECT_NE(error.find("a timeuuid holds times from 1582-10-15T00:00:00Z to 5236-03-31T"),
            std::string::npos)
      << error;
  // currentDate() and currentTimestamp() at that time still fit their types.
  EXPECT_EQ(Scalar("SELECT currentDate() FROM u WHERE k = 0").substr(0, 5), "8307-");
}

}  // namespace
}  // namespace cassette::cql
