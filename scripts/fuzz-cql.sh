#!/usr/bin/env bash
# Fuzzes the CQL lexer, parser and statement splitter (fuzz/cql_parser_fuzzer)
# for CASSETTE_FUZZ_SECONDS (default 60; 0 skips) with clang-14's libFuzzer,
# starting from the seeds in fuzz/corpus/cql_parser. A crash, hang (10 s per
# input), leak or more than 2 GiB of memory fails the script. scripts/test.sh
# runs it before ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds=${CASSETTE_FUZZ_SECONDS:-60}
[ "$fuzz_seconds" -gt 0 ] || exit 0
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fuzz_build=${CASSETTE_FUZZ_BUILD_DIR:-build-fuzz}
# Only the parser's few files and engine/types are built (fuzz/CMakeLists.txt).
CC=clang-14 CXX=clang++-14 cmake -S . -B "$fuzz_build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCASSETTE_SANITIZE=ON -DCASSETTE_BUILD_FUZZ=ON \
  -DCASSETTE_BUILD_TESTS=OFF -DCASSETTE_BUILD_BENCH=OFF > /dev/null
ninja -C "$fuzz_build" -j"$(nproc)" cql_parser_fuzzer
# New inputs go to a scratch directory, never into the checked-in seeds;
# a crashing input is kept in the build directory.
fuzz_scratch=$(mktemp -d)
echo "fuzzing the CQL parser for ${fuzz_seconds}s"
if ! "$fuzz_build/fuzz/cql_parser_fuzzer" -max_total_time="$fuzz_seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -dict=fuzz/cql_parser.dict -artifact_prefix="$fuzz_build/" \
    "$fuzz_scratch" fuzz/corpus/cql_parser > "$fuzz_build/cql_parser_fuzz.log" 2>&1; then
  tail -n 60 "$fuzz_build/cql_parser_fuzz.log"
  echo "cql_parser_fuzzer FAILED (log: $fuzz_build/cql_parser_fuzz.log, input: $fuzz_build/crash-*)"
  rm -rf "$fuzz_scratch"
  exit 1
fi
rm -rf "$fuzz_scratch"
grep -E "^stat::number_of_executed_units|^Done" "$fuzz_build/cql_parser_fuzz.log" || true
echo "cql_parser_fuzzer: no crash, hang or leak"
