#!/bin/bash
# The measurement behind "completions are not kept per CPU" (see
# Documentation/testing.md, "Many CPUs"): scripts/dev/keep-completions.diff
# (not in the series) makes a completion that finds the pool lock taken
# keep itself in its CPU's buffer, for the lock's next holder to account,
# instead of spinning.  scripts/dev/smp-ab.sh runs smp-perf.sh with the
# series and with the diff, in turns, and writes
# results/keep-completions.txt.  Not a test.
#
#   scripts/dev/keep-completions.sh [ROUNDS] [CPUS...]   (default: 2 rounds,
#                                                       2 and 4 vCPUs)
exec "$(dirname "$0")/smp-ab.sh" "$(dirname "$0")/keep-completions.diff" \
	keep-completions "$@"
