#!/bin/bash
# A completion that frees a slot picks the held bios it lets go under the
# pool lock it holds anyway, and leaves them on its CPU's dispatcher to
# submit: scripts/dev/complete-dispatch.diff (not in the series).  Before
# it, the completion only kicks the dispatcher, which takes the lock again
# to pick.  The policy counts a bio from its pick, so the wait for the
# dispatcher is part of the latency it measures (a first version measured
# the latency from the submission: the drain's probe, recognised by its
# dispatch time, was then never found, and latency-change's third phase
# fell to 0.7 % of dm-linear with io_limit=3).
# scripts/dev/smp-ab.sh runs smp-perf.sh with the series and with the
# diff, in turns, and writes results/complete-dispatch.txt.  Not a test.
#
#   scripts/dev/complete-dispatch.sh [ROUNDS] [CPUS...]   (default: 2
#                                                  rounds, 2 and 4 vCPUs)
exec "$(dirname "$0")/smp-ab.sh" "$(dirname "$0")/complete-dispatch.diff" \
	complete-dispatch "$@"
