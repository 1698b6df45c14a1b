// COPY's CSV dialect, options and command syntax. Expected texts are what
// Python's csv module (Modules/_csv.c) writes and reads with the dialect
// cqlsh builds in pylib/cqlshlib/copyutil.py (CopyTask.parse_options), and
// cqlsh's option errors.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.h"

#include "tools/copy_command.h"
#include "tools/copy_csv.h"
#include "tools/copy_options.h"
#include "tools/shell_directives.h"

namespace cassette::tools {
namespace {

CsvDialect Cqlsh() { return CsvDialect{}; }  // ',', '"', escape '\'

std::vector<std::string> ReadOne(const std::vector<std::string>& lines,
                                 const CsvDialect& dialect = Cqlsh()) {
  CsvRecordReader reader(dialect);
  std::vector<std::string> fields;
  std::string error;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto outcome = reader.AddLine(lines[i], &fields, &error);
    EXPECT_NE(outcome, CsvRecordReader::Outcome::kError) << error;
    if (outcome == CsvRecordReader::Outcome::kRecord) {
      EXPECT_EQ(i + 1, lines.size()) << "record ended early";
      return fields;
    }
  }
  ADD_FAILURE() << "no record";
  return {};
}

TEST(CopyCsvTest, WriterQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(FormatCsvRow({"1", "abc", ""}, Cqlsh()), "1,abc,\r\n");
  EXPECT_EQ(FormatCsvRow({"a,b", "x"}, Cqlsh()), "\"a,b\",x\r\n");
  EXPECT_EQ(FormatCsvRow({"two\nlines"}, Cqlsh()), "\"two\nlines\"\r\n");
  // Without doubled quotes the quote is escaped and does not force quoting.
  EXPECT_EQ(FormatCsvRow({"say \"hi\""}, Cqlsh()), "say \\\"hi\\\"\r\n");
  EXPECT_EQ(FormatCsvRow({"back\\slash"}, Cqlsh()), "back\\\\slash\r\n");
  // A lone empty field is written "" so the row is not blank.
  EXPECT_EQ(FormatCsvRow({""}, Cqlsh()), "\"\"\r\n");
}

TEST(CopyCsvTest, SameQuoteAndEscapeDoublesQuotes) {
  Result<CopyOptions> options = ResolveCopyOptions("TO", "ks", "t", {{"ESCAPE", "\""}});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_TRUE(options->dialect.double_quote);
  EXPECT_FALSE(options->dialect.escape.has_value());
  EXPECT_EQ(FormatCsvRow({"say \"hi\""}, options->dialect), "\"say \"\"hi\"\"\"\r\n");
  EXPECT_EQ(ReadOne({"\"say \"\"hi\"\"\",2"}, options->dialect),
            (std::vector<std::string>{"say \"hi\"", "2"}));
}

TEST(CopyCsvTest, ReaderFollowsPythonCsv) {
  EXPECT_EQ(ReadOne({"1,abc,\r\n"}), (std::vector<std::string>{"1", "abc", ""}));
  EXPECT_EQ(ReadOne({"\"a,b\",x"}), (std::vector<std::string>{"a,b", "x"}));
  EXPECT_EQ(ReadOne({"say \\\"hi\\\",back\\\\slash"}),
            (std::vector<std::string>{"say \"hi\"", "back\\slash"}));
  // A quoted field spans lines; the record ends with the line that closes it.
  EXPECT_EQ(ReadOne({"1,\"two\n", "lines\",3\n"}),
            (std::vector<std::string>{"1", "two\nlines", "3"}));
  // An escaped line break continues the field on the next line.
  EXPECT_EQ(ReadOne({"1,a\\\n", "b\n"}), (std::vector<std::string>{"1", "a\nb"}));
  // strict=False: text after a closing quote joins the field.
  EXPECT_EQ(ReadOne({"\"ab\"cd,e"}), (std::vector<std::string>{"abcd", "e"}));
  // A quote inside an unquoted field is text.
  EXPECT_EQ(ReadOne({"ab\"cd,e"}), (std::vector<std::string>{"ab\"cd", "e"}));
}

TEST(CopyCsvTest, OtherDelimitersAndQuotes) {
  // cassandra-dtest test_colon_delimiter / test_letter_delimiter.
  CsvDialect colon = Cqlsh();
  colon.delimiter = ':';
  EXPECT_EQ(FormatCsvRow({"10:15", "x"}, colon), "\"10:15\":x\r\n");
  EXPECT_EQ(ReadOne({"\"10:15\":x"}, colon), (std::vector<std::string>{"10:15", "x"}));
  CsvDialect single = Cqlsh();
  single.quote = '\'';
  EXPECT_EQ(ReadOne({"'a,b',c"}, single), (std::vector<std::string>{"a,b", "c"}));
}

TEST(CopyCsvTest, BlankLinesAreNoRecordsAndHugeFieldsAreErrors) {
  CsvRecordReader reader(Cqlsh());
  std::vector<std::string> fields;
  std::string error;
  EXPECT_EQ(reader.AddLine("\r\n", &fields, &error), CsvRecordReader::Outcome::kNeedMore);
  EXPECT_FALSE(reader.in_record());
  const std::string huge(CsvRecordReader::kFieldSizeLimit + 1, 'x');
  EXPECT_EQ(reader.AddLine(huge, &fields, &error), CsvRecordReader::Outcome::kError);
  EXPECT_EQ(error, "field larger than field limit (131072)");
  // The reader goes on with the next record.
  EXPECT_EQ(reader.AddLine("1,2", &fields, &error), CsvRecordReader::Outcome::kRecord);
  EXPECT_EQ(fields, (std::vector<std::string>{"1", "2"}));
}

TEST(CopyCsvTest, UnterminatedQuoteAtTheEndKeepsWhatWasRead) {
  CsvRecordReader reader(Cqlsh());
  std::vector<std::string> fields;
  std::string error;
  EXPECT_EQ(reader.AddLine("1,\"open", &fields, &error), CsvRecordReader::Outcome::kNeedMore);
  ASSERT_TRUE(reader.Finish(&fields));
  EXPECT_EQ(fields, (std::vector<std::string>{"1", "open\n"}));
  EXPECT_FALSE(reader.Finish(&fields));
}

TEST(CopyOptionsTest, DefaultsAreCqlshs) {
  Result<CopyOptions> options = ResolveCopyOptions("FROM", "ks", "t", {});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->dialect.delimiter, ',');
  EXPECT_EQ(options->dialect.quote, '"');
  EXPECT_EQ(options->dialect.escape, '\\');
  EXPECT_FALSE(options->header);
  EXPECT_EQ(options->format.null_text, "");
  EXPECT_EQ(options->format.datetime_format, "%Y-%m-%d %H:%M:%S.%f%z");
  EXPECT_EQ(options->format.float_precision, 5);
  EXPECT_EQ(options->format.double_precision, 12);
  EXPECT_EQ(options->format.true_text, "True");
  EXPECT_EQ(options->format.false_text, "False");
  EXPECT_EQ(options->page_size, 1000);
  EXPECT_EQ(options->chunk_size, 5000);
  EXPECT_EQ(options->max_batch_size, 20);
  EXPECT_EQ(options->min_batch_size, 10);
  EXPECT_EQ(options->max_rows, -1);
  EXPECT_EQ(options->skip_rows, 0);
  EXPECT_EQ(options->max_parse_errors, -1);
  EXPECT_EQ(options->max_insert_errors, 1000);
  EXPECT_EQ(options->error_file, "import_ks_t.err");
  EXPECT_EQ(options->ttl, -1);
}

