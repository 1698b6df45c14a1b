#!/usr/bin/env bash
# Installs the Debian 12 packages cassette needs, only those missing.
# libedit-dev: line editing and history for the interactive `cassette shell`.
# libgmp-dev: GMP, the arbitrary-precision integers behind varint and decimal.
# libmpfr-dev: MPFR, exp/log/log10 of a decimal to Cassandra's digits.
# libtomlplusplus-dev: reads the compaction lab's workload files (`cassette simulate`).
# clang-14 + libclang-rt-14-dev: the libFuzzer runtime for the CQL parser
# fuzz run in scripts/test.sh (clang-14 does not pull it in by itself).
# chromium: only in CI (CI=true), where the ctest lab_report_render renders
# `cassette simulate --report` pages headless (scripts/check-report.sh). It is
# large, so a user's install leaves it out and that test skips; install it
# by hand (apt-get install chromium) to run the check locally.
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config clang clang-14 libclang-rt-14-dev clang-format
          libzstd-dev libxxhash-dev libroaring-dev libgtest-dev libgmock-dev libbenchmark-dev
          librocksdb-dev libleveldb-dev libedit-dev libtomlplusplus-dev libgmp-dev libmpfr-dev)
if [ "${CI:-}" = "true" ]; then
  packages+=(chromium)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
