#!/usr/bin/env bash
# The test command (README; .ci/run calls it on a clean clone). Builds and
# tests cassette the ways it is built:
#
# 1. Release with the default compiler (g++ 12 on Debian 12): exactly what
#    a user builds (`cmake -DCMAKE_BUILD_TYPE=Release`, tests on), warnings
#    as errors at -O2, and every test run against it.
# 2. Debug with clang 14 under AddressSanitizer + UndefinedBehaviorSanitizer:
#    the second compiler's warnings, and every test again with memory and
#    undefined-behaviour checks. Before its ctest, scripts/fuzz.sh runs every
#    fuzz target for a bounded time (CASSETTE_FUZZ_SECONDS per target,
#    default 10 here; 0 skips); a crash, hang or leak fails it.
# 3. The tests that start threads of their own (tests/CMakeLists.txt,
#    concurrency_tests) under ThreadSanitizer, clang 14
#    (CASSETTE_TEST_TSAN=0 skips it), before the sanitizer build's ctest.
#
# ctest registers the format check (scripts/check-format.sh) and the source
# lint (tests/lint_test.sh); they do not depend on the build, so they run
# only in the second ctest. ctest's summary is the last thing printed.
#
# CASSETTE_TEST_RELEASE=0 skips step 1 (for a quicker local run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Clones at different paths share cache entries.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
jobs=$(nproc)
# Each step says how long it took (docs/RELIABILITY.md records them).
step_began=$SECONDS
step_done() {
  echo "== $1 took $((SECONDS - step_began)) s"
  step_began=$SECONDS
}
step_done "Installing what is missing"
build_independent='^(lint|format|lab_report_render)$'

if [ "${CASSETTE_TEST_RELEASE:-1}" != 0 ]; then
  release=${CASSETTE_RELEASE_BUILD_DIR:-build-release}
  echo "== Release build ($release, $(c++ --version | head -n 1))"
  cmake -S . -B "$release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_BENCH=OFF > /dev/null
  ninja -C "$release" -j"$jobs"
  step_done "The Release build"
  (cd "$release" && ctest --output-on-failure -j"$jobs" --timeout 600 -E "$build_independent")
  step_done "The Release tests"
fi

build=${CASSETTE_TEST_BUILD_DIR:-build-asan}
echo "== AddressSanitizer + UndefinedBehaviorSanitizer build ($build, clang 14)"
# -O1 with line tables: sanitizer reports keep file:line, and the build is
# much cheaper than -O2 -g on two cores.
cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCASSETTE_SANITIZE=ON \
  -DCASSETTE_BUILD_BENCH=OFF > /dev/null
ninja -C "$build" -j"$jobs"
step_done "The sanitizer build"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

CASSETTE_FUZZ_SECONDS=${CASSETTE_FUZZ_SECONDS:-10} bash scripts/fuzz.sh
step_done "Fuzzing"

if [ "${CASSETTE_TEST_TSAN:-1}" != 0 ]; then
  tsan=${CASSETTE_TSAN_BUILD_DIR:-build-tsan}
  echo "== ThreadSanitizer: the tests that start threads ($tsan, clang 14)"
  cmake -S . -B "$tsan" -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCASSETTE_TSAN=ON \
    -DCASSETTE_BUILD_BENCH=OFF > /dev/null
  ninja -C "$tsan" -j"$jobs" concurrency_tests
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "$tsan/tests/concurrency_tests" \
    --gtest_brief=1
  step_done "ThreadSanitizer"
fi

cd "$build"
ctest --output-on-failure -j"$jobs" --timeout 600
