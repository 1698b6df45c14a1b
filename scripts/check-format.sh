#!/usr/bin/env bash
# Fails if any C++ file of the repository is not formatted as .clang-format
# says (clang-format 14, Debian 12's; other versions format differently).
# Registered in ctest as "format"; exits 77 (ctest: skipped) when
# clang-format-14 is not installed (scripts/install-deps.sh installs it).
#
# Usage: check-format.sh [repo root]. To fix: clang-format-14 -i FILE...
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
formatter=$(command -v clang-format-14 || true)
if [ -z "$formatter" ]; then
  echo "format: clang-format-14 not installed; skipped"
  exit 77
fi
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.h' '*.cc' | LC_ALL=C sort)
else
  mapfile -t files < <(find engine include tools tests bench fuzz examples \
    -type f \( -name '*.h' -o -name '*.cc' \) 2> /dev/null | LC_ALL=C sort)
fi
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if ! "$formatter" --dry-run -Werror "${existing[@]}"; then
  echo "format: the files above differ from .clang-format; run clang-format-14 -i on them"
  exit 1
fi
echo "format: ${#existing[@]} files formatted as .clang-format says"
