#!/usr/bin/env bash
# Sets up, builds and runs obs on Debian 12. Run as root on a fresh machine:
#
#   ./build.sh run      install what is missing, build, run the main job
#   ./build.sh check    install what is missing, build, run the test suite
#   ./build.sh fuzz [SECONDS]
#                       libFuzzer on the compiler, every obs source
#                       instrumented and under ASan and UBSan (build-fuzz),
#                       from a corpus of the tests' programs, for SECONDS
#                       (default 600); crashes go to build-fuzz/crashes
#
# Environment: BUILD_DIR (default: build), OBS_SANITIZE=1 for an ASan/UBSan
# build (in build-sanitize unless BUILD_DIR is set).
set -euo pipefail

cd "$(dirname "$0")"
action=${1:-run}
if [ "$action" = fuzz ]; then
  build_dir=${BUILD_DIR:-build-fuzz}
elif [ "${OBS_SANITIZE:-0}" = 1 ]; then
  build_dir=${BUILD_DIR:-build-sanitize}
else
  build_dir=${BUILD_DIR:-build}
fi

packages=(cmake ninja-build ccache python3
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          clang-22 lld-22 libclang-rt-22-dev)

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
  if [ "${OBS_SANITIZE:-0}" = 1 ] || [ "$action" = fuzz ]; then
    extra+=(-DLLVM_USE_SANITIZER="Address;Undefined")
  fi
  if [ "$action" = fuzz ]; then
    extra+=(-DOBS_FUZZ_INSTRUMENT=ON)
  fi
  cmake -G Ninja -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    "${extra[@]}"
}

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
    seeds="$build_dir/corpus-seed"
    mkdir -p "$seeds" "$build_dir/corpus" "$build_dir/crashes"
    find test examples -name '*.mlir' -size -8k | while read -r file; do
      cp "$file" "$seeds/$(echo "$file" | tr / _)"
    done
    # Leaks are not what this looks for: MLIR's contexts live to the end.
    # User poisoning is off because libMLIR is not instrumented: LLVM's
    # BumpPtrAllocator, inlined into obs's code, poisons slabs that libMLIR's
    # copy of it then hands out without unpoisoning.
    ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$build_dir/bin/obs-libfuzzer" \
      "$build_dir/corpus" "$seeds" \
      -dict=tools/obs-libfuzzer/obs.dict -max_total_time="$seconds" \
      -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$build_dir/crashes/"
    ;;
  *)
    echo "usage: $0 run|check|fuzz [SECONDS]" >&2
    exit 2
    ;;
esac
