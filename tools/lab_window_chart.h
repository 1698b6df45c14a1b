// The report's picture of a TWCS run (`cassette simulate --report`): its
// SSTables laid out by time window as they are created, merged and
// dropped, from the windows the run recorded at every sample
// (LabResult::windows). Simulated time runs across, window start up (the
// oldest window at the bottom); a window at a sample is a rectangle
// shaded by its bytes on disk and labelled with its SSTable count, orange
// where its data has expired and waits to be dropped, outlined where
// something outside it holds its expired files back. A window dropped
// whole simply ends. Inline SVG: no script, nothing fetched.
#pragma once

#include <string>

#include "tools/lab_run.h"

namespace cassette::tools {

// The window picture of `result` (a TWCS run; "" for any other strategy).
// Consecutive samples at which a window did not change are one rectangle,
// and a run of many samples is drawn from evenly spaced ones (at most
// kMaxWindowColumns), so a month of samples stays a small page.
std::string WindowChartSvg(const LabResult& result);

inline constexpr size_t kMaxWindowColumns = 800;

}  // namespace cassette::tools
