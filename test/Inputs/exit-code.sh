#!/bin/sh
# Runs a command with stderr merged into stdout, then prints its exit code,
# so that a test can check both the one error line and the status.
"$@" 2>&1
echo "exit code: $?"
