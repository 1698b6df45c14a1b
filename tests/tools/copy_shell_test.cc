// COPY TO / COPY FROM in the shell, end to end: every type out and back,
// files as cqlsh and cassandra-dtest (cqlsh_tests/test_cqlsh_copy.py) write
// them, error rows, the options, STDIN/STDOUT and bounded memory on a large
// table (rows held counted, never timed).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.h"
#include "tools/copy_command.h"
#include "tools/copy_from.h"
#include "tools/copy_to.h"
#include "tools/shell.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

class CopyShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kStart;
    settings.format = OutputFormat::kTable;
    auto shell = Shell::Open(settings, fs_, ShellIo{.out = &out_, .err = &err_, .tty = false});
    ASSERT_TRUE(shell.ok()) << shell.status().ToString();
    shell_ = std::move(shell).value();
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}; USE ks;");
  }

  // Runs shell text; returns standard output and clears both streams.
  std::string Run(const std::string& script) {
    out_.str("");
    err_.str("");
    shell_->RunScript(script, "test");
    return out_.str();
  }

  // Rows as cqlsh shows them (readable in a failure).
  std::vector<std::vector<std::string>> Shown(const std::string& select) {
    std::vector<std::vector<std::string>> shown;
    for (const std::vector<Value>& row : Rows(select)) {
      shown.emplace_back();
      for (const Value& value : row) shown.back().push_back(value.ToString());
    }
    return shown;
  }

  std::vector<std::vector<Value>> Rows(const std::string& select) {
    Result<CqlResult> result = shell_->session()->Execute(select);
    EXPECT_TRUE(result.ok()) << select << ": " << result.status().ToString();
    return result.ok() ? result->rows : std::vector<std::vector<Value>>{};
  }

  std::string File(const std::string& name) { return dir_.Join(name); }

  std::string ReadFile(const std::string& name) {
    std::ifstream in(File(name), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  void WriteFile(const std::string& name, const std::string& text) {
    std::ofstream(File(name), std::ios::binary) << text;
  }

  TempDir dir_;
  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<Shell> shell_;
};

constexpr const char* kAllTypes =
    "(k int, c text, a ascii, bi bigint, bl blob, b boolean, d date, dec decimal, "
    "db double, du duration, f float, i inet, si smallint, tm time, ts timestamp, tu timeuuid, "
    "ti tinyint, u uuid, vi varint, l list<text>, s set<int>, m map<text, frozen<list<int>>>, "
    "fm frozen<map<frozen<set<inet>>, timestamp>>, tp tuple<int, text, boolean>, "
    "PRIMARY KEY (k, c))";

// cassandra-dtest test_all_datatypes_round_trip: a table of every type to
// CSV and into a second table, which then holds the same rows.
TEST_F(CopyShellTest, EveryTypeRoundTrips) {
  Run(std::string("CREATE TABLE src ") + kAllTypes + "; CREATE TABLE dst " + kAllTypes + ";");
  Run("INSERT INTO src (k, c, a, bi, bl, b, d, dec, db, du, f, i, si, tm, ts, tu, ti, u, vi, l, "
      "s, m, fm, tp) VALUES (1, 'a,b \"q\" \\ x''y', 'ascii', 1099511627776, 0xbeef, true, "
      "'2024-02-29', 3.14, 2.444, 1y2mo3d4h5m6s7ms8us9ns, 1.1, '2001:db8::1', -32768, "
      "'10:15:30.123456789', '2005-07-14 12:30:00.123+0000', "
      "1f4c6c30-e1a4-11e4-8d94-0800200c9a66, 127, 5132b130-ae79-11e4-ab27-0800200c9a66, "
      "36893488147419103232, ['it''s', 'a, b', ''], {3, 1, 2}, {'k1': [1, 2], 'k2': []}, "
      "{{'127.0.0.1', '::1'}: '2024-01-15 00:00:00+0000'}, (1, '1', true));"
      "INSERT INTO src (k, c, db) VALUES (2, 'two\nlines', -0.5);"
      "INSERT INTO src (k, c, b, dec, f) VALUES (3, 'three', false, -1E+3, 3.5);");
  ASSERT_EQ(err_.str(), "");
  const std::string to = Run("COPY src TO '" + File("all.csv") + "' WITH HEADER = true;");
  EXPECT_NE(to.find("Starting copy of ks.src with columns [k, c, a, b, bi, bl, d, db, dec, du, "
                    "f, fm, i, l, m, s, si, ti, tm, tp, ts, tu, u, vi]."),
            std::string::npos)
      << to;
  EXPECT_NE(to.find("3 rows exported to 1 files in "), std::string::npos) << to;
  const std::string from = Run("COPY dst FROM '" + File("all.csv") + "' WITH HEADER = true;");
  EXPECT_EQ(err_.str(), "");
  EXPECT_NE(from.find("3 rows imported from 1 files in "), std::string::npos) << from;
  EXPECT_NE(from.find(" (0 skipped)."), std::string::npos) << from;
  const auto source = Rows("SELECT * FROM src");
  ASSERT_EQ(source.size(), 3u);
  EXPECT_EQ(Shown("SELECT * FROM dst"), Shown("SELECT * FROM src"));
  EXPECT_TRUE(Rows("SELECT * FROM dst") == source);  // byte for byte
  // The first line of data as cqlsh lays it out.
  const std::string csv = ReadFile("all.csv");
  EXPECT_EQ(csv.substr(0, csv.find("\r\n")),
            "k,c,a,b,bi,bl,d,db,dec,du,f,fm,i,l,m,s,si,ti,tm,tp,ts,tu,u,vi");
}

// A file as cqlsh's COPY TO writes it (dtest test_all_datatypes_write's
// values, cqlsh's formats) loads with every value as meant.
TEST_F(CopyShellTest, LoadsWhatCqlshWrites) {
  Run("CREATE TABLE testdatatype (a ascii PRIMARY KEY, b bigint, c blob, d boolean, e decimal, "
      "f double, g float, h inet, i int, j text, k timestamp, l timeuuid, m uuid, n varchar, "
      "o varint, p list<int>, q set<text>, r map<timestamp, text>, s tuple<int, text, boolean>, "
      "y map<int, blob>, z list<blob>, za set<blob>);");
  WriteFile("cqlsh.csv",
            "ascii,1099511627776,0xbeef,True,3.14,2.444,1.1,127.0.0.1,25,ヽ(´ー｀)ノ,"
            "2005-07-14 12:30:00.000+0000,1f4c6c30-e1a4-11e4-8d94-0800200c9a66,"
            "5132b130-ae79-11e4-ab27-0800200c9a66,asdf,36893488147419103232,\"[1, 2, 3]\","
            "\"{'', '1', '2', '3'}\",\"{'2005-07-14 12:30:00.000+0000': '1', "
            "'2005-07-14 13:30:00.000+0000': '2', '2005-07-14 14:30:00.000+0000': ''}\","
            "\"(1, '1', True)\",{3: 0x74776f},[0x74776f],{0x74776f}\r\n");
  Run("COPY testdatatype FROM '" + File("cqlsh.csv") + "';");
  EXPECT_EQ(err_.str(), "");
  const auto rows = Rows(
      "SELECT a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, y, z, za FROM "
      "testdatatype");
  ASSERT_EQ(rows.size(), 1u);
  std::vector<std::string> shown;
  for (const Value& value : rows[0]) shown.push_back(value.ToString());
  EXPECT_EQ(shown, (std::vector<std::string>{
                       "ascii",
                       "1099511627776",
                       "0xbeef",
                       "True",
                       "3.14",
                       "2.444",
                       "1.1",
                       "127.0.0.1",
                       "25",
                       "ヽ(´ー｀)ノ",
                       "2005-07-14 12:30:00.000000+0000",
                       "1f4c6c30-e1a4-11e4-8d94-0800200c9a66",
                       "5132b130-ae79-11e4-ab27-0800200c9a66",
                       "asdf",
                       "36893488147419103232",
                       "[1, 2, 3]",
                       "{'', '1', '2', '3'}",
                       "{'2005-07-14 12:30:00.000000+0000': '1', '2005-07-14 "
                       "13:30:00.000000+0000': '2', '2005-07-14 14:30:00.000000+0000': ''}",
                       "(1, '1', True)",
                       "{3: 0x74776f}",
                       "[0x74776f]",
                       "{0x74776f}"}));
}

// dtest test_reading_with_parse_errors / test_reading_max_parse_errors:
// bad rows are reported, written to ERRFILE and skipped whole.
TEST_F(CopyShellTest, ParseErrorsAreReportedAndSkipped) {
  Run("CREATE TABLE testparseerrors (a int, b int, c float, PRIMARY KEY (a, b));");
  WriteFile("in.csv", "bb,0,1.0\r\n0,1,2.0\r\n1,0,abc\r\n1,1,2.0\r\n2,0\r\n");
  const std::string out = Run("COPY testparseerrors FROM '" + File("in.csv") +
                              "' WITH ERRFILE = '" + File("bad.err") + "';");
  EXPECT_NE(out.find("2 rows imported from 1 files in "), std::string::npos) << out;
  EXPECT_EQ(err_.str(),
            "Failed to import 1 rows: ParseError - Failed to parse bb : invalid literal for int() "
            "with base 10: 'bb',  given up without retries\n"
            "Failed to import 1 rows: ParseError - Failed to parse abc : Unable to make float "
            "from 'abc',  given up without retries\n"
            "Failed to import 1 rows: ParseError - Invalid row length 2 should be 3,  given up "
            "without retries\n"
            "Failed to process 3 rows; failed rows written to " +
                File("bad.err") + "\n");
  EXPECT_EQ(ReadFile("bad.err"), "bb,0,1.0\r\n1,0,abc\r\n2,0\r\n");
  EXPECT_EQ(Rows("SELECT a, b FROM testparseerrors").size(), 2u);

  // MAXPARSEERRORS stops the import past that many.
  Run("TRUNCATE testparseerrors;");
  WriteFile("many.csv", "x,0,1\r\ny,0,1\r\n1,1,1\r\n2,2,2\r\n");
  Run("COPY testparseerrors FROM '" + File("many.csv") + "' WITH MAXPARSEERRORS = 1 AND ERRFILE='" +
      File("many.err") + "';");
  EXPECT_NE(err_.str().find("Exceeded maximum number of parse errors 1\n"), std::string::npos)
      << err_.str();
  EXPECT_EQ(Rows("SELECT a FROM testparseerrors").size(), 0u);
}

// dtest test_reading_with_skip_and_max_rows, test_reading_use_header,
// test_reading_with_skip_cols.
TEST_F(CopyShellTest, HeaderSkipRowsMaxRowsAndSkipCols) {
  Run("CREATE TABLE t (a int PRIMARY KEY, b int, c int);");
  WriteFile("h.csv", "a,b,c\n1,10,100\n2,20,200\n3,30,300\n4,40,400\n");
  const std::string out = Run("COPY t FROM '" + File("h.csv") +
                              "' WITH HEADER = true AND SKIPROWS = 1 AND MAXROWS = 3;");
  EXPECT_NE(out.find("2 rows imported from 1 files in "), std::string::npos) << out;
  EXPECT_NE(out.find("(1 skipped)."), std::string::npos) << out;
  EXPECT_EQ(Rows("SELECT a FROM t").size(), 2u);  // rows 2 and 3

  Run("TRUNCATE t;");
  WriteFile("s.csv", "1,10,100\n2,20,200\n");
  Run("COPY t (a, b, c) FROM '" + File("s.csv") + "' WITH SKIPCOLS = 'b';");
  EXPECT_EQ(err_.str(), "");
  const auto rows = Rows("SELECT a, b, c FROM t WHERE a = 1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0][1].is_null());
  EXPECT_EQ(rows[0][2], Value::Int(100));

  Run("COPY t FROM '" + File("s.csv") + "' WITH SKIPCOLS = 'a';");
  EXPECT_EQ(err_.str(), "test:1:Primary key column 'a' missing or skipped\n");
  Run("COPY t (a, nope) FROM '" + File("s.csv") + "';");
  EXPECT_EQ(err_.str(), "test:1:Invalid column name nope\n");
  Run("COPY t FROM '" + File("missing*.csv") + "';");
  EXPECT_EQ(err_.str(), "test:1:Can't open '" + File("missing*.csv") +
                            "' for reading: no matching file found\n");
}

// dtest test_writing_use_header, test_explicit_column_order_writing,
// test_writing_with_max_output_size, test_writing_with_token_boundaries.
TEST_F(CopyShellTest, WritingOptions) {
  Run("CREATE TABLE t (a int PRIMARY KEY, b text);");
  for (int i = 0; i < 5; ++i) {
    Run("INSERT INTO t (a, b) VALUES (" + std::to_string(i) + ", 'v" + std::to_string(i) + "');");
  }
  Run("COPY t (b, a) TO '" + File("o.csv") +
      "' WITH HEADER = true AND DELIMITER = '|' AND "
      "MAXOUTPUTSIZE = 2;");
  EXPECT_EQ(err_.str(), "");
  const std::string first = ReadFile("o.csv");
  EXPECT_EQ(first.substr(0, 5), "b|a\r\n");
  EXPECT_EQ(std::count(first.begin(), first.end(), '\n'), 3);  // header and 2 rows
  const std::string second = ReadFile("o.csv.1");
  EXPECT_EQ(std::count(second.begin(), second.end(), '\n'), 2);
  const std::string last = ReadFile("o.csv.2");
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1);
  EXPECT_NE(out_.str().find("5 rows exported to 3 files in "), std::string::npos) << out_.str();

  // (begin, end] on the partition token: only what falls inside.
  const auto tokens = Rows("SELECT token(a) FROM t");
  ASSERT_EQ(tokens.size(), 5u);
  const int64_t low = tokens[1][0].AsInt64();
  const int64_t high = tokens[3][0].AsInt64();
  Run("COPY t TO '" + File("r.csv") + "' WITH BEGINTOKEN = " + std::to_string(low) +
      " AND ENDTOKEN = " + std::to_string(high) + ";");
  const std::string ranged = ReadFile("r.csv");
  EXPECT_EQ(std::count(ranged.begin(), ranged.end(), '\n'), 2) << ranged;

  // COPY TO STDOUT prints the data alone.
  const std::string data = Run("COPY t (a) TO STDOUT;");
  EXPECT_EQ(data.size(), 15u) << data;  // five "n\r\n" lines, in token order
  EXPECT_EQ(std::count(data.begin(), data.end(), '\n'), 5) << data;
}

TEST_F(CopyShellTest, FromStdinUntilBackslashDot) {
  Run("CREATE TABLE t (a int PRIMARY KEY, b text);");
  const std::string out =
      Run("COPY t FROM STDIN WITH NULL = 'N';\n"
          "1,one\n"
          "2,N\n"
          "\\.\n"
          "SELECT a FROM t WHERE a = 2;\n");
  EXPECT_NE(out.find("[Use \\. on a line by itself to end input]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("2 rows imported from 1 files in "), std::string::npos) << out;
  const auto rows = Rows("SELECT b FROM t WHERE a = 2");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0][0].is_null());
}

// dtest test_reading_counter: counter tables are updated by the values.
TEST_F(CopyShellTest, CountersAreIncremented) {
  Run("CREATE TABLE c (a int PRIMARY KEY, n counter);");
  WriteFile("c.csv", "1,5\n2,7\n");
  Run("COPY c FROM '" + File("c.csv") + "';");
  Run("COPY c FROM '" + File("c.csv") + "';");
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(Rows("SELECT n FROM c WHERE a = 1")[0][0], Value::Counter(10));
}

// dtest test_reading_with_ttl.
TEST_F(CopyShellTest, TtlAppliesToImportedRows) {
  Run("CREATE TABLE t (a int PRIMARY KEY, b int);");
  WriteFile("t.csv", "1,1\n");
  Run("COPY t FROM '" + File("t.csv") + "' WITH TTL = 3600;");
  const auto rows = Rows("SELECT TTL(b) FROM t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], Value::Int(3600));
}

TEST_F(CopyShellTest, OptionErrorsAreCqlshs) {
  Run("CREATE TABLE t (a int PRIMARY KEY);");
  Run("COPY t TO '" + File("x.csv") + "' WITH PAGESIZE = abc;");
  EXPECT_EQ(err_.str(), "test:1:invalid literal for int() with base 10: 'abc'\n");
  Run("COPY t FROM '" + File("x.csv") + "' WITH NOPE = 1;");
  EXPECT_EQ(err_.str(), "test:1:Unrecognized COPY FROM options: nope\n");
  Run("COPY nosuch TO '" + File("x.csv") + "';");
  EXPECT_FALSE(err_.str().empty());
  Run("COPY t TO;");
  EXPECT_EQ(err_.str(), "test:1:Improper COPY command.\n");
}

// Memory stays bounded at any size: COPY TO holds one page, COPY FROM one
// chunk. Counted in rows held, for a table much larger than either.
TEST_F(CopyShellTest, LargeTableStreamsWithBoundedRowsHeld) {
  Run("CREATE TABLE big (a int, b int, v text, PRIMARY KEY (a, b));");
  Result<CqlPreparedStatement> insert =
      shell_->session()->Prepare("INSERT INTO big (a, b, v) VALUES (?, ?, ?)");
  ASSERT_TRUE(insert.ok());
  constexpr int kRows = 3000;
  for (int i = 0; i < kRows; ++i) {
    ASSERT_TRUE(shell_->session()
                    ->Execute(*insert, {Value::Int(i % 97), Value::Int(i), Value::Text("row")})
                    .ok());
  }
  std::ostringstream messages, errors;
  const CopyStreams streams{.out = &messages, .err = &errors, .tty = false};
  Result<CopyCommand> to = ParseCopyCommand("COPY big TO '" + File("big.csv") + "'");
  ASSERT_TRUE(to.ok());
  Result<CopyOptions> to_options = ResolveCopyOptions("TO", "ks", "big", {{"PAGESIZE", "100"}});
  ASSERT_TRUE(to_options.ok());
  Result<CopyToSummary> exported = RunCopyTo(shell_->session(), *to, *to_options, streams);
  ASSERT_TRUE(exported.ok()) << exported.status().ToString();
  EXPECT_EQ(exported->rows, kRows);
  EXPECT_LE(exported->max_rows_held, 100);

  Run("CREATE TABLE big2 (a int, b int, v text, PRIMARY KEY (a, b));");
  Result<CopyCommand> from = ParseCopyCommand("COPY big2 FROM '" + File("big.csv") + "'");
  ASSERT_TRUE(from.ok());
  Result<CopyOptions> from_options =
      ResolveCopyOptions("FROM", "ks", "big2", {{"CHUNKSIZE", "50"}});
  ASSERT_TRUE(from_options.ok());
  auto loader = CopyFromLoader::Start(shell_->session(), *from, *from_options, streams);
  ASSERT_TRUE(loader.ok());
  ASSERT_TRUE((*loader)->LoadFiles(File("big.csv")).ok());
  const CopyFromSummary imported = (*loader)->Finish();
  EXPECT_EQ(imported.imported, kRows);
  EXPECT_EQ(imported.failed, 0);
  EXPECT_LE(imported.max_rows_held, 50);
  EXPECT_EQ(errors.str(), "");
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM big2")[0][0], Value::Bigint(kRows));
}

}  // namespace
}  // namespace cassette::tools
