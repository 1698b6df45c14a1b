#include "tools/lab_window_chart.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "tools/lab_figures.h"
#include "tools/lab_report.h"

namespace cassette::tools {
namespace {

// The report's first two colours (Okabe and Ito): data on disk, and data
// expired and waiting to be dropped.
constexpr const char* kLiveColour = "#0072B2";
constexpr const char* kWaitingColour = "#D55E00";
constexpr const char* kBlockedStroke = "#1a1a1a";

// The picture's geometry, in SVG user units: the page's full width.
constexpr double kWidth = 1200;
constexpr double kLeft = 72;
constexpr double kRight = 16;
constexpr double kTop = 64;
constexpr double kBottom = 48;
constexpr double kRowHeight = 18;  // per window, within the bounds below
constexpr double kMinPlotHeight = 160;
constexpr double kMaxPlotHeight = 440;

std::string Number(double value, int digits) { return FixedDigits(value, digits); }

// Floor division: windows before the run's start have negative starts.
int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
}

// A TWCS window's length from the strategy's options, with Cassandra's
// defaults (compaction_window_unit DAYS, compaction_window_size 1).
int64_t WindowSeconds(const std::map<std::string, std::string>& compaction) {
  std::string unit = "DAYS";
  if (auto it = compaction.find("compaction_window_unit"); it != compaction.end()) {
    unit = it->second;
    for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  int64_t size = 1;
  if (auto it = compaction.find("compaction_window_size"); it != compaction.end()) {
    const std::string& text = it->second;
    int64_t parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    // The engine refused anything else when the run began.
    if (error == std::errc() && end == text.data() + text.size() && parsed > 0 &&
        parsed <= 1'000'000) {
      size = parsed;
    }
  }
  const int64_t unit_seconds = unit == "MINUTES" ? 60 : unit == "HOURS" ? 3600 : 86400;
  return unit_seconds * size;
}

// A simulated instant since the run's start: "2d", "2d 04:30", "-1d 23:00".
std::string Moment(int64_t second) {
  const int64_t day = FloorDiv(second, 86400);
  const int64_t rest = second - day * 86400;
  std::string text = std::to_string(day) + "d";
  if (rest == 0) return text;
  char clock[48];
  if (rest % 60 == 0) {
    std::snprintf(clock, sizeof(clock), " %02lld:%02lld", static_cast<long long>(rest / 3600),
                  static_cast<long long>(rest % 3600 / 60));
  } else {
    std::snprintf(clock, sizeof(clock), " %02lld:%02lld:%02lld",
                  static_cast<long long>(rest / 3600), static_cast<long long>(rest % 3600 / 60),
                  static_cast<long long>(rest % 60));
  }
  return text + clock;
}

bool SameCell(const LabWindow& a, const LabWindow& b) {
  return a.sstables == b.sstables && a.live_bytes == b.live_bytes &&
         a.droppable_bytes == b.droppable_bytes && a.expired == b.expired && a.blocked == b.blocked;
}

// Expired data still on disk: files the next check drops, and the live
// files of a window past its droppable time (held back by a blocker).
uint64_t WaitingBytes(const LabWindow& w) {
  return w.droppable_bytes + (w.expired ? w.live_bytes : 0);
}

// A window unchanged over consecutive columns: one rectangle.
struct Run {
  size_t first = 0;  // columns, inclusive
  size_t last = 0;
  LabWindow window;
};

// The runs of every window over `columns` (indices into `samples`), in a
// fixed order: by the column that ends them, then by window start.
std::vector<Run> Runs(const std::vector<LabWindowSample>& samples,
                      const std::vector<size_t>& columns) {
  std::vector<Run> runs;
  std::map<int64_t, Run> open;  // by window start
  for (size_t c = 0; c < columns.size(); ++c) {
    for (const LabWindow& w : samples[columns[c]].windows) {
      auto it = open.find(w.start_second);
      if (it != open.end() && it->second.last + 1 == c && SameCell(it->second.window, w)) {
        it->second.last = c;
        continue;
      }
      if (it != open.end()) {
        runs.push_back(it->second);
        open.erase(it);
      }
      open.emplace(w.start_second, Run{c, c, w});
    }
    // A window missing from this sample was dropped (or merged away).
    for (auto it = open.begin(); it != open.end();) {
      if (it->second.last == c) {
        ++it;
        continue;
      }
      runs.push_back(it->second);
      it = open.erase(it);
    }
  }
  for (const auto& [start, run] : open) runs.push_back(run);
  return runs;
}

}  // namespace

std::string WindowChartSvg(const LabResult& result) {
  if (!IsTimeWindowStrategy(result.compaction)) return "";
  const std::vector<LabWindowSample>& samples = result.windows;
  const int64_t window_seconds = WindowSeconds(result.compaction);

  // The samples drawn: all of them, or every stride-th and the last.
  std::vector<size_t> columns;
  const size_t stride =
      std::max<size_t>(1, (samples.size() + kMaxWindowColumns - 1) / kMaxWindowColumns);
  for (size_t i = 0; i < samples.size(); ++i) {
    if ((i + 1) % stride == 0 || i + 1 == samples.size()) columns.push_back(i);
  }
  const std::vector<Run> runs = Runs(samples, columns);

  int64_t y_low = 0;
  int64_t y_high = window_seconds;
  uint64_t max_bytes = 1;
  if (!runs.empty()) {
    y_low = runs[0].window.start_second;
    y_high = y_low + window_seconds;
  }
  for (const Run& r : runs) {
    y_low = std::min(y_low, r.window.start_second);
    y_high = std::max(y_high, r.window.start_second + window_seconds);
    max_bytes = std::max(max_bytes, r.window.live_bytes + r.window.droppable_bytes);
  }
  const double rows = static_cast<double>(y_high - y_low) / static_cast<double>(window_seconds);
  const double plot_h = std::clamp(rows * kRowHeight, kMinPlotHeight, kMaxPlotHeight);
  const double plot_w = kWidth - kLeft - kRight;
  const double height = kTop + plot_h + kBottom;
  const int64_t last_second = samples.empty() ? 0 : samples.back().second;
  const int64_t span = std::max<int64_t>(last_second, 60);
  auto x_of = [&](int64_t second) {
    return kLeft + plot_w * static_cast<double>(second) / static_cast<double>(span);
  };
  auto y_of = [&](int64_t window_second) {
    return kTop + plot_h * (1 - static_cast<double>(window_second - y_low) /
                                    static_cast<double>(y_high - y_low));
  };
  // A column spans from the previous drawn sample (the run's start for the
  // first) to its own: what the run looked like by then.
  auto column_left = [&](size_t c) { return c == 0 ? 0 : samples[columns[c - 1]].second; };

  const std::string title = "TWCS windows: " + result.strategy;
  std::string svg = "<svg class=\"windows\" data-strategy=\"" + HtmlEscape(result.strategy) +
                    "\" viewBox=\"0 0 " + Number(kWidth, 0) + " " + Number(height, 0) +
                    "\" role=\"img\" aria-label=\"" + HtmlEscape(title) + "\">\n<title>" +
                    HtmlEscape(title) + "</title>\n";
  svg += "<text class=\"title\" x=\"" + Number(kLeft, 0) + "\" y=\"20\">" + HtmlEscape(title) +
         "</text>\n";

  // Legend: shades of bytes, the waiting colour, the blocked outline, the count.
  const std::string top_mb = Megabytes(max_bytes);
  double lx = kLeft;
  const double ly = 34;
  for (double opacity : {0.3, 0.65, 1.0}) {
    svg += "<rect x=\"" + Number(lx, 1) + "\" y=\"" + Number(ly, 1) +
           "\" width=\"14\" height=\"14\" fill=\"" + kLiveColour + "\" fill-opacity=\"" +
           Number(opacity, 2) + "\"/>";
    lx += 16;
  }
  const std::string bytes_label = "bytes on disk (darker: more; " + top_mb + " MB at most)";
  svg += "<text class=\"key\" x=\"" + Number(lx + 4, 1) + "\" y=\"" + Number(ly + 11, 1) + "\">" +
         HtmlEscape(bytes_label) + "</text>\n";
  lx += 4 + 6.3 * static_cast<double>(bytes_label.size()) + 24;
  svg += "<rect x=\"" + Number(lx, 1) + "\" y=\"" + Number(ly, 1) +
         "\" width=\"14\" height=\"14\" fill=\"" + kWaitingColour + "\"/>";
  const std::string waiting_label = "expired, waiting to be dropped";
  svg += "<text class=\"key\" x=\"" + Number(lx + 20, 1) + "\" y=\"" + Number(ly + 11, 1) + "\">" +
         waiting_label + "</text>\n";
  lx += 20 + 6.3 * static_cast<double>(waiting_label.size()) + 24;
  svg += "<rect x=\"" + Number(lx + 1, 1) + "\" y=\"" + Number(ly + 1, 1) +
         "\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"" + kBlockedStroke +
         "\" stroke-width=\"2\"/>";
  const std::string blocked_label = "outlined: blocked by older data outside the window";
  svg += "<text class=\"key\" x=\"" + Number(lx + 20, 1) + "\" y=\"" + Number(ly + 11, 1) + "\">" +
         blocked_label + "</text>\n";
  lx += 20 + 6.3 * static_cast<double>(blocked_label.size()) + 24;
  svg += "<text class=\"key\" x=\"" + Number(lx, 1) + "\" y=\"" + Number(ly + 11, 1) +
         "\">3: SSTables in the window</text>\n";

  // Y grid and ticks: window starts.
  const TimeAxis y_axis = ChooseTimeAxis(y_high - y_low);
  for (int64_t t = FloorDiv(y_low + y_axis.step - 1, y_axis.step) * y_axis.step; t <= y_high;
       t += y_axis.step) {
    const std::string y = Number(y_of(t), 1);
    svg += "<line class=\"grid\" x1=\"" + Number(kLeft, 1) + "\" y1=\"" + y + "\" x2=\"" +
           Number(kWidth - kRight, 1) + "\" y2=\"" + y + "\"/>";
    svg += "<text class=\"ytick\" x=\"" + Number(kLeft - 6, 1) + "\" y=\"" + y + "\">" +
           std::to_string(t / y_axis.unit) + y_axis.suffix + "</text>\n";
  }
  // X ticks: simulated time, as in the line charts.
  const TimeAxis x_axis = ChooseTimeAxis(span);
  for (int64_t t = 0; t <= span; t += x_axis.step) {
    const std::string x = Number(x_of(t), 1);
    svg += "<line class=\"tick\" x1=\"" + x + "\" y1=\"" + Number(kTop + plot_h, 1) + "\" x2=\"" +
           x + "\" y2=\"" + Number(kTop + plot_h + 5, 1) + "\"/>";
    svg += "<text class=\"xtick\" x=\"" + x + "\" y=\"" + Number(kTop + plot_h + 18, 1) + "\">" +
           std::to_string(t / x_axis.unit) + x_axis.suffix + "</text>\n";
  }

  // The cells: a rectangle per window and run of unchanged samples.
  for (const Run& r : runs) {
    const LabWindow& w = r.window;
    const double x0 = x_of(column_left(r.first));
    const double x1 = x_of(samples[columns[r.last]].second);
    double y0 = y_of(w.start_second + window_seconds);
    double h = y_of(w.start_second) - y0;
    if (h > 4) {  // a hairline between windows
      y0 += 0.5;
      h -= 1;
    }
    const uint64_t total = w.live_bytes + w.droppable_bytes;
    const uint64_t waiting = std::min(total, WaitingBytes(w));
    const double opacity =
        0.15 + 0.85 * std::sqrt(static_cast<double>(total) / static_cast<double>(max_bytes));
    const bool all_waiting = total > 0 && waiting == total;
    // "window 0d 01:00–0d 02:00; at 0d 03:00–0d 05:00: 1 SSTable, ...".
    const int64_t first_second = samples[columns[r.first]].second;
    const int64_t last_sample = samples[columns[r.last]].second;
    std::string tip = "window " + Moment(w.start_second) + "–" +
                      Moment(w.start_second + window_seconds) + "; at " + Moment(first_second) +
                      (first_second == last_sample ? "" : "–" + Moment(last_sample)) + ": " +
                      std::to_string(w.sstables) +
                      (w.sstables == 1 ? " SSTable, " : " SSTables, ") + Megabytes(w.live_bytes) +
                      " MB live, " + Megabytes(w.droppable_bytes) + " MB droppable";
    if (w.expired) tip += "; expired";
    if (w.blocked) tip += "; blocked by data outside the window";
    svg +=
        "<rect class=\"cell\" x=\"" + Number(x0, 1) + "\" y=\"" + Number(y0, 1) + "\" width=\"" +
        Number(std::max(x1 - x0, 0.5), 1) + "\" height=\"" + Number(std::max(h, 0.5), 1) +
        "\" fill=\"" + (all_waiting ? kWaitingColour : kLiveColour) + "\" fill-opacity=\"" +
        Number(opacity, 2) + "\"" +
        (w.blocked ? std::string(" stroke=\"") + kBlockedStroke + "\" stroke-width=\"1.5\"" : "") +
        "><title>" + HtmlEscape(tip) + "</title></rect>\n";
    if (waiting > 0 && !all_waiting) {
      // Part expired: its share, at the bottom of the cell.
      const double share = h * static_cast<double>(waiting) / static_cast<double>(total);
      svg += "<rect class=\"waiting\" x=\"" + Number(x0, 1) + "\" y=\"" +
             Number(y0 + h - share, 1) + "\" width=\"" + Number(std::max(x1 - x0, 0.5), 1) +
             "\" height=\"" + Number(share, 1) + "\" fill=\"" + kWaitingColour + "\"/>\n";
    }
    const std::string count = std::to_string(w.sstables);
    if (x1 - x0 >= 7.0 * static_cast<double>(count.size()) + 4 && h >= 11) {
      // White on dark cells (the style sheet sets the colour of the text).
      const bool light = opacity > 0.55 && waiting == 0;
      svg += std::string("<text class=\"count") + (light ? " light" : "") + "\" x=\"" +
             Number((x0 + x1) / 2, 1) + "\" y=\"" + Number(y0 + h / 2, 1) + "\">" + count +
             "</text>\n";
    }
  }
  if (samples.empty() || runs.empty()) {
    svg += "<text class=\"empty\" x=\"" + Number(kLeft + plot_w / 2, 1) + "\" y=\"" +
           Number(kTop + plot_h / 2, 1) + "\">" + (samples.empty() ? "no samples" : "no SSTables") +
           "</text>\n";
  }

  svg += "<line class=\"axis\" x1=\"" + Number(kLeft, 1) + "\" y1=\"" + Number(kTop, 1) +
         "\" x2=\"" + Number(kLeft, 1) + "\" y2=\"" + Number(kTop + plot_h, 1) + "\"/>";
  svg += "<line class=\"axis\" x1=\"" + Number(kLeft, 1) + "\" y1=\"" + Number(kTop + plot_h, 1) +
         "\" x2=\"" + Number(kWidth - kRight, 1) + "\" y2=\"" + Number(kTop + plot_h, 1) + "\"/>\n";
  svg += "<text class=\"xlabel\" x=\"" + Number(kLeft + plot_w / 2, 1) + "\" y=\"" +
         Number(height - 8, 1) + "\">simulated time (" + x_axis.name + ")</text>\n";
  svg += "<text class=\"ylabel\" transform=\"translate(14 " + Number(kTop + plot_h / 2, 1) +
         ") rotate(-90)\">window start (" + y_axis.name + ")</text>\n";
  return svg + "</svg>\n";
}

}  // namespace cassette::tools
