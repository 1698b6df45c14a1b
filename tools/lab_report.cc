#include "tools/lab_report.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "tools/lab_figures.h"
#include "tools/lab_window_chart.h"

namespace cassette::tools {
namespace {

// Okabe and Ito's palette, which stays distinct for the common colour
// vision deficiencies (its yellow, too pale on white, left out); each line
// also has its own dash pattern, so the chart reads in grey too.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#8C6D00"};
constexpr const char* kDashes[] = {"",    "10 5",         "2 4",  "12 4 3 4",
                                   "6 6", "2 4 2 4 10 4", "16 6", "4 2 1 2"};
constexpr size_t kStyles = sizeof(kColours) / sizeof(kColours[0]);

// The chart's geometry, in SVG user units.
constexpr double kWidth = 600;
constexpr double kHeight = 300;
constexpr double kLeft = 64;
constexpr double kRight = 16;
constexpr double kTop = 34;
constexpr double kBottom = 48;

struct Chart {
  const char* title;
  const char* unit;  // the y axis label
  bool whole;        // counts: ticks at whole numbers
  std::function<double(const LabSample&)> value;
};

std::string Number(double value, int digits) { return FixedDigits(value, digits); }

// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
double NiceStep(double raw, bool whole) {
  if (whole && raw <= 1) return 1;
  if (!(raw > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (whole && m == 2.5 && power < 10) continue;
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
}

// Decimals that show every tick of `step` exactly (2.5 -> 1, 0.25 -> 2).
int DigitsFor(double step) {
  for (int digits = 0; digits < 6; ++digits) {
    const double scaled = step * std::pow(10.0, digits);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * scaled) return digits;
  }
  return 6;
}

std::string ChartSvg(const Chart& chart, const std::vector<LabResult>& results) {
  int64_t last_second = 0;
  double top_value = 0;
  size_t samples = 0;
  for (const LabResult& r : results) {
    for (const LabSample& s : r.series) {
      last_second = std::max(last_second, s.second);
      const double v = chart.value(s);
      if (std::isfinite(v)) top_value = std::max(top_value, v);
      ++samples;
    }
  }
  const int64_t span = std::max<int64_t>(last_second, 60);
  const double y_step = NiceStep(top_value > 0 ? top_value / 5 : 0.2, chart.whole);
  const double y_top = std::max(y_step, std::ceil(top_value / y_step - 1e-9) * y_step);
  const double plot_w = kWidth - kLeft - kRight;
  const double plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](int64_t second) {
    return kLeft + plot_w * static_cast<double>(second) / static_cast<double>(span);
  };
  auto y_of = [&](double v) {
    if (!std::isfinite(v) || v < 0) v = 0;
    return kTop + plot_h * (1 - v / y_top);
  };

  std::string svg = "<svg class=\"chart\" viewBox=\"0 0 " + Number(kWidth, 0) + " " +
                    Number(kHeight, 0) + "\" role=\"img\" aria-label=\"" + HtmlEscape(chart.title) +
                    "\">\n<title>" + HtmlEscape(chart.title) + "</title>\n";
  svg += "<text class=\"title\" x=\"" + Number(kLeft, 0) + "\" y=\"20\">" +
         HtmlEscape(chart.title) + "</text>\n";
  // Grid and y ticks.
  const int y_digits = DigitsFor(y_step);
  for (int i = 0; i * y_step <= y_top * (1 + 1e-9); ++i) {
    const double v = i * y_step;
    const std::string y = Number(y_of(v), 1);
    svg += "<line class=\"grid\" x1=\"" + Number(kLeft, 1) + "\" y1=\"" + y + "\" x2=\"" +
           Number(kWidth - kRight, 1) + "\" y2=\"" + y + "\"/>";
    svg += "<text class=\"ytick\" x=\"" + Number(kLeft - 6, 1) + "\" y=\"" + y + "\">" +
           Number(v, y_digits) + "</text>\n";
  }
  // X ticks.
  const TimeAxis axis = ChooseTimeAxis(span);
  for (int64_t t = 0; t <= span; t += axis.step) {
    const std::string x = Number(x_of(t), 1);
    svg += "<line class=\"tick\" x1=\"" + x + "\" y1=\"" + Number(kTop + plot_h, 1) + "\" x2=\"" +
           x + "\" y2=\"" + Number(kTop + plot_h + 5, 1) + "\"/>";
    svg += "<text class=\"xtick\" x=\"" + x + "\" y=\"" + Number(kTop + plot_h + 18, 1) + "\">" +
           std::to_string(t / axis.unit) + axis.suffix + "</text>\n";
  }
  svg += "<line class=\"axis\" x1=\"" + Number(kLeft, 1) + "\" y1=\"" + Number(kTop, 1) +
         "\" x2=\"" + Number(kLeft, 1) + "\" y2=\"" + Number(kTop + plot_h, 1) + "\"/>";
  svg += "<line class=\"axis\" x1=\"" + Number(kLeft, 1) + "\" y1=\"" + Number(kTop + plot_h, 1) +
         "\" x2=\"" + Number(kWidth - kRight, 1) + "\" y2=\"" + Number(kTop + plot_h, 1) + "\"/>\n";
  svg += "<text class=\"xlabel\" x=\"" + Number(kLeft + plot_w / 2, 1) + "\" y=\"" +
         Number(kHeight - 8, 1) + "\">simulated time (" + axis.name + ")</text>\n";
  svg += "<text class=\"ylabel\" transform=\"translate(14 " + Number(kTop + plot_h / 2, 1) +
         ") rotate(-90)\">" + HtmlEscape(chart.unit) + "</text>\n";
  if (samples == 0) {
    svg += "<text class=\"empty\" x=\"" + Number(kLeft + plot_w / 2, 1) + "\" y=\"" +
           Number(kTop + plot_h / 2, 1) + "\">no samples</text>\n";
  }
  // One line per strategy, in the legend's order and style.
  for (size_t i = 0; i < results.size(); ++i) {
    const LabResult& r = results[i];
    if (r.series.empty()) continue;
    const char* colour = kColours[i % kStyles];
    const char* dash = kDashes[i % kStyles];
    // Earlier lines are wider, so where strategies coincide the one drawn
    // first still shows around the dashes of the ones drawn over it.
    const double stroke_width =
        2 + 1.6 * static_cast<double>(results.size() - 1 - i) /
                static_cast<double>(std::max<size_t>(1, results.size() - 1));
    std::string points;
    for (const LabSample& s : r.series) {
      if (!points.empty()) points += ' ';
      points += Number(x_of(s.second), 1) + "," + Number(y_of(chart.value(s)), 1);
    }
    svg += "<polyline class=\"series\" data-strategy=\"" + HtmlEscape(r.strategy) + "\" stroke=\"" +
           colour + "\" stroke-width=\"" + Number(stroke_width, 1) + "\"" +
           (dash[0] != '\0' ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") +
           " points=\"" + points + "\"><title>" + HtmlEscape(r.strategy) + "</title></polyline>\n";
    // A line of one point draws nothing: mark it.
    if (r.series.size() == 1) {
      svg += "<circle cx=\"" + Number(x_of(r.series[0].second), 1) + "\" cy=\"" +
             Number(y_of(chart.value(r.series[0])), 1) + "\" r=\"4\" fill=\"" + colour + "\"/>\n";
    }
  }
  return svg + "</svg>\n";
}

// Each strategy's colour and dash beside its name, wrapped into rows.
std::string LegendSvg(const std::vector<LabResult>& results) {
  constexpr double kLegendWidth = 1200;
  constexpr double kRow = 24;
  constexpr double kSwatch = 44;
  std::string items;
  double x = 0;
  double y = 16;
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string label =
        results[i].strategy + (results[i].series.empty() ? " (no samples)" : "");
    // About 7.5 units a character at the legend's 13px font.
    const double width = kSwatch + 8 + 7.5 * static_cast<double>(label.size()) + 24;
    if (x > 0 && x + width > kLegendWidth) {
      x = 0;
      y += kRow;
    }
    const char* dash = kDashes[i % kStyles];
    items += "<line x1=\"" + Number(x, 1) + "\" y1=\"" + Number(y - 4, 1) + "\" x2=\"" +
             Number(x + kSwatch, 1) + "\" y2=\"" + Number(y - 4, 1) + "\" stroke=\"" +
             kColours[i % kStyles] + "\"" +
             (dash[0] != '\0' ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") +
             " class=\"swatch\"/>";
    items += "<text x=\"" + Number(x + kSwatch + 8, 1) + "\" y=\"" + Number(y, 1) + "\">" +
             HtmlEscape(label) + "</text>\n";
    x += width;
  }
  return "<svg class=\"legend\" viewBox=\"0 0 " + Number(kLegendWidth, 0) + " " +
         Number(y + 10, 0) + "\" role=\"img\" aria-label=\"legend\">\n" + items + "</svg>\n";
}

std::string SummaryTable(const std::vector<LabResult>& results) {
  const std::map<std::string, std::vector<std::string>> wins = LabWins(results);
  auto won = [&](const std::string& strategy, const char* label) {
    auto it = wins.find(strategy);
    return it != wins.end() &&
           std::find(it->second.begin(), it->second.end(), label) != it->second.end();
  };
  std::string html = "<table>\n<thead><tr><th>figure</th>";
  for (const LabResult& r : results) html += "<th>" + HtmlEscape(r.strategy) + "</th>";
  html += "</tr></thead>\n<tbody>\n";
  for (const LabFigure& f : LabFigures()) {
    html += "<tr><th>" + HtmlEscape(f.label) + "</th>";
    for (const LabResult& r : results) {
      const std::string text = HtmlEscape(f.text(r));
      html += won(r.strategy, f.label) ? "<td class=\"best\">" + text + " ◆</td>"
                                       : "<td>" + text + "</td>";
    }
    html += "</tr>\n";
  }
  html += "<tr class=\"wall\"><th>simulated days per minute (wall clock)</th>";
  for (const LabResult& r : results) {
    html += "<td>" + FixedDigits(r.simulated_days_per_minute, 1) + "</td>";
  }
  return html + "</tr>\n</tbody>\n</table>\n";
}

constexpr const char* kStyle = R"(<style>
body { font: 14px/1.4 system-ui, sans-serif; color: #1a1a1a; background: #fff;
       margin: 24px auto; max-width: 1240px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
p.meta { color: #444; margin: 0 0 16px; }
svg { display: block; }
svg.legend { width: 100%; height: auto; margin: 8px 0 4px; }
svg.legend text { font-size: 13px; }
svg.legend .swatch { stroke-width: 3; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 12px 20px; }
svg.chart { width: 100%; height: auto; border: 1px solid #ddd; border-radius: 4px; }
svg.chart text { font-size: 12px; fill: #333; }
svg.chart .title { font-size: 15px; font-weight: 600; fill: #1a1a1a; }
svg.chart .ytick { text-anchor: end; dominant-baseline: middle; }
svg.chart .xtick, svg.chart .xlabel, svg.chart .ylabel, svg.chart .empty { text-anchor: middle; }
svg.chart .empty { font-size: 16px; fill: #888; }
svg.chart .grid { stroke: #e6e6e6; stroke-width: 1; }
svg.chart .axis, svg.chart .tick { stroke: #555; stroke-width: 1; }
svg.chart .series { fill: none; stroke-linejoin: round; stroke-linecap: round; }
svg.windows { width: 100%; height: auto; border: 1px solid #ddd; border-radius: 4px;
              margin-bottom: 12px; }
svg.windows text { font-size: 12px; fill: #333; }
svg.windows .title { font-size: 15px; font-weight: 600; fill: #1a1a1a; }
svg.windows .ytick { text-anchor: end; dominant-baseline: middle; }
svg.windows .xtick, svg.windows .xlabel, svg.windows .ylabel, svg.windows .empty { text-anchor: middle; }
svg.windows .empty { font-size: 16px; fill: #888; }
svg.windows .count { font-size: 11px; text-anchor: middle; dominant-baseline: central; }
svg.windows .count.light { fill: #fff; }
svg.windows .grid { stroke: #e6e6e6; stroke-width: 1; }
svg.windows .axis, svg.windows .tick { stroke: #555; stroke-width: 1; }
table { border-collapse: collapse; margin-top: 8px; }
th, td { border: 1px solid #ccc; padding: 4px 10px; }
thead th { background: #f2f2f2; overflow-wrap: anywhere; max-width: 260px; }
tbody th { text-align: left; font-weight: normal; white-space: nowrap; }
td { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: 700; background: #eef6ee; }
tr.wall td, tr.wall th { color: #666; }
p.recommendation { font-weight: 600; margin-top: 12px; }
ul.notes { color: #444; }
</style>
)";

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

TimeAxis ChooseTimeAxis(int64_t span) {
  TimeAxis axis;
  if (span >= 2 * 86400) {
    axis.unit = 86400;
    axis.suffix = "d";
    axis.name = "days";
  } else if (span < 2 * 3600) {
    axis.unit = 60;
    axis.suffix = "m";
    axis.name = "minutes";
  }
  static constexpr int64_t kSteps[] = {1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1000};
  static constexpr int64_t kHourSteps[] = {1, 2, 3, 6, 12, 24};
  static constexpr int64_t kDaySteps[] = {1, 2, 5, 7, 14, 28, 56, 91, 182, 365, 730};
  auto pick = [&](const auto& steps) {
    for (int64_t s : steps) {
      if (span / (s * axis.unit) <= 10) return s * axis.unit;
    }
    return steps[std::size(steps) - 1] * axis.unit * std::max<int64_t>(1, span / (10 * axis.unit));
  };
  if (axis.unit == 86400) {
    axis.step = pick(kDaySteps);
  } else if (axis.unit == 3600) {
    axis.step = pick(kHourSteps);
  } else {
    axis.step = pick(kSteps);
  }
  return axis;
}

std::string LabReportHtml(const WorkloadSpec& spec, const std::vector<LabResult>& results) {
  const std::string table = spec.keyspace + "." + spec.table;
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<title>cassette simulate: " + HtmlEscape(table) + "</title>\n";
  html += kStyle;
  html += "</head>\n<body>\n<h1>Compaction lab: " + HtmlEscape(table) + "</h1>\n";
  html += "<p class=\"meta\">" + HtmlEscape(DurationText(spec.duration_seconds)) + " simulated, " +
          std::to_string(spec.identifiers) + " identifiers, a sample every " +
          HtmlEscape(DurationText(spec.sample_seconds)) + ", seed " + std::to_string(spec.seed) +
          ", " + std::to_string(results.size()) + " strateg" + (results.size() == 1 ? "y" : "ies") +
          "</p>\n";
  html += "<h2>Over simulated time</h2>\n" + LegendSvg(results);
  const Chart charts[] = {
      {"Disk use", "MB on disk", false,
       [](const LabSample& s) { return static_cast<double>(s.disk_bytes) / 1e6; }},
      {"SSTable count", "SSTables", true,
       [](const LabSample& s) { return static_cast<double>(s.sstable_count); }},
      {"Write amplification so far", "SSTable bytes written / user bytes", false,
       [](const LabSample& s) { return s.write_amplification; }},
      {"Read amplification p99", "SSTables per read (p99)", true,
       [](const LabSample& s) { return s.read_amplification_p99; }},
      {"Expired data waiting on disk", "MB past TTL + gc_grace (est.)", false,
       [](const LabSample& s) { return static_cast<double>(s.expired_bytes_waiting) / 1e6; }},
  };
  html += "<div class=\"charts\">\n";
  for (const Chart& chart : charts) html += ChartSvg(chart, results);
  html += "</div>\n";
  std::string windows;
  for (const LabResult& r : results) windows += WindowChartSvg(r);
  if (!windows.empty()) {
    html +=
        "<h2>TWCS windows</h2>\n<p class=\"meta\">Each TWCS run's SSTables by time window: a "
        "window's cell at each sample is shaded by its bytes on disk and labelled with its "
        "SSTable count; new windows appear at the top right, merge down to one SSTable once "
        "closed, and end where they are dropped whole.</p>\n" +
        windows;
  }
  html += "<h2>Summary</h2>\n" + SummaryTable(results);
  const std::string recommendation = LabRecommendation(results);
  if (!recommendation.empty()) {
    html += "<p class=\"recommendation\">" + HtmlEscape(recommendation) + "</p>\n";
  }
  std::string notes;
  for (const LabResult& r : results) {
    for (const std::string& note : r.notes) {
      notes += "<li>" + HtmlEscape(r.strategy) + ": " + HtmlEscape(note) + "</li>\n";
    }
  }
  if (!notes.empty()) html += "<ul class=\"notes\">\n" + notes + "</ul>\n";
  html +=
      "<p class=\"meta\">◆ alone best on that figure. Written by cassette simulate; "
      "docs/LAB.md explains each chart and figure.</p>\n";
  return html + "</body>\n</html>\n";
}

}  // namespace cassette::tools
