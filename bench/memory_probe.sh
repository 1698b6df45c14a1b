#!/usr/bin/env bash
# The figures of docs/RELIABILITY.md "Limits and bounded memory": peak RSS
# and time of SELECT count(*) over 1 M and 10 M rows of one partition, of
# the shell printing 2 M rows, of SOURCE '/dev/zero', of a 300 MB blob
# literal, and the time of UPDATE/DELETE/SELECT with an IN list of 100 000
# clustering values. Needs a Release build with the bench targets:
#
#   cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_TESTS=OFF
#   ninja -C build-release cassette cassette-memory-probe
#   bench/memory_probe.sh build-release [WORK_DIR]
#
# WORK_DIR (default: a new temporary directory) takes about 250 MB.
set -euo pipefail
build=${1:-build-release}
work=${2:-$(mktemp -d)}
probe=$build/bench/cassette-memory-probe
cassette=$build/tools/cassette
timed() {  # label, command...
  local label=$1
  shift
  /usr/bin/time -f "$label peak_rss_kib=%M seconds=%e" "$@" > /dev/null 2> "$work/time.err" || true
  tail -n 1 "$work/time.err"
}

for rows in 1000000 10000000; do
  dir=$work/count-$rows
  rm -rf "$dir"
  "$probe" load "$dir" "$rows"
  "$probe" count "$dir"
done

dir=$work/print
rm -rf "$dir"
"$probe" load "$dir" 2000000 > /dev/null
timed "shell table SELECT * 2000000 rows" \
  "$cassette" shell --data "$dir" -e "SELECT * FROM ks.t WHERE k = 0;"
timed "shell json SELECT * 2000000 rows" \
  "$cassette" shell --data "$dir" --format json -e "SELECT * FROM ks.t WHERE k = 0;"
timed "shell SOURCE /dev/zero" "$cassette" shell --data "$dir" -e "SOURCE '/dev/zero'"

blob=$work/blob.cql
{
  printf "CREATE TABLE IF NOT EXISTS ks.b (k int PRIMARY KEY, v blob);\n"
  printf "INSERT INTO ks.b (k, v) VALUES (1, 0x"
  head -c 300000000 /dev/zero | tr '\0' 'a'
  printf ");\n"
} > "$blob"
timed "shell -f 300 MB blob literal" "$cassette" shell --data "$dir" -f "$blob"
rm -f "$blob"

"$probe" in "$dir" 100000
