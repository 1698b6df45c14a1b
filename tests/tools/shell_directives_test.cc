// Parsing the shell's directives; what they do is in shell_test.cc.
#include "tools/shell_directives.h"

#include <gtest/gtest.h>

namespace cassette::tools {
namespace {

Directive Parse(std::string_view text) {
  std::optional<Result<Directive>> parsed = ParseDirective(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  if (!parsed) return {};
  EXPECT_TRUE(parsed->ok()) << text << ": " << parsed->status().ToString();
  return parsed->ok() ? **parsed : Directive{};
}

std::string ParseError(std::string_view text) {
  std::optional<Result<Directive>> parsed = ParseDirective(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  if (!parsed || parsed->ok()) return "";
  EXPECT_EQ(parsed->status().code(), Status::Code::kSyntaxError);
  return parsed->status().message();
}

TEST(ShellDirectivesTest, CqlIsNotADirective) {
  EXPECT_FALSE(ParseDirective("SELECT * FROM t").has_value());
  EXPECT_FALSE(ParseDirective("use ks").has_value());
  EXPECT_FALSE(ParseDirective("DESCRIBE TABLES").has_value());
  EXPECT_FALSE(ParseDirective("flushed_rows").has_value());
}

TEST(ShellDirectivesTest, FlushAndCompactTakeAnOptionalTable) {
  Directive all = Parse("flush;");
  EXPECT_EQ(all.kind, Directive::Kind::kFlush);
  EXPECT_TRUE(all.keyspace.empty() && all.table.empty());

  Directive one = Parse("FLUSH iot.Readings");
  EXPECT_EQ(one.keyspace, "iot");
  EXPECT_EQ(one.table, "readings");

  Directive quoted = Parse("Compact \"Ks\".\"T\" ;");
  EXPECT_EQ(quoted.kind, Directive::Kind::kCompact);
  EXPECT_EQ(quoted.keyspace, "Ks");
  EXPECT_EQ(quoted.table, "T");

  Directive bare = Parse("COMPACT readings");
  EXPECT_TRUE(bare.keyspace.empty());
  EXPECT_EQ(bare.table, "readings");

  Directive major = Parse("compact major lifecycle.sensor_metrics");
  EXPECT_EQ(major.kind, Directive::Kind::kCompactMajor);
  EXPECT_EQ(major.table, "sensor_metrics");
  EXPECT_EQ(Parse("COMPACT MAJOR").kind, Directive::Kind::kCompactMajor);

  EXPECT_EQ(ParseError("FLUSH a.b.c"), "Improper FLUSH command. Usage: FLUSH [keyspace.table];");
  EXPECT_EQ(ParseError("FLUSH a b"), "Improper FLUSH command. Usage: FLUSH [keyspace.table];");
}

TEST(ShellDirectivesTest, Clock) {
  EXPECT_EQ(Parse("CLOCK").kind, Directive::Kind::kClockShow);
  Directive set = Parse("CLOCK SET '2024-01-15T00:00:00Z';");
  EXPECT_EQ(set.kind, Directive::Kind::kClockSet);
  EXPECT_EQ(set.argument, "2024-01-15T00:00:00Z");

  EXPECT_EQ(Parse("clock advance 270 minutes").micros, 270LL * 60 * 1000000);
  EXPECT_EQ(Parse("CLOCK ADVANCE 1 HOURS").micros, 3600LL * 1000000);
  EXPECT_EQ(Parse("CLOCK ADVANCE 2 DAYS").micros, 2LL * 86400 * 1000000);
  EXPECT_EQ(Parse("CLOCK ADVANCE 1 day").micros, 86400LL * 1000000);
  EXPECT_EQ(Parse("CLOCK ADVANCE 5 SECONDS").micros, 5LL * 1000000);

  const std::string usage =
      "Improper CLOCK command. Usage: CLOCK SET '<ISO-8601>'; or CLOCK ADVANCE <n> "
      "SECONDS|MINUTES|HOURS|DAYS;";
  EXPECT_EQ(ParseError("CLOCK ADVANCE -1 HOURS"), usage);
  EXPECT_EQ(ParseError("CLOCK ADVANCE 1 WEEKS"), usage);
  EXPECT_EQ(ParseError("CLOCK SET 2024-01-15"), usage);
  EXPECT_EQ(ParseError("CLOCK SET '2024-01-15"), "Improper CLOCK command.");
  EXPECT_EQ(ParseError("CLOCK ADVANCE 99999999999999999 DAYS"), usage);
}

TEST(ShellDirectivesTest, Switches) {
  EXPECT_EQ(Parse("TRACING ON").on, std::optional<bool>(true));
  EXPECT_EQ(Parse("tracing off;").on, std::optional<bool>(false));
  EXPECT_FALSE(Parse("TRACING").on.has_value());
  EXPECT_EQ(Parse("EXPAND ON").kind, Directive::Kind::kExpand);
  Directive paging = Parse("PAGING 50");
  EXPECT_EQ(paging.kind, Directive::Kind::kPaging);
  EXPECT_EQ(paging.page_size, std::optional<int32_t>(50));
  EXPECT_EQ(ParseError("PAGING 0"), "Improper PAGING command.");
  EXPECT_EQ(ParseError("TRACING 5"), "Improper TRACING command.");
}

TEST(ShellDirectivesTest, ConsistencyAndSource) {
  EXPECT_EQ(Parse("CONSISTENCY quorum").argument, "QUORUM");
  EXPECT_EQ(Parse("CONSISTENCY").argument, "");
  EXPECT_EQ(ParseError("CONSISTENCY MOST"), "Improper CONSISTENCY command.");
  Directive serial = Parse("SERIAL CONSISTENCY local_serial");
  EXPECT_EQ(serial.kind, Directive::Kind::kSerialConsistency);
  EXPECT_EQ(serial.argument, "LOCAL_SERIAL");
  EXPECT_EQ(ParseError("SERIAL CONSISTENCY ONE"), "Improper SERIAL command.");

  Directive source = Parse("SOURCE 'it''s.cql';");
  EXPECT_EQ(source.kind, Directive::Kind::kSource);
  EXPECT_EQ(source.argument, "it's.cql");
  EXPECT_EQ(ParseError("SOURCE file.cql"), "Improper SOURCE command. Usage: SOURCE '<file>';");
  EXPECT_EQ(Parse("exit").kind, Directive::Kind::kExit);
  EXPECT_EQ(Parse("QUIT;").kind, Directive::Kind::kExit);
}

TEST(ShellDirectivesTest, CqlshCommandsEndAtTheNewline) {
  EXPECT_TRUE(EndsAtNewline("TRACING ON"));
  EXPECT_TRUE(EndsAtNewline("  describe keyspaces"));
  EXPECT_TRUE(EndsAtNewline("exit"));
  EXPECT_FALSE(EndsAtNewline("CLOCK ADVANCE 1 HOURS"));
  EXPECT_FALSE(EndsAtNewline("SELECT * FROM t"));
  EXPECT_FALSE(EndsAtNewline("FLUSH"));
}

}  // namespace
}  // namespace cassette::tools
