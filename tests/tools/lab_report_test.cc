// `cassette simulate --report`: the HTML page on results built here (the
// engine's runs are covered by simulate_command_test.cc).
#include "tools/lab_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cassette::tools {
namespace {

WorkloadSpec Spec() {
  WorkloadSpec spec;
  spec.keyspace = "lab";
  spec.table = "r";
  spec.duration_seconds = 3 * 86400;
  spec.identifiers = 10;
  return spec;
}

LabResult Result(const std::string& strategy, size_t samples, double scale) {
  LabResult r;
  r.strategy = strategy;
  r.write_amplification = 1.5 * scale;
  r.total_write_amplification = 2.5 * scale;
  r.peak_disk_bytes = static_cast<uint64_t>(5e6 * scale);
  r.final_disk_bytes = static_cast<uint64_t>(4e6 * scale);
  r.sstable_count = static_cast<int64_t>(4 * scale);
  r.reads = 100;
  r.read_amplification_p50["all"] = 1;
  r.read_amplification_p99["all"] = 3 * scale;
  for (size_t i = 0; i < samples; ++i) {
    LabSample s;
    s.second = static_cast<int64_t>(i + 1) * 3600;
    s.disk_bytes = static_cast<uint64_t>(1e5 * scale * static_cast<double>(i + 1));
    s.sstable_count = static_cast<int64_t>(i % 7);
    s.write_amplification = scale * 0.1 * static_cast<double>(i);
    s.read_amplification_p99 = static_cast<double>(i % 4);
    r.series.push_back(s);
  }
  return r;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// The points attribute of every polyline, in order.
std::vector<std::string> PolylinePoints(const std::string& html) {
  std::vector<std::string> out;
  for (size_t at = html.find("<polyline"); at != std::string::npos;
       at = html.find("<polyline", at + 1)) {
    const size_t begin = html.find("points=\"", at) + 8;
    out.push_back(html.substr(begin, html.find('"', begin) - begin));
  }
  return out;
}

size_t PointCount(const std::string& points) { return points.empty() ? 0 : Count(points, " ") + 1; }

// "nan" or "inf" in the page's body (the style sheet has "dominant-baseline").
bool HasNonFiniteNumber(const std::string& html) {
  const std::string body = html.substr(html.find("</style>"));
  return body.find("nan") != std::string::npos || body.find("inf") != std::string::npos;
}

constexpr size_t kCharts = 4;  // disk use, SSTable count, write and read amplification

void ExpectSelfContained(const std::string& html) {
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(LabReportTest, ChartsHaveALinePerStrategyWithEverySample) {
  const std::vector<LabResult> results = {Result("stcs", 72, 1.0), Result("lcs", 72, 2.0),
                                          Result("twcs:compaction_window_size=1", 72, 0.5)};
  const std::string html = LabReportHtml(Spec(), results);
  ExpectSelfContained(html);
  EXPECT_EQ(Count(html, "<svg class=\"chart\""), kCharts);
  const std::vector<std::string> lines = PolylinePoints(html);
  ASSERT_EQ(lines.size(), kCharts * results.size());
  for (const std::string& points : lines) EXPECT_EQ(PointCount(points), 72u) << points;
  for (const char* title : {"Disk use", "SSTable count", "Write amplification so far",
                            "Read amplification p99", "MB on disk"}) {
    EXPECT_NE(html.find(title), std::string::npos) << title;
  }
  // Three days: ticks in days, labelled.
  EXPECT_NE(html.find("simulated time (days)"), std::string::npos);
  EXPECT_NE(html.find(">3d</text>"), std::string::npos);
  // The lines differ by dash pattern as well as by colour; the first is the
  // widest (it shows around lines drawn over it).
  EXPECT_EQ(Count(html,
                  "<polyline class=\"series\" data-strategy=\"stcs\" stroke=\"#0072B2\" "
                  "stroke-width=\"3.6\" points="),
            kCharts);
  EXPECT_EQ(
      Count(html, "stroke=\"#D55E00\" stroke-width=\"2.8\" stroke-dasharray=\"10 5\" points="),
      kCharts);
}

TEST(LabReportTest, SummaryTableHasTheTerminalTablesFiguresAndRecommendation) {
  const std::vector<LabResult> results = {Result("stcs", 3, 1.0), Result("lcs", 3, 2.0)};
  const std::string html = LabReportHtml(Spec(), results);
  for (const char* figure :
       {"write amplification (SSTables)", "write amplification (all, log too)", "peak disk (MB)",
        "space amplification", "SSTables per read p99", "expired data dropped whole (MB)",
        "dead data rewritten (MB, est.)", "simulated days per minute (wall clock)"}) {
    EXPECT_NE(html.find("<th>" + HtmlEscape(figure) + "</th>"), std::string::npos) << figure;
  }
  EXPECT_NE(html.find("<td class=\"best\">1.500 ◆</td><td>3.000</td>"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"recommendation\">recommendation: stcs (best on "),
            std::string::npos);
}

TEST(LabReportTest, EscapesEveryText) {
  LabResult odd = Result("x<&>\"'y", 5, 1.0);
  odd.notes.push_back("a <b> note");
  WorkloadSpec spec = Spec();
  spec.keyspace = "k<s";
  const std::string html = LabReportHtml(spec, {odd, Result("stcs", 5, 2.0)});
  EXPECT_EQ(html.find("x<&>"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("k<s"), std::string::npos);
  EXPECT_NE(html.find("x&lt;&amp;&gt;&quot;&#39;y"), std::string::npos);
  EXPECT_NE(html.find("data-strategy=\"x&lt;&amp;&gt;&quot;&#39;y\""), std::string::npos);
  EXPECT_NE(html.find("a &lt;b&gt; note"), std::string::npos);
  EXPECT_NE(html.find("k&lt;s.r"), std::string::npos);
}

TEST(LabReportTest, HandlesEmptyAndSingleSampleSeries) {
  const std::string empty = LabReportHtml(Spec(), {Result("stcs", 0, 1.0)});
  ExpectSelfContained(empty);
  EXPECT_EQ(Count(empty, "<svg class=\"chart\""), kCharts);
  EXPECT_EQ(Count(empty, "<polyline"), 0u);
  EXPECT_EQ(Count(empty, ">no samples</text>"), kCharts);
  EXPECT_NE(empty.find("stcs (no samples)"), std::string::npos);
  EXPECT_FALSE(HasNonFiniteNumber(empty));

  const std::string one = LabReportHtml(Spec(), {Result("stcs", 1, 1.0), Result("lcs", 0, 1.0)});
  const std::vector<std::string> lines = PolylinePoints(one);
  ASSERT_EQ(lines.size(), kCharts);
  for (const std::string& points : lines) EXPECT_EQ(PointCount(points), 1u);
  // A one-point line draws nothing by itself: each has a marker.
  EXPECT_EQ(Count(one, "<circle"), kCharts);
  EXPECT_FALSE(HasNonFiniteNumber(one));

  const std::string none = LabReportHtml(Spec(), {});
  ExpectSelfContained(none);
  EXPECT_EQ(Count(none, "<svg class=\"chart\""), kCharts);
}

TEST(LabReportTest, EightStrategiesEachHaveTheirOwnStyle) {
  std::vector<LabResult> results;
  for (int i = 0; i < 8; ++i) results.push_back(Result("s" + std::to_string(i), 10, 1.0 + i));
  const std::string html = LabReportHtml(Spec(), results);
  ASSERT_EQ(PolylinePoints(html).size(), kCharts * 8);
  std::vector<std::string> styles;
  for (size_t at = html.find("<polyline"); at != std::string::npos;
       at = html.find("<polyline", at + 1)) {
    const size_t stroke = html.find("stroke=", at);
    styles.push_back(html.substr(stroke, html.find(" points=", at) - stroke));
  }
  std::sort(styles.begin(), styles.end());
  EXPECT_EQ(std::unique(styles.begin(), styles.end()) - styles.begin(), 8);
}

TEST(LabReportTest, ShortRunsTickInMinutesOrHours) {
  LabResult r = Result("stcs", 0, 1.0);
  for (int64_t s = 600; s <= 3600; s += 600) r.series.push_back(LabSample{s, 1000, 1, 1.0, 1.0});
  EXPECT_NE(LabReportHtml(Spec(), {r}).find("simulated time (minutes)"), std::string::npos);
  for (int64_t s = 7200; s <= 86400; s += 3600) r.series.push_back(LabSample{s, 1000, 1, 1, 1});
  const std::string html = LabReportHtml(Spec(), {r});
  EXPECT_NE(html.find("simulated time (hours)"), std::string::npos);
  EXPECT_NE(html.find(">24h</text>"), std::string::npos);
}

}  // namespace
}  // namespace cassette::tools
