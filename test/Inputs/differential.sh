#!/bin/sh
# Usage: differential.sh OBS-RUN EXAMPLES-DIR FILE KERNEL THREADS
#
# Runs KERNEL of EXAMPLES-DIR/FILE on the cpu target with THREADS threads,
# with every subset of the refinement passes but promote-registers, with
# promote-registers alone, and with promote-registers added to each subset
# that assigns work, under forward, reverse and shuffled thread orders, each time comparing with the ref target
# (--check), and prints "N runs, M differences". A difference prints the run.
obs_run=$1
file=$2/$3
kernel=$4
threads=$5
subsets="none assign-work inplace elide-warp-syncs plan-shared
assign-work,inplace assign-work,elide-warp-syncs assign-work,plan-shared
inplace,elide-warp-syncs inplace,plan-shared elide-warp-syncs,plan-shared
assign-work,inplace,elide-warp-syncs assign-work,inplace,plan-shared
assign-work,elide-warp-syncs,plan-shared inplace,elide-warp-syncs,plan-shared
assign-work,inplace,elide-warp-syncs,plan-shared
promote-registers assign-work,promote-registers
assign-work,inplace,promote-registers
assign-work,elide-warp-syncs,promote-registers
assign-work,plan-shared,promote-registers
assign-work,inplace,elide-warp-syncs,promote-registers
assign-work,inplace,plan-shared,promote-registers
assign-work,elide-warp-syncs,plan-shared,promote-registers
assign-work,inplace,elide-warp-syncs,plan-shared,promote-registers"
errors=$(mktemp)
runs=0
failed=0
seed=1
for subset in $subsets; do
  for order in forward reverse shuffle:$seed; do
    runs=$((runs + 1))
    seed=$((seed + 1))
    # Unquoted: OBS-RUN is one argument that may carry options (the tests
    # quote it; lit -Dcross_check_proofs=1).
    if ! $obs_run "$file" --kernel="$kernel" --threads="$threads" \
        --target=cpu --thread-order="$order" --passes="$subset" --check \
        --input=random:$seed:-1000:1000 > /dev/null 2> "$errors"; then
      failed=$((failed + 1))
      echo "FAILED: --passes=$subset --thread-order=$order: $(cat "$errors")"
    fi
  done
done
rm -f "$errors"
echo "$runs runs, $failed differences"
