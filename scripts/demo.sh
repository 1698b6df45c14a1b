#!/usr/bin/env bash
# Installs what is missing, builds the `cassette` command (release) and runs
# the demo script examples/sensor_demo.cql through `cassette shell` on an
# embedded data directory (default ./data, or the first argument), then
# shows the demo table's statistics with `cassette stats`.
set -euo pipefail
cd "$(dirname "$0")/.."
data_dir="${1:-./data}"
bash scripts/install-deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_TESTS=OFF \
  -DCASSETTE_BUILD_BENCH=OFF > /dev/null
ninja -C build-release -j"$(nproc)" cassette
# A manual clock: the script moves time itself (CLOCK SET / CLOCK ADVANCE),
# nothing runs in the background, and every run prints the same output.
./build-release/tools/cassette shell --data "$data_dir" --clock manual:2024-01-15T00:00:00Z \
  -f examples/sensor_demo.cql
./build-release/tools/cassette stats --data "$data_dir" sensor_demo.readings
