#!/usr/bin/env bash
# Installs what is missing, builds cassette (release) and runs the demo on an
# embedded data directory (default ./data, or the first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASSETTE_BUILD_TESTS=OFF \
  -DCASSETTE_BUILD_BENCH=OFF > /dev/null
ninja -C build-release -j"$(nproc)" sensor_demo
./build-release/examples/sensor_demo "${1:-./data}"
