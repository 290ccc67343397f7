#!/bin/sh
# Reads "key position" lines and prints what a stable argsort by key gives:
# the keys in ascending order, then their positions (equal keys keep their
# order), one per line; sort -s is the independent sort.
sort -s -n -k1,1 | awk '{ key[NR] = $1; position[NR] = $2 }
  END { for (i = 1; i <= NR; i++) print key[i]; for (i = 1; i <= NR; i++) print position[i] }'
