#!/bin/sh
# Runs obs-run once per driver entry point named, with the recording test
# double of libcuda.so.1 (test/lib/FakeCuda) failing that entry point's
# first call, and prints one line per run:
#
#   NAME: exit CODE, LINES line(s): STDERR | LAST LOG LINE
#
# so that a test can check the exit code, that the error is one line, and
# what the double found still live at the end.
#
#   fail-each-call.sh FAKE_DIR WORK_DIR NAME... -- OBS_RUN ARGS...
fake=$1
work=$2
shift 2
names=
while [ "$1" != "--" ]; do
  names="$names $1"
  shift
done
shift
for name in $names; do
  rm -f "$work/$name.log"
  LD_LIBRARY_PATH=$fake OBS_FAKE_CUDA_LOG=$work/$name.log \
    OBS_FAKE_CUDA_FAIL=$name "$@" > "$work/$name.out" 2> "$work/$name.err"
  code=$?
  lines=$(wc -l < "$work/$name.err")
  echo "$name: exit $code, $lines line(s): $(cat "$work/$name.err") | $(tail -n 1 "$work/$name.log")"
done
