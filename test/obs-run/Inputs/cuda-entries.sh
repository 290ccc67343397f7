#!/bin/sh
# Runs every entry of cuda-entries.txt on the cuda target with the extra
# obs-run arguments given (none under the libcuda double, --check on a GPU),
# each entry's driver calls logged to WORK_DIR when the double records them.
# Prints "FILE @ENTRY: ..." per entry: under the double, that its driver calls
# all succeeded and it released everything it took; exits 1 when any entry
# fails.
#
#   cuda-entries.sh EXAMPLES_DIR WORK_DIR [OBS_RUN_ARGS...]
examples=$1
work=$2
shift 2
list=$(dirname "$0")/cuda-entries.txt
status=0
grep -v '^#' "$list" > "$work/entries.txt"
while read -r file entry arguments; do
  log=$work/$(echo "$file.$entry" | tr / .).log
  rm -f "$log"
  # shellcheck disable=SC2086 # the arguments are words
  if ! OBS_FAKE_CUDA_LOG=$log obs-run "$examples/$file" --entry="$entry" \
      --target=cuda $arguments "$@" > "$work/out.txt" 2> "$work/err.txt"; then
    echo "$file @$entry: failed: $(head -1 "$work/err.txt")"
    status=1
    continue
  fi
  if [ -f "$log" ]; then
    refused=$(grep -c ' = [1-9][0-9]*$' "$log")
    echo "$file @$entry: $refused calls refused, $(tail -1 "$log")"
  else
    echo "$file @$entry: ran"
  fi
done < "$work/entries.txt"
exit $status
