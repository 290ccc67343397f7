#!/bin/sh
# Runs every network of networks.mlir.in on N random numbers: on ref,
# checked against awk (prefix sums, the sum) and sort -n; on cpu after
# obs-optimize with THREADS threads, under a thread order, against ref.
# Prints one line per kernel and target: "<kernel> <target> ok" or what
# differs. KERNELS, when given, names the kernels to run (the sorting
# networks need a power-of-two N; the scans and the reduce take any).
#   networks.sh OBS_RUN TEMPLATE N THREADS ORDER SEED WORKDIR [KERNELS]
# OBS_RUN is one argument, split into words here: the tests quote it, so
# that it may carry options (lit -Dcross_check_proofs=1).
obs_run=$1 template=$2 n=$3 threads=$4 order=$5 seed=$6 dir=$7
kernels=${8:-"scan_sklansky scan_kogge_stone scan_brent_kung sort_periodic sort_odd_even_merge sort_bitonic reduce_tree"}
mkdir -p "$dir"
# Only the kernels asked for: each runs from its `obs.kernel @name` line to
# the `}` that ends it at the start of a line.
sed "s/@N@/$n/g" "$template" |
  awk -v kernels=" $kernels " '
    /^obs.kernel @/ { name = $2; sub(/^@/, "", name); sub(/\(.*/, "", name); keep = index(kernels, " " name " ") > 0 }
    keep || !inside { if (!/^obs.kernel @/ || keep) print }
    /^obs.kernel @/ { inside = 1 }
    /^}/ { inside = 0 }' > "$dir/networks.mlir"
awk -v n="$n" -v seed="$seed" 'BEGIN { srand(seed); for (i = 0; i < n; i++) print int(rand() * 2001) - 1000 }' > "$dir/in.txt"
awk '{ sum += $1; print sum }' "$dir/in.txt" > "$dir/scan.expected"
sort -n "$dir/in.txt" > "$dir/sort.expected"
awk '{ sum += $1 } END { print sum + 0 }' "$dir/in.txt" > "$dir/reduce.expected"
for kernel in $kernels; do
  expected="$dir/${kernel%%_*}.expected"
  if $obs_run "$dir/networks.mlir" --kernel=$kernel --target=ref \
       --input="$dir/in.txt" --output="$dir/$kernel.ref.txt" &&
     diff -q "$expected" "$dir/$kernel.ref.txt" > /dev/null; then
    echo "$kernel ref ok"
  else
    echo "$kernel ref FAILED"
  fi
  if $obs_run "$dir/networks.mlir" --kernel=$kernel --target=cpu \
       --threads="$threads" --thread-order="$order" --check \
       --input="$dir/in.txt" --output="$dir/$kernel.cpu.txt" &&
     diff -q "$expected" "$dir/$kernel.cpu.txt" > /dev/null; then
    echo "$kernel cpu ok"
  else
    echo "$kernel cpu FAILED"
  fi
done
