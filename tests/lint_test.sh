#!/usr/bin/env bash
# Source lint for engine/ (registered in ctest as "lint"):
#
# 1. Only engine/env touches the OS. Elsewhere in engine/, time, threads and
#    files come through Clock, Scheduler and FileSystem, so tests can replace
#    them. Flags real clocks, thread creation, sleeping, C/POSIX file calls
#    and the headers that exist only for them.
# 2. Layering (docs/ARCHITECTURE.md, "Layers"): an engine/<a> file may
#    include engine/<b> only if b is in a lower layer than a:
#      util < env < types < schema < mutation < {commitlog memtable sstable}
#        < {read compaction} < db < cql
#    Folders in the same layer do not include each other. engine/ never
#    includes tests/.
# 3. Size: no source file under engine/, tools/ or include/ is over 800
#    lines (the house rule; one concept per file: split along its seams).
# 4. Link dependencies: the DEPS of engine/<a>/CMakeLists.txt name exactly
#    the engine libraries a's files use: cassette_<b> for every engine/<b>/
#    header a includes (declared directly, not reached through another
#    library), and no cassette_<b> that a neither includes from engine/<b>/
#    nor reaches through a public header that engine/<b> implements
#    (cassette/db.h is served by engine/db, and so on: see public_impl).
#
# Usage: lint_test.sh <repo root>. Prints every violation as file:line and
# exits 1 if there is any.
set -u
root="${1:-.}"
cd "$root" || { echo "lint: cannot cd to $root"; exit 2; }
[ -d engine ] || { echo "lint: no engine/ under $root"; exit 2; }

fail=0
report() {  # file:line:text, message
  echo "$1"
  echo "    -> $2"
  fail=1
}

# Source text with string literals, // comments, one-line /* */ comments
# and the " * ..." lines of block comments blanked, so prose about
# "std::thread" is not flagged. Line numbers stay the same.
strip() {
  sed -E -e 's#"([^"\\]|\\.)*"#""#g' -e 's#/\*.*\*/##g' -e 's#//.*$##' \
    -e 's#^[[:space:]]*(/\*|\*).*$##' "$1"
}

mapfile -t files < <(find engine -type f \( -name '*.h' -o -name '*.cc' \) | LC_ALL=C sort)

# --- 1. OS access outside engine/env -----------------------------------------
# Each rule is "<extended regex>|<message>"; the message follows the last '|'.
B='(^|[^A-Za-z0-9_])'     # an identifier boundary
F='(^|[^A-Za-z0-9_:.>])'  # a free (unqualified, non-member) call
os_rules=(
  "${B}system_clock([^A-Za-z0-9_]|\$)|real wall clock: take a Clock* or a \`now\` parameter"
  "${B}(steady_clock|high_resolution_clock)([^A-Za-z0-9_]|\$)|real monotonic clock: use Clock::MonotonicNanos"
  "${F}time[[:space:]]*\\([[:space:]]*(nullptr|NULL|0|&)|${B}(::|std::)time[[:space:]]*\\(|time(): take a Clock*"
  "${B}(::|std::)?(gettimeofday|clock_gettime)[[:space:]]*\\(|OS clock call: take a Clock*"
  "std::(thread|jthread|async)([^A-Za-z0-9_]|\$)|thread creation: use the injected Scheduler"
  "std::this_thread::sleep_(for|until)|sleeping: wait on a condition or use the Scheduler"
  "${B}pthread_|pthreads: use the injected Scheduler"
  "${B}(::|std::)?fopen[[:space:]]*\\(|fopen(): use the injected FileSystem"
  "${B}::(open|open64|openat|creat|read|write|pread|pwrite|close|unlink|rename|fsync|fdatasync|mkdir|rmdir|opendir|statvfs|flock)[[:space:]]*\\(|POSIX file call: use the injected FileSystem"
  "${B}std::(rename|tmpfile)[[:space:]]*\\(|C file call: use the injected FileSystem"
  "${F}(fsync|fdatasync|opendir|statvfs|flock|openat)[[:space:]]*\\(|POSIX file call: use the injected FileSystem"
  "std::filesystem|std::filesystem: use the injected FileSystem"
  "std::(ifstream|ofstream|fstream)([^A-Za-z0-9_]|\$)|file streams: use the injected FileSystem"
  "#[[:space:]]*include[[:space:]]*<(thread|filesystem|fstream|pthread\\.h|fcntl\\.h|unistd\\.h|dirent\\.h|sys/(stat|file|statvfs|mman)\\.h)>|OS header outside engine/env"
)

