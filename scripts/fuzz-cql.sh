#!/usr/bin/env bash
# Fuzzes only the CQL lexer, parser and statement splitter
# (fuzz/cql_parser_fuzzer) for CASSETTE_FUZZ_SECONDS (default 60; 0 skips).
# scripts/fuzz.sh runs every fuzz target; this is it for the parser alone.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/fuzz.sh "${CASSETTE_FUZZ_SECONDS:-60}" cql_parser_fuzzer
