#!/bin/sh
# Reads "number position" lines and prints them sorted by the number
# descending, then the position descending: the numbers, then the
# positions, one per line; sort's two keys are the independent sort.
sort -k1,1nr -k2,2nr | awk '{ key[NR] = $1; position[NR] = $2 }
  END { for (i = 1; i <= NR; i++) print key[i]; for (i = 1; i <= NR; i++) print position[i] }'
