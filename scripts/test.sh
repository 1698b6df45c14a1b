#!/usr/bin/env bash
# Builds cassette with AddressSanitizer + UndefinedBehaviorSanitizer and
# runs every test (ctest prints its summary last). Before ctest,
# scripts/fuzz.sh runs every fuzz target for a bounded time
# (CASSETTE_FUZZ_SECONDS per target, default 10 here; 0 skips); a crash,
# hang or leak fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${CASSETTE_TEST_BUILD_DIR:-build-asan}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Clones at different paths share cache entries.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
# -O1 with line tables: sanitizer reports keep file:line, and the build is
# much cheaper than -O2 -g on two cores.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DCASSETTE_SANITIZE=ON -DCASSETTE_BUILD_BENCH=OFF > /dev/null
ninja -C "$build" -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

CASSETTE_FUZZ_SECONDS=${CASSETTE_FUZZ_SECONDS:-10} bash scripts/fuzz.sh

cd "$build"
ctest --output-on-failure -j"$(nproc)" --timeout 600
