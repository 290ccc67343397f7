#!/bin/sh
# Reads numbers, one per line, and prints them by magnitude, stably (a
# number and its negation keep their order): sort -s on |x| is the
# independent sort.
awk '{ print ($1 < 0 ? -$1 : $1), $1 }' | sort -s -n -k1,1 | awk '{ print $2 }'
