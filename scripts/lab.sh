#!/usr/bin/env bash
# The compaction lab's main job: installs what is missing, builds the
# `cassette` command (release) and runs a shipped workload (default
# examples/workloads/sensors-daily.toml: 1000 sensors, a reading every
# 10 s, kept 7 days, a simulated month, sampled at 100 sensors) through
# TWCS, STCS, LCS and UCS side by side, printing the comparison, writing
# the report to lab-report.html (opened when a desktop can show it) and
# the time series to lab-series.csv (docs/LAB.md says how to read them).
#
#   scripts/lab.sh [WORKLOAD_FILE] [cassette simulate flags...]
#   scripts/lab.sh examples/workloads/events-late.toml --duration 1d
set -euo pipefail
cd "$(dirname "$0")/.."
workload="${1:-examples/workloads/sensors-daily.toml}"
[ $# -gt 0 ] && shift
bash scripts/install-deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_TESTS=OFF \
  -DCASSETTE_BUILD_BENCH=OFF > /dev/null
ninja -C build-release -j"$(nproc)" cassette
./build-release/tools/cassette simulate "$workload" --csv lab-series.csv \
  --report lab-report.html "$@"
echo "report: $PWD/lab-report.html; time series: $PWD/lab-series.csv"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xdg-open > /dev/null; then
  xdg-open lab-report.html > /dev/null 2>&1 || true
fi
