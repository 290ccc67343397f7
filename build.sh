#!/usr/bin/env bash
# Sets up, builds and runs obs on Debian 12. Run as root on a fresh machine:
#
#   ./build.sh run      install what is missing, build, run the main job
#   ./build.sh check    install what is missing, build, run the test suite
#   ./build.sh fuzz [SECONDS [LIBFUZZER_FLAGS...]]
#                       libFuzzer on the compiler (tools/obs-libfuzzer) in
#                       the sanitizer build, from a corpus of the tests'
#                       programs, for SECONDS (default 600); the corpus grows
#                       in build-sanitize/corpus, crashes go to
#                       build-sanitize/crashes. Flags after SECONDS go to
#                       libFuzzer (-fork=2: one fuzzing process per core).
#
# Environment: BUILD_DIR (default: build, build-sanitize or build-fuzz),
# OBS_SANITIZE=1 to build and check with ASan and UBSan (OBS_SANITIZE=1
# ./build.sh check runs the whole suite so). OBS_SANITIZE=0 ./build.sh fuzz
# fuzzes in build-fuzz instead: coverage instrumentation without the
# sanitizers, about twice the executions per second, under glibc's
# debugging malloc (heap corruption, even by libMLIR, aborts), but without
# ASan's checks of every access obs makes.
set -euo pipefail

cd "$(dirname "$0")"
action=${1:-run}
# The sanitizer build and the fuzzer share build-sanitize: ASan and UBSan
# everywhere, and libFuzzer's coverage hooks, which cost the tests little.
instrument=0
if [ "$action" = fuzz ] && [ "${OBS_SANITIZE:-1}" = 0 ]; then
  sanitize=0
  instrument=1
  build_dir=${BUILD_DIR:-build-fuzz}
elif [ "$action" = fuzz ] || [ "${OBS_SANITIZE:-0}" = 1 ]; then
  sanitize=1
  instrument=1
  build_dir=${BUILD_DIR:-build-sanitize}
else
  sanitize=0
  build_dir=${BUILD_DIR:-build}
fi

packages=(cmake ninja-build ccache python3 python3-psutil
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          clang-22 lld-22 libclang-rt-22-dev clang-format-22 valgrind)

install_missing_packages() {
  local missing=()
  for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "build.sh: installing ${missing[*]}"
  local sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

configure() {
  [ -f "$build_dir/build.ninja" ] && return 0
  local extra=()
  [ "$sanitize" = 1 ] && extra+=(-DLLVM_USE_SANITIZER="Address;Undefined")
  [ "$instrument" = 1 ] && extra+=(-DOBS_FUZZ_INSTRUMENT=ON)
  # Warnings are errors: no warning lands (LLVM's own option).
  cmake -G Ninja -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release -DLLVM_ENABLE_WERROR=ON \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    "${extra[@]}"
}

# Leaks are not what the sanitizer build looks for: MLIR's contexts and
# registries live to the end of a tool. User poisoning is off because
# libMLIR is not instrumented: LLVM's BumpPtrAllocator, inlined into obs's
# code, poisons slabs that libMLIR's copy of it hands out without
# unpoisoning. UBSan stops at the first report (-fno-sanitize-recover).
if [ "$sanitize" = 1 ]; then
  export ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0
  export UBSAN_OPTIONS=print_stacktrace=1
fi

install_missing_packages
configure
case "$action" in
  run)
    ninja -C "$build_dir" obs-opt obs-run
    # The main job: seed 002's Sklansky prefix sum, sklansky 3 (+) on [0..7].
    echo "obs-run examples/paper/sklansky.mlir --kernel=sklansky3 --target=ref --input=iota"
    "$build_dir/bin/obs-run" examples/paper/sklansky.mlir --kernel=sklansky3 \
      --target=ref --input=iota
    ;;
  check)
    ninja -C "$build_dir" check-obs
    ;;
  fuzz)
    ninja -C "$build_dir" obs-libfuzzer
    seconds=${2:-600}
    shift $(( $# < 2 ? $# : 2 ))
    seeds="$build_dir/corpus-seed"
    mkdir -p "$seeds" "$build_dir/corpus" "$build_dir/crashes"
    find test examples -name '*.mlir' -size -8k | while read -r file; do
      cp "$file" "$seeds/$(echo "$file" | tr / _)"
    done
    # The other fuzz build's corpus, when there is one, is a head start.
    others=()
    for other in build-sanitize/corpus build-fuzz/corpus; do
      [ -d "$other" ] && [ "$other" != "$build_dir/corpus" ] && others+=("$other")
    done
    # Without ASan, glibc's debugging malloc checks every block on free.
    # It sees what ASan cannot: libMLIR is not instrumented, so a write
    # libMLIR makes into freed memory (an erased op's use list) is invisible
    # to ASan, but corrupts glibc's heap.
    malloc_check=()
    debug_malloc=/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0
    if [ "$sanitize" = 0 ] && [ -f "$debug_malloc" ]; then
      malloc_check=(env LD_PRELOAD="$debug_malloc" MALLOC_CHECK_=3)
    fi
    "${malloc_check[@]}" "$build_dir/bin/obs-libfuzzer" \
      "$build_dir/corpus" "$seeds" "${others[@]}" \
      -dict=tools/obs-libfuzzer/obs.dict -max_total_time="$seconds" \
      -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$build_dir/crashes/" "$@"
    ;;
  *)
    echo "usage: $0 run|check|fuzz [SECONDS [LIBFUZZER_FLAGS...]]" >&2
    exit 2
    ;;
esac
