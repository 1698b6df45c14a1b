#!/usr/bin/env bash
# Builds the benchmarks in Release and runs them; results land in
# ${CASSETTE_BENCH_OUT:-bench-results}/ as JSON:
#   - every Google Benchmark suite (bench/*_bench.cc) as <suite>.json, in
#     Google Benchmark's JSON (compare two runs with its tools/compare.py);
#   - cassette-bench, the side-by-side workload driver, as cassette-bench.json
#     (its table goes to stdout). CASSETTE_BENCH_SCALE (default 1) and
#     CASSETTE_BENCH_REPS (default 3) are passed to it; CASSETTE_BENCH_SKIP
#     = micro or driver skips one half.
# Usage: bash scripts/bench.sh [google-benchmark flags for the suites...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${CASSETTE_BENCH_BUILD_DIR:-build-bench}
out=${CASSETTE_BENCH_OUT:-bench-results}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_TESTS=OFF \
  -DCASSETTE_BUILD_BENCH=ON > /dev/null
ninja -C "$build" -j"$(nproc)"
mkdir -p "$out"
if [ "${CASSETTE_BENCH_SKIP:-}" != micro ]; then
  for suite in "$build"/bench/*_bench; do
    name=$(basename "$suite")
    echo "== $name"
    "$suite" --benchmark_out="$out/$name.json" --benchmark_out_format=json "$@"
  done
fi
if [ "${CASSETTE_BENCH_SKIP:-}" != driver ]; then
  echo "== cassette-bench"
  "$build"/bench/cassette-bench --scale "${CASSETTE_BENCH_SCALE:-1}" \
    --reps "${CASSETTE_BENCH_REPS:-3}" --dir "$build/cassette-bench-data" \
    --json "$out/cassette-bench.json"
fi
