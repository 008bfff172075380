#!/bin/bash
# A lone group past the in-flight limit, on a device that answers in
# microseconds: scripts/dev/solo-past-limit.diff (not in the series) lets
# its bios pass without the pool lock up to IOB_IO_LIMIT_MAX in flight
# instead of up to the estimate, which a device the CPUs saturate holds
# near its floor of 16.  scripts/dev/smp-ab.sh runs smp-perf.sh with the
# series and with the diff, in turns, and writes
# results/solo-past-limit.txt.  Not a test.
#
#   scripts/dev/solo-past-limit.sh [ROUNDS] [CPUS...]   (default: 2 rounds,
#                                                      2 and 4 vCPUs)
exec "$(dirname "$0")/smp-ab.sh" "$(dirname "$0")/solo-past-limit.diff" \
	solo-past-limit "$@"