TEST(CopyOptionsTest, ValuesAndErrorsAsCqlshGivesThem) {
  Result<CopyOptions> options = ResolveCopyOptions("FROM", "ks", "t",
                                                   {{"Header", "TRUE"},
                                                    {"delimiter", "|"},
                                                    {"BOOLSTYLE", "yes, no"},
                                                    {"skipcols", "a, b"},
                                                    {"maxrows", " 1_000 "},
                                                    {"null", "NULL"}});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_TRUE(options->header);
  EXPECT_EQ(options->dialect.delimiter, '|');
  EXPECT_EQ(options->format.true_text, "yes");
  EXPECT_EQ(options->format.false_text, "no");
  EXPECT_EQ(options->skip_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(options->max_rows, 1000);
  EXPECT_EQ(options->format.null_text, "NULL");

  auto error = [](std::vector<std::pair<std::string, std::string>> opts) {
    Result<CopyOptions> result = ResolveCopyOptions("TO", "ks", "t", opts);
    return result.ok() ? std::string("ok") : result.status().message();
  };
  EXPECT_EQ(error({{"foo", "1"}, {"BAR", "2"}}), "Unrecognized COPY TO options: foo, bar");
  EXPECT_EQ(error({{"chunksize", "abc"}}), "invalid literal for int() with base 10: 'abc'");
  EXPECT_EQ(error({{"boolstyle", "yes"}}), "Invalid boolean styles ['yes']");
  EXPECT_EQ(error({{"boolstyle", "a,a"}}), "Invalid boolean styles ['a', 'a']");
  EXPECT_EQ(error({{"delimiter", "ab"}}), "\"delimiter\" must be a 1-character string");
  // cqlshlib/test/test_copyutil.py test_get_ranges_murmur3: begin > end.
  EXPECT_EQ(error({{"begintoken", "1"}, {"endtoken", "-1"}}),
            "Begin token 1 must be smaller than end token -1");
}

// cassandra-dtest test_copy_options_from_config_file: sections [copy],
// [copy-from], [copy:ks.t], [copy-from:ks.t] in that order, then the
// command's own options.
TEST(CopyOptionsTest, ConfigFileSections) {
  TempDir dir;
  const std::string path = dir.Join("cqlshrc");
  std::ofstream(path) << "[copy]\nheader = true\nmaxrows = 1\n"
                      << "; a comment\n[copy-from]\nmaxrows: 2\nskiprows = 3\n"
                      << "[copy:ks.t]\nskiprows = 4\n[copy-to]\npagesize = 7\n"
                      << "[copy-from:ks.other]\nchunksize = 9\n";
  Result<CopyOptions> options =
      ResolveCopyOptions("FROM", "ks", "t", {{"CONFIGFILE", path}, {"maxrows", "5"}});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_TRUE(options->header);
  EXPECT_EQ(options->max_rows, 5);   // the command wins
  EXPECT_EQ(options->skip_rows, 4);  // [copy:ks.t] after [copy-from]
  EXPECT_EQ(options->page_size, 1000);
  EXPECT_EQ(options->chunk_size, 5000);
  // A path that is no file is ignored, as cqlsh does.
  EXPECT_TRUE(ResolveCopyOptions("TO", "ks", "t", {{"configfile", dir.Join("none")}}).ok());
}

TEST(CopyCommandTest, ShellTakesCopyAsADirective) {
  std::optional<Result<Directive>> directive = ParseDirective("copy ks.t TO 'x.csv';");
  ASSERT_TRUE(directive.has_value());
  ASSERT_TRUE(directive->ok());
  EXPECT_EQ((*directive)->kind, Directive::Kind::kCopy);
  EXPECT_EQ((*directive)->argument, "copy ks.t TO 'x.csv'");
}

TEST(CopyCommandTest, ParsesCqlshSyntax) {
  Result<CopyCommand> to = ParseCopyCommand(
      "COPY ks.\"Mixed\" (a, \"B\") TO '/tmp/x.csv' WITH HEADER = true AND DELIMITER='|' AND "
      "maxrows=-1;");
  ASSERT_TRUE(to.ok()) << to.status().ToString();
  EXPECT_EQ(to->keyspace, "ks");
  EXPECT_EQ(to->table, "Mixed");
  EXPECT_EQ(to->columns, (std::vector<std::string>{"a", "B"}));
  EXPECT_FALSE(to->from);
  EXPECT_EQ(to->file, "/tmp/x.csv");
  ASSERT_EQ(to->options.size(), 3u);
  EXPECT_EQ(to->options[0], (std::pair<std::string, std::string>{"HEADER", "true"}));
  EXPECT_EQ(to->options[1].second, "|");
  EXPECT_EQ(to->options[2].second, "-1");

  Result<CopyCommand> from = ParseCopyCommand("copy T from stdin");
  ASSERT_TRUE(from.ok());
  EXPECT_TRUE(from->keyspace.empty());
  EXPECT_EQ(from->table, "t");
  EXPECT_TRUE(from->from);
  EXPECT_FALSE(from->file.has_value());

  for (const char* bad :
       {"COPY", "COPY t", "COPY t TO", "COPY t FROM STDOUT", "COPY t TO STDIN", "COPY t (a TO 'f'",
        "COPY t TO 'f' WITH", "COPY t TO 'f' WITH x", "COPY t TO 'f' header=true"}) {
    Result<CopyCommand> parsed = ParseCopyCommand(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().message(), "Improper COPY command.");
  }
  EXPECT_TRUE(IsCopyCommand("  copy t to 'f'"));
  EXPECT_FALSE(IsCopyCommand("copying"));
}

}  // namespace
}  // namespace cassette::tools
