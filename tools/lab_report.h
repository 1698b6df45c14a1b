// `cassette simulate --report FILE.html`: the comparison as one
// self-contained HTML page (inline style and SVG, nothing fetched, no
// script): a line chart per time series (disk use, SSTable count, write
// amplification so far, read amplification p99) with a line per strategy,
// then for each TWCS run the picture of its windows (lab_window_chart.h),
// the summary table and the recommendation of `SimulateTable`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tools/lab_run.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

std::string LabReportHtml(const WorkloadSpec& spec, const std::vector<LabResult>& results);

// A time axis of the report's pictures: a tick every `step` simulated
// seconds, labelled in `unit`s with `suffix` ("3d").
struct TimeAxis {
  int64_t step = 3600;
  int64_t unit = 3600;  // seconds per label unit
  const char* suffix = "h";
  const char* name = "hours";
};

// Ticks at round simulated times over `span` seconds, ten at most: minutes
// for a span under two hours, hours under two days, days beyond.
TimeAxis ChooseTimeAxis(int64_t span);

// Text made safe inside HTML elements and attribute values.
std::string HtmlEscape(std::string_view text);

}  // namespace cassette::tools
