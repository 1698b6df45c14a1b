// `cassette simulate --report`: the HTML page on results built here (the
// engine's runs are covered by simulate_command_test.cc).
#include "tools/lab_report.h"

#include "tools/lab_window_chart.h"

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
    s.expired_bytes_waiting = static_cast<uint64_t>(2e4 * scale * static_cast<double>(i % 3));
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

// Disk use, SSTable count, write and read amplification, expired data waiting.
constexpr size_t kCharts = 5;

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

LabWindow Window(int64_t start, int64_t sstables, uint64_t live, uint64_t droppable = 0,
                 bool expired = false, bool blocked = false) {
  LabWindow w;
  w.start_second = start;
  w.sstables = sstables;
  w.live_bytes = live;
  w.droppable_bytes = droppable;
  w.expired = expired;
  w.blocked = blocked;
  return w;
}

// A TWCS run with hourly windows sampled every hour for six hours:
//   window 0h: 3 SSTables, merged to 1 (unchanged two samples), expired
//              and blocked, then droppable, then dropped whole;
//   window 1h: 2 SSTables, then 1 for four samples;
//   window 2h: 4 SSTables of which a third droppable, then 1.
LabResult TwcsResult(const std::string& strategy) {
  LabResult r = Result(strategy, 6, 1.0);
  r.compaction = {{"class", "TimeWindowCompactionStrategy"},
                  {"compaction_window_unit", "HOURS"},
                  {"compaction_window_size", "1"}};
  r.windows = {
      {3600, {Window(0, 3, 3'000'000)}},
      {7200, {Window(0, 1, 2'500'000), Window(3600, 2, 2'000'000)}},
      {10800,
       {Window(0, 1, 2'500'000), Window(3600, 1, 1'800'000), Window(7200, 4, 1'000'000, 500'000)}},
      {14400,
       {Window(0, 1, 2'500'000, 0, true, true), Window(3600, 1, 1'800'000),
        Window(7200, 1, 1'200'000)}},
      {18000,
       {Window(0, 1, 0, 2'500'000, true), Window(3600, 1, 1'800'000), Window(7200, 1, 1'200'000)}},
      {21600, {Window(3600, 1, 1'800'000), Window(7200, 1, 1'200'000)}},
  };
  return r;
}

// The text of every <title> inside `svg`'s cells, in order.
std::vector<std::string> CellTitles(const std::string& svg) {
  std::vector<std::string> out;
  for (size_t at = svg.find("<rect class=\"cell\""); at != std::string::npos;
       at = svg.find("<rect class=\"cell\"", at + 1)) {
    const size_t begin = svg.find("<title>", at) + 7;
    out.push_back(svg.substr(begin, svg.find("</title>", begin) - begin));
  }
  return out;
}

TEST(LabWindowChartTest, ACellPerWindowAndRunOfUnchangedSamples) {
  const std::string svg = WindowChartSvg(TwcsResult("twcs"));
  // Window 0h: 3 SSTables; 1 (two samples, one cell); expired; droppable.
  // Window 1h: 2; 1 (four samples). Window 2h: 4; 1 (three samples).
  const std::vector<std::string> titles = CellTitles(svg);
  ASSERT_EQ(titles.size(), 8u) << svg;
  auto has = [&](const std::string& title) {
    return std::find(titles.begin(), titles.end(), title) != titles.end();
  };
  EXPECT_TRUE(has("window 0d–0d 01:00; at 0d 01:00: 3 SSTables, 3.00 MB live, 0.00 MB droppable"))
      << svg;
  EXPECT_TRUE(
      has("window 0d–0d 01:00; at 0d 02:00–0d 03:00: 1 SSTable, 2.50 MB live, "
          "0.00 MB droppable"))
      << svg;
  EXPECT_TRUE(
      has("window 0d–0d 01:00; at 0d 04:00: 1 SSTable, 2.50 MB live, 0.00 MB droppable; "
          "expired; blocked by data outside the window"))
      << svg;
  EXPECT_TRUE(
      has("window 0d–0d 01:00; at 0d 05:00: 1 SSTable, 0.00 MB live, 2.50 MB droppable; "
          "expired"))
      << svg;
  EXPECT_TRUE(
      has("window 0d 01:00–0d 02:00; at 0d 03:00–0d 06:00: 1 SSTable, 1.80 MB live, "
          "0.00 MB droppable"))
      << svg;
  EXPECT_TRUE(
      has("window 0d 02:00–0d 03:00; at 0d 03:00: 4 SSTables, 1.00 MB live, "
          "0.50 MB droppable"))
      << svg;
  // Dropped whole after 5h: no cell of window 0h reaches the 6h sample.
  for (const std::string& title : titles) {
    if (title.rfind("window 0d–", 0) == 0) {
      EXPECT_EQ(title.find("06:00"), std::string::npos) << title;
    }
  }
  // Expired data is orange: the two all-expired cells fill with it, the
  // part-droppable cell has an orange share; the blocked cell is outlined.
  EXPECT_EQ(Count(svg, "<rect class=\"cell\" ") - Count(svg, "fill=\"#D55E00\" fill-opacity"), 6u);
  EXPECT_EQ(Count(svg, "<rect class=\"waiting\""), 1u);
  EXPECT_EQ(Count(svg, "stroke-width=\"1.5\""), 1u);
  // The SSTable counts are written in the cells wide enough for them.
  EXPECT_NE(svg.find(">3</text>"), std::string::npos);
  EXPECT_NE(svg.find(">4</text>"), std::string::npos);
  // Axes in hours (a six-hour run), a legend.
  EXPECT_NE(svg.find("simulated time (hours)"), std::string::npos);
  EXPECT_NE(svg.find("window start (hours)"), std::string::npos);
  EXPECT_NE(svg.find("expired, waiting to be dropped"), std::string::npos);
  EXPECT_NE(svg.find("3.00 MB at most"), std::string::npos);
}

TEST(LabWindowChartTest, OnlyTwcsRunsHaveAPicture) {
  LabResult stcs = Result("stcs", 6, 1.0);
  stcs.compaction = {{"class", "SizeTieredCompactionStrategy"}};
  EXPECT_EQ(WindowChartSvg(stcs), "");
  const std::string without = LabReportHtml(Spec(), {stcs});
  EXPECT_EQ(without.find("<svg class=\"windows\""), std::string::npos);
  EXPECT_EQ(without.find("TWCS windows"), std::string::npos);

  LabResult full_name = TwcsResult("twcs");
  full_name.compaction["class"] = "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy";
  const std::string html = LabReportHtml(Spec(), {stcs, full_name, TwcsResult("twcs 2")});
  ExpectSelfContained(html);
  EXPECT_EQ(Count(html, "<svg class=\"windows\""), 2u);
  EXPECT_EQ(Count(html, "<svg class=\"chart\""), kCharts);
  EXPECT_FALSE(HasNonFiniteNumber(html));

  // A TWCS run without samples, or with no SSTable yet, says so.
  LabResult empty = TwcsResult("twcs");
  for (LabWindowSample& s : empty.windows) s.windows.clear();
  EXPECT_NE(WindowChartSvg(empty).find(">no SSTables</text>"), std::string::npos);
  empty.windows.clear();
  const std::string none = WindowChartSvg(empty);
  EXPECT_NE(none.find(">no samples</text>"), std::string::npos);
  EXPECT_EQ(Count(none, "<rect class=\"cell\""), 0u);
  EXPECT_FALSE(HasNonFiniteNumber("</style>" + none));
}

TEST(LabWindowChartTest, EscapesTheStrategy) {
  const std::string svg = WindowChartSvg(TwcsResult("twcs:x=<b>&'\""));
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("data-strategy=\"twcs:x=&lt;b&gt;&amp;&#39;&quot;\""), std::string::npos);
  EXPECT_NE(svg.find("<title>TWCS windows: twcs:x=&lt;b&gt;&amp;&#39;&quot;</title>"),
            std::string::npos);
}

// A month sampled hourly, daily windows each kept a week: the open window
// changes every sample, closed ones stay as they are, so the picture has
// about a cell per sample, not one per sample and window.
TEST(LabWindowChartTest, DenseRunsStaySmall) {
  LabResult r = TwcsResult("twcs");
  r.compaction["compaction_window_unit"] = "DAYS";
  r.windows.clear();
  for (int64_t hour = 1; hour <= 30 * 24; ++hour) {
    LabWindowSample s;
    s.second = hour * 3600;
    for (int64_t day = std::max<int64_t>(0, (hour - 1) / 24 - 7); day <= (hour - 1) / 24; ++day) {
      const bool open = day == (hour - 1) / 24;
      s.windows.push_back(
          Window(day * 86400, open ? 1 + hour % 4 : 1,
                 open ? static_cast<uint64_t>(hour % 24 + 1) * 100'000 : 2'400'000));
    }
    r.windows.push_back(s);
  }
  const std::string svg = WindowChartSvg(r);
  const size_t cells = Count(svg, "<rect class=\"cell\"");
  EXPECT_GE(cells, 30u * 24);
  EXPECT_LE(cells, 30u * 24 + 30);
  EXPECT_LT(svg.size(), 400'000u);
  EXPECT_NE(svg.find("simulated time (days)"), std::string::npos);
  EXPECT_NE(svg.find("window start (days)"), std::string::npos);

  // Changing at every one of 3200 samples: drawn from 800 of them.
  LabResult busy = TwcsResult("twcs");
  busy.windows.clear();
  for (int64_t i = 1; i <= 3200; ++i) {
    busy.windows.push_back({i * 60, {Window(0, 1, static_cast<uint64_t>(i) * 1000)}});
  }
  EXPECT_EQ(Count(WindowChartSvg(busy), "<rect class=\"cell\""), kMaxWindowColumns);
}

}  // namespace
}  // namespace cassette::tools
