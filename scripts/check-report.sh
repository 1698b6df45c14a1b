#!/usr/bin/env bash
# Renders a `cassette simulate --report` page in headless Chromium (Debian's
# /usr/bin/chromium, or $CHROMIUM) to a PNG and checks that it loaded and
# drew something:
#   - the page is self-contained (nothing fetched: no http(s) address, no
#     external script or style sheet) and has its five charts with lines,
#     and a picture of its windows, with cells, per TWCS strategy;
#   - Chromium logged no console error or uncaught exception;
#   - the PNG has the window's size and is far from blank: at least 1% of
#     its filtered pixel bytes are non-zero (a blank page filters to zeros).
# Usage: scripts/check-report.sh REPORT.html OUT.png
# Exit status: 0 good, 1 a check failed, 2 usage, 77 no Chromium (ctest's
# SKIP_RETURN_CODE).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 REPORT.html OUT.png" >&2
  exit 2
fi
report=$(realpath "$1")
png=$2
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "check-report: $chromium not found (apt-get install chromium); skipped" >&2
  exit 77
fi
fail() {
  echo "check-report: $*" >&2
  exit 1
}

grep -qiE 'https?://|<script[^>]*src|<link|@import|url\(' "$report" &&
  fail "$report refers to something outside itself"
charts=$({ grep -o '<svg class="chart"' "$report" || true; } | wc -l)
[ "$charts" -eq 5 ] || fail "$report has $charts charts, not 5"
grep -q '<polyline' "$report" || fail "$report has no line in its charts"
# A window picture per TWCS strategy (a column of the summary table), with
# cells: the TWCS run's SSTables by time window.
header=$(grep -o '<thead>.*</thead>' "$report" || true)
twcs=$({ printf '%s' "$header" | grep -oE '<th>(twcs[:<]|[^<]*TimeWindowCompactionStrategy)' || true; } | wc -l)
windows=$({ grep -o '<svg class="windows"' "$report" || true; } | wc -l)
[ "$windows" -eq "$twcs" ] ||
  fail "$report has $windows TWCS window pictures for $twcs TWCS strategies"
if [ "$twcs" -gt 0 ]; then
  grep -q '<rect class="cell"' "$report" || fail "$report's TWCS window pictures are empty"
fi

profile=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$profile" "$log"' EXIT
rm -f "$png"
# No network, no first-run or background services: the page is all there is.
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --enable-logging=stderr --v=0 --hide-scrollbars \
  --screenshot="$png" --window-size=1280,2000 "file://$report" >"$log" 2>&1 ||
  { cat "$log" >&2; fail "chromium failed"; }
if grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(|Failed to load resource|Refused to' "$log" >&2; then
  fail "the page logged errors (above)"
fi
[ -s "$png" ] || { cat "$log" >&2; fail "no screenshot written"; }

# The PNG: signature, size, and how much it differs from a blank page.
python3 - "$png" <<'PY' || exit 1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("check-report: not a PNG")
width, height = struct.unpack(">II", data[16:24])
idat, at = b"", 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind == b"IDAT":
        idat += data[at + 8:at + 8 + length]
    at += 12 + length
raw = zlib.decompress(idat)
row = len(raw) // height
# Each row starts with its filter byte; the rest is the filtered pixels.
nonzero = sum(row - 1 - raw[r * row + 1:(r + 1) * row].count(0) for r in range(height))
share = nonzero / (len(raw) - height)
print(f"check-report: {width}x{height} PNG, {len(data)} bytes, {share:.1%} non-blank bytes")
if (width, height) != (1280, 2000):
    sys.exit("check-report: the screenshot is not 1280x2000")
if share < 0.01:
    sys.exit("check-report: the screenshot is close to blank")
PY
echo "check-report: $report rendered to $png without errors"
