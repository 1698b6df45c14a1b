#!/usr/bin/env bash
# ctest lab_report_render: a small real `cassette simulate --report` run
# (two strategies, a late-arrival event workload cut down to run in seconds
# under ASan), rendered by scripts/check-report.sh in headless Chromium.
# Skips (77) where /usr/bin/chromium is absent; CI installs it.
# Usage: lab_report_render.sh CASSETTE_BINARY SOURCE_DIR
set -euo pipefail
cassette=$1
source_dir=$2
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "lab_report_render: $chromium not found; skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# events-late.toml's shape (10-minute buckets, a day's TTL, 5% of events up
# to 30 minutes late) with 20 timelines instead of 500.
cat >"$work/events.toml" <<'TOML'
[table]
cql = """CREATE TABLE events.timeline (id text, bucket timestamp, event_time timestamp,
         body blob, PRIMARY KEY ((id, bucket), event_time))
         WITH default_time_to_live = 86400 AND gc_grace_seconds = 600"""
identifier_column = "id"
bucket_column = "bucket"
bucket = "10m"
time_column = "event_time"
payload_column = "body"

[writes]
identifiers = 20
interval_seconds = 2
row_bytes = 80
row_bytes_spread = 40
late_fraction = 0.05
late_max = "30m"

[reads]
interval_seconds = 5
newest_fraction = 0.6
range_fraction = 0.3
missing_fraction = 0.1

[run]
duration = "3h"
sample_every = "10m"
memtable_bytes = 131072
TOML
"$cassette" simulate "$work/events.toml" --jobs 2 --scratch "$work/scratch" \
  --strategy stcs --strategy 'twcs:compaction_window_unit=MINUTES,compaction_window_size=30' \
  --report "$work/report.html"
"$source_dir/scripts/check-report.sh" "$work/report.html" "$work/report.png"
