#!/usr/bin/env bash
# The install_consumer test (registered in tests/CMakeLists.txt for builds
# that are neither sanitized nor fuzzing): installs the current build into a
# temporary prefix and builds tests/install/consumer against it three ways,
# running each program it builds:
#   1. CMake: find_package(cassette CONFIG REQUIRED) + cassette::cassette;
#   2. pkg-config: the compiler driven by `pkg-config --cflags --libs
#      --static cassette` alone;
#   3. add_subdirectory of the source tree: configured as a consumer would,
#      checking that only the library is on by default (no tests, tools,
#      benchmarks or examples) and that none of cassette's warning or
#      sanitizer flags reach the consumer's own file. Only main.cc is
#      compiled there, since building the library again would take minutes;
#      INSTALL_TEST_FULL=1 builds and runs that consumer too.
#
# Usage: install_consumer.sh BUILD_DIR SOURCE_DIR LIBDIR CXX VERSION GENERATOR
set -euo pipefail
build_dir=$1 source_dir=$2 libdir=$3 cxx=$4 version=$5 generator=$6
consumer=$source_dir/tests/install/consumer

work=$(mktemp -d "${TMPDIR:-/tmp}/cassette-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
step() { echo "== $*"; }
fail() { echo "install_consumer: $*" >&2; exit 1; }

step "cmake --install into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
# Only the public headers are installed.
for header in "$prefix"/include/cassette/*; do
  case "$header" in *.h) ;; *) fail "installed a non-header: $header" ;; esac
done
[ -z "$(ls -A "$prefix/include" | grep -vx cassette)" ] || fail "include/ holds more than cassette/"
[ -f "$prefix/include/cassette/version.h" ] || fail "version.h is not installed"
[ -x "$prefix/bin/cassette" ] || [ ! -e "$build_dir/tools/cassette" ] || fail "bin/cassette missing"
# The installed command runs from the prefix (with a shared libcassette it
# finds the library through its install RPATH).
if [ -x "$prefix/bin/cassette" ]; then
  "$prefix/bin/cassette" --version | grep -qx "cassette $version" || fail "bin/cassette --version"
fi

step "find_package consumer"
cmake -S "$consumer" -B "$work/find-package" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/find-package" >/dev/null
"$work/find-package/consumer" "$work/data-find-package" "$version"

step "pkg-config consumer"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
[ "$(pkg-config --modversion cassette)" = "$version" ] || fail "cassette.pc has another version"
# shellcheck disable=SC2046  # pkg-config's output is a list of words
"$cxx" -std=c++20 -O1 -o "$work/pkg-config-consumer" "$consumer/main.cc" \
  $(pkg-config --cflags cassette) $(pkg-config --static --libs cassette)
# A program linked against a shared libcassette outside the loader's
# paths needs them told, as a user of a private prefix would.
LD_LIBRARY_PATH=$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
  "$work/pkg-config-consumer" "$work/data-pkg-config" "$version"

step "add_subdirectory consumer"
sub=$work/add-subdirectory
cmake -S "$consumer" -B "$sub" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCASSETTE_SOURCE_DIR="$source_dir" >/dev/null
for option in CASSETTE_BUILD_TESTS CASSETTE_BUILD_BENCH CASSETTE_BUILD_BENCH_DRIVER \
  CASSETTE_BUILD_EXAMPLES CASSETTE_BUILD_TOOLS CASSETTE_INSTALL; do
  grep -qx "$option:BOOL=OFF" "$sub/CMakeCache.txt" || fail "$option is not OFF by default"
done
targets=$(cmake --build "$sub" --target help)
for target in cassette_tools cql_tests cassette-bench sensor_demo; do
  if grep -q "^$target:" <<<"$targets"; then fail "target $target built by default"; fi
done
# The consumer's main.cc compiles with the consumer's flags only.
python3 - "$sub/compile_commands.json" "$consumer/main.cc" <<'PY'
import json, sys
commands = json.load(open(sys.argv[1]))
main = [c for c in commands if c["file"].endswith("/tests/install/consumer/main.cc")]
if len(main) != 1:
    sys.exit("install_consumer: main.cc not in compile_commands.json")
command = main[0]["command"]
for leaked in ("-Werror", "-Wall", "-Wextra", "-fsanitize", "-Wno-restrict"):
    if leaked in command:
        sys.exit("install_consumer: cassette's %s reached the consumer: %s" % (leaked, command))
# Only include/ (and the generated version.h beside it) is public: the
# repository root, where engine/ lives, must not be an include directory.
root = sys.argv[2].rsplit("/tests/install/", 1)[0]
for word in command.split():
    if word in ("-I" + root, "-isystem" + root) or word == root:
        sys.exit("install_consumer: the repository root is on the consumer's include path")
PY
case "$generator" in
  Ninja*) object=CMakeFiles/consumer.dir/main.cc.o ;;
  *) object=main.cc.o ;;  # the Makefile generators' per-file target
esac
cmake --build "$sub" --target "$object" >/dev/null
if [ "${INSTALL_TEST_FULL:-0}" = 1 ]; then
  cmake --build "$sub" >/dev/null
  "$sub/consumer" "$work/data-add-subdirectory" "$version"
fi
echo "install_consumer: all consumers built and passed"
