#!/usr/bin/env bash
# Long runs of the randomized model test (tests/db/model_test.cc and
# model_crash_test.cc): each seed runs every configuration of both (no
# compaction and each compaction strategy; batch, group and periodic
# commit log with power losses), CASSETTE_MODEL_STEPS steps each, in a
# Release build, several seeds at once.
#
#   scripts/model-test.sh [--seeds N | --minutes M] [--first-seed S]
#                         [--steps K] [--jobs J] [--build DIR] [--out DIR]
#
# --seeds N runs seeds S..S+N-1 (default 16); --minutes M instead starts
# new seeds until M minutes have passed (the running ones finish). --steps
# sets the steps per configuration (default 3000); --jobs the seeds run at
# once (default nproc). --build: a CMake build directory (default
# build-release, configured here as Release when missing; only db_tests is
# built). --out: where each seed's log goes (default a temporary directory,
# kept when a seed failed).
#
# Prints one line per failing seed (replay it with CASSETTE_SEED=S
# CASSETTE_MODEL_STEPS=K build-release/tests/db_tests
# --gtest_filter='Seeds/ModelTest.*:Modes/ModelCrashTest.*') and the
# totals: seeds, runs, operations, reads checked, pages, paged queries,
# crashes, unsynced writes lost; exits 1 when any seed failed.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=16
minutes=
first_seed=1
steps=3000
jobs=$(nproc)
build="build-release"
out=
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --first-seed) first_seed=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--seeds N | --minutes M] [--first-seed S] [--steps K] [--jobs J]" \
         "[--build DIR] [--out DIR]" >&2; exit 2 ;;
  esac
done

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_BENCH=OFF > /dev/null
fi
ninja -C "$build" -j"$jobs" db_tests > /dev/null
binary=$build/tests/db_tests

keep_out=1
if [ -z "$out" ]; then
  out=$(mktemp -d -t cassette-model.XXXXXX)
  keep_out=0
fi
mkdir -p "$out"
filter='Seeds/ModelTest.*:Modes/ModelCrashTest.*'

run_seed() {
  local seed=$1
  if CASSETTE_SEED=$seed CASSETTE_MODEL_STEPS=$steps "$binary" --gtest_filter="$filter" \
    > "$out/seed-$seed.log" 2>&1; then
    echo ok > "$out/seed-$seed.status"
  else
    echo failed > "$out/seed-$seed.status"
  fi
}

start=$(date +%s)
deadline=
[ -n "$minutes" ] && deadline=$((start + minutes * 60))
seed=$first_seed
running=0
while true; do
  if [ -n "$deadline" ]; then
    [ "$(date +%s)" -lt "$deadline" ] || break
  else
    [ "$seed" -lt $((first_seed + seeds)) ] || break
  fi
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_seed "$seed" &
  running=$((running + 1))
  seed=$((seed + 1))
done
wait || true
elapsed=$(($(date +%s) - start))

failed=0
for status in "$out"/seed-*.status; do
  [ -e "$status" ] || continue
  if [ "$(cat "$status")" != ok ]; then
    s=$(basename "$status" .status)
    echo "FAILED ${s#seed-}: $out/$s.log"
    failed=$((failed + 1))
  fi
done
cat "$out"/seed-*.log | awk -v seeds=$((seed - first_seed)) -v failed="$failed" \
  -v steps="$steps" -v elapsed="$elapsed" '
  /^model-counts / {
    runs++
    for (i = 2; i <= NF; i++) {
      split($i, kv, "=")
      total[kv[1]] += kv[2]
    }
  }
  END {
    printf "model-test: seeds=%d failed=%d runs=%d steps_per_run=%d seconds=%d\n",
      seeds, failed, runs, steps, elapsed
    printf "  operations=%d reads_checked=%d pages=%d paged_queries=%d crashes=%d " \
      "lost_unsynced=%d\n", total["operations"], total["reads"], total["pages"],
      total["paged_queries"], total["crashes"], total["lost_unsynced"]
  }'
if [ "$failed" -gt 0 ]; then
  echo "logs kept in $out"
  exit 1
fi
[ "$keep_out" = 1 ] || rm -rf "$out"
