#!/usr/bin/env bash
# Builds every libFuzzer target of fuzz/ (clang-14, ASan + UBSan) and runs
# each in turn on its seeds in fuzz/corpus/<name>/ for a bounded time.
#
#   scripts/fuzz.sh [--seeds] [seconds per target] [target ...]
#
# Seconds per target: the argument, else CASSETTE_FUZZ_SECONDS, else 60
# (0 skips everything). Targets: all of them unless named. --seeds first
# rewrites the seed corpora from files the engine writes
# (fuzz/make_fuzz_corpus.cc). A crash, hang (10 s per input), leak or more
# than 2 GiB of memory fails the script; the input is kept in the build
# directory (crash-*, timeout-*, leak-*, oom-*). New inputs go to a scratch
# directory, never into the committed seeds. The last lines are a table of
# executions per target (docs/RELIABILITY.md, "Fuzzing").
set -euo pipefail
cd "$(dirname "$0")/.."
all_targets=(cql_parser_fuzzer partition_update_fuzz manifest_fuzz schema_fuzz types_fuzz
  commitlog_replay_fuzz sstable_file_fuzz sstable_data_fuzz sstable_index_fuzz
  sstable_summary_fuzz sstable_bloom_fuzz sstable_statistics_fuzz
  sstable_chunk_offsets_fuzz sstable_toc_fuzz)
make_seeds=0
if [ "${1:-}" = "--seeds" ]; then
  make_seeds=1
  shift
fi
fuzz_seconds=${CASSETTE_FUZZ_SECONDS:-60}
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  fuzz_seconds=$1
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
[ "$fuzz_seconds" -gt 0 ] || [ "$make_seeds" = 1 ] || exit 0

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fuzz_build=${CASSETTE_FUZZ_BUILD_DIR:-build-fuzz}
CC=clang-14 CXX=clang++-14 cmake -S . -B "$fuzz_build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCASSETTE_SANITIZE=ON -DCASSETTE_BUILD_FUZZ=ON \
  -DCASSETTE_BUILD_TESTS=OFF -DCASSETTE_BUILD_BENCH=OFF > /dev/null
if [ "$make_seeds" = 1 ]; then
  ninja -C "$fuzz_build" -j"$(nproc)" make_fuzz_corpus
  "$fuzz_build/fuzz/make_fuzz_corpus" fuzz/corpus
  echo "seed corpora rewritten under fuzz/corpus"
  [ "$fuzz_seconds" -gt 0 ] || exit 0
fi
ninja -C "$fuzz_build" -j"$(nproc)" "${targets[@]}"

summary=()
for target in "${targets[@]}"; do
  corpus=fuzz/corpus/${target%_fuzz}
  corpus=${corpus%_fuzzer}
  mkdir -p "$corpus"
  extra=()
  [ "$target" != cql_parser_fuzzer ] || extra=(-dict=fuzz/cql_parser.dict)
  scratch=$(mktemp -d)
  log="$fuzz_build/$target.log"
  echo "fuzzing $target for ${fuzz_seconds}s"
  if ! "$fuzz_build/fuzz/$target" -max_total_time="$fuzz_seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" -artifact_prefix="$fuzz_build/$target-" \
      "$scratch" "$corpus" > "$log" 2>&1; then
    tail -n 60 "$log"
    echo "$target FAILED (log: $log, input: $fuzz_build/$target-crash-* or similar)"
    rm -rf "$scratch"
    exit 1
  fi
  rm -rf "$scratch"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  summary+=("$(printf '%-28s %12s executions  %6s edges  0 crashes' "$target" "${execs:-?}" "${cov:-?}")")
done
echo "fuzzing done, ${fuzz_seconds}s per target, no crash, hang or leak:"
printf '%s\n' "${summary[@]}"