for f in "${files[@]}"; do
  case "$f" in engine/env/*) continue ;; esac
  stripped="$(strip "$f")"
  for rule in "${os_rules[@]}"; do
    pattern="${rule%|*}"
    message="${rule##*|}"
    while IFS= read -r hit; do
      [ -n "$hit" ] && report "$f:$hit" "$message"
    done < <(grep -nE -- "$pattern" <<<"$stripped")
  done
done

# --- 2. Layering -------------------------------------------------------------
layer_of() {
  case "$1" in
    util) echo 0 ;;
    env) echo 1 ;;
    types) echo 2 ;;
    schema) echo 3 ;;
    mutation) echo 4 ;;
    commitlog | memtable | sstable) echo 5 ;;
    read | compaction) echo 6 ;;
    db) echo 7 ;;
    cql) echo 8 ;;
    *) echo -1 ;;
  esac
}

for f in "${files[@]}"; do
  from="${f#engine/}"
  from="${from%%/*}"
  from_layer="$(layer_of "$from")"
  if [ "$from_layer" -lt 0 ]; then
    report "$f:1:" "engine/$from is not a known layer; add it to layer_of in tests/lint_test.sh and to docs/ARCHITECTURE.md"
    continue
  fi
  while IFS= read -r hit; do
    [ -z "$hit" ] && continue
    # Bash's own matching rather than grep and sed on a here-string per
    # line: faster, and free of the here-string's temporary file (one run
    # beside other work trees' lint runs reported 8 of some 2,000 includes
    # as including tests/, which none of them did).
    if [[ $hit == *'"tests/'* ]]; then
      report "$f:$hit" "engine/ must not include tests/"
      continue
    fi
    target=""
    [[ $hit =~ \"engine/([^/\"]+)/ ]] && target="${BASH_REMATCH[1]}"
    [ -z "$target" ] && continue
    [ "$target" = "$from" ] && continue
    to_layer="$(layer_of "$target")"
    if [ "$to_layer" -lt 0 ]; then
      report "$f:$hit" "includes unknown layer engine/$target"
    elif [ "$to_layer" -ge "$from_layer" ]; then
      report "$f:$hit" "engine/$from may not include engine/$target (layer order: util env types schema mutation {commitlog memtable sstable} {read compaction} db cql)"
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(engine|tests)/' "$f")
done

# --- 3. File size -------------------------------------------------------------
max_lines=800
while IFS= read -r f; do
  lines=$(wc -l <"$f")
  if [ "$lines" -gt "$max_lines" ]; then
    report "$f:$lines:" "$lines lines, over the limit of $max_lines: split it along its seams"
  fi
done < <(find engine tools include -type f \( -name '*.h' -o -name '*.cc' \) 2>/dev/null | LC_ALL=C sort)

# --- 4. Link dependencies match the includes ---------------------------------
# The engine folder implementing each public header's functions: a folder
# that includes the header may link that library without including any of
# its engine/ headers (cql/ runs statements through cassette/db.h). Only a
# justification: a header may be included for its declarations alone (an
# enum of cassette/options.h), which needs no link.
public_impl() {
  case "$1" in
    status.h) echo util ;;
    clock.h | file_system.h | scheduler.h) echo env ;;
    value.h) echo types ;;
    schema.h) echo schema ;;
    db.h | options.h | mutation.h | insert_batch.h) echo db ;;
    cql.h) echo cql ;;
  esac
}

for cmake in engine/*/CMakeLists.txt; do
  dir="${cmake%/CMakeLists.txt}"
  folder="${dir#engine/}"
  # The cassette_<x> names in the DEPS of cassette_engine_library(...).
  declared="$(tr '\n' ' ' <"$cmake" |
    sed -nE 's#.*cassette_engine_library\([^)]*DEPS([^)]*)\).*#\1#p' |
    grep -oE 'cassette_[a-z_]+' | sed 's#^cassette_##' | LC_ALL=C sort -u)"
  included="$(grep -rhE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"engine/[a-z_]+/' "$dir" |
    sed -nE 's#.*"engine/([a-z_]+)/.*#\1#p' | grep -vx "$folder" | LC_ALL=C sort -u)"
  served="$(grep -rhE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"cassette/[a-z_]+\.h"' "$dir" |
    sed -nE 's#.*"cassette/([a-z_]+\.h)".*#\1#p' | LC_ALL=C sort -u |
    while IFS= read -r header; do public_impl "$header"; done | grep -vx "$folder" | LC_ALL=C sort -u)"
  for x in $included; do
    grep -qx "$x" <<<"$declared" ||
      report "$cmake:1:" "engine/$folder includes engine/$x/ but its DEPS do not name cassette_$x"
  done
  for x in $declared; do
    grep -qx "$x" <<<"$included" && continue
    grep -qx "$x" <<<"$served" && continue
    report "$cmake:1:" "engine/$folder declares cassette_$x but includes nothing of engine/$x/ (nor a public header it implements): drop it"
  done
done

if [ "$fail" -ne 0 ]; then
  echo "lint: FAILED"
  exit 1
fi
echo "lint: ok (${#files[@]} files)"
