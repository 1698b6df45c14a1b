// `cassette simulate --report FILE.html`: the comparison as one
// self-contained HTML page (inline style and SVG, nothing fetched, no
// script): a line chart per time series (disk use, SSTable count, write
// amplification so far, read amplification p99) with a line per strategy,
// then the summary table and the recommendation of `SimulateTable`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/lab_run.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

std::string LabReportHtml(const WorkloadSpec& spec, const std::vector<LabResult>& results);

// Text made safe inside HTML elements and attribute values.
std::string HtmlEscape(std::string_view text);

}  // namespace cassette::tools
