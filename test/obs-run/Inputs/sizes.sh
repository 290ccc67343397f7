#!/bin/sh
# Runs a host function on inputs of many lengths, on ref and on cpu under
# forward, reverse and shuffled block and thread orders, and compares each
# result with what an awk program computes from the input. Prints one line
# per length: "n=N: ref cpu-forward cpu-reverse cpu-shuffle agree with awk",
# or the first difference; exits 1 when any run differs or fails.
#
#   sizes.sh WORK_DIR FILE.mlir ENTRY 'AWK PROGRAM' N... [-- OBS_RUN_ARGS...]
#
# The input is N random integers in [-1000, 1000] (in [LO, HI] when the
# environment sets SIZES_RANGE="LO HI"), one per line (awk's srand(N)); the
# awk program reads it and prints the expected result, one number per line
# (the results one after the other, where there are several).
work=$1
file=$2
entry=$3
program=$4
shift 4
sizes=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  sizes="$sizes $1"
  shift
done
[ "$1" = "--" ] && shift
status=0
range=${SIZES_RANGE:--1000 1000}
low=${range% *}
high=${range#* }
for n in $sizes; do
  in=$work/in.$n.txt
  awk -v n="$n" -v lo="$low" -v hi="$high" 'BEGIN { srand(n); for (i = 0; i < n; i++) print lo + int(rand() * (hi - lo + 1)) }' > "$in"
  awk "$program" "$in" > "$work/expected.$n.txt"
  agreed=
  for run in "ref" \
             "cpu-forward --block-order=forward" \
             "cpu-reverse --block-order=reverse --thread-order=reverse" \
             "cpu-shuffle --block-order=shuffle:$n --thread-order=shuffle:$n"; do
    name=${run%% *}
    target=${name%%-*}
    orders=${run#"$name"}
    out=$work/out.$n.$name.txt
    rm -f "$out"
    # shellcheck disable=SC2086
    if ! obs-run "$file" --entry="$entry" --target="$target" $orders \
         --input="$in" --output="$out" "$@" 2> "$work/err.txt"; then
      echo "n=$n: $name failed: $(head -n 1 "$work/err.txt")"
      status=1
      continue
    fi
    # Several results are written one file each (FILE.0.txt, FILE.1.txt,
    # ...) and compared as one, in order; an empty result may leave no
    # file.
    if [ ! -f "$out" ] && [ -f "${out%.txt}.0.txt" ]; then
      i=0
      while [ -f "${out%.txt}.$i.txt" ]; do
        cat "${out%.txt}.$i.txt"
        rm -f "${out%.txt}.$i.txt"
        i=$((i + 1))
      done > "$out"
    fi
    [ -f "$out" ] || : > "$out"
    if ! cmp -s "$work/expected.$n.txt" "$out"; then
      echo "n=$n: $name differs from awk: $(diff "$work/expected.$n.txt" "$out" | sed -n 2p)"
      status=1
      continue
    fi
    agreed="$agreed $name"
  done
  echo "n=$n:$agreed agree with awk"
done
exit $status
