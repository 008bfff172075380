#!/bin/bash
# A completion that frees a slot picks the held bios it lets go under the
# pool lock it holds anyway, and leaves them on its CPU's dispatcher to
# submit: scripts/dev/complete-dispatch.diff (not in the series).  Before
# it, the completion only kicks the dispatcher, which takes the lock again
# to pick.  The dispatcher's lag (the slack) is then measured from the
# pick to the submission, and a bio's latency from its submission.
# scripts/dev/smp-ab.sh runs smp-perf.sh with the series and with the
# diff, in turns, and writes results/complete-dispatch.txt.  Not a test.
#
#   scripts/dev/complete-dispatch.sh [ROUNDS] [CPUS...]   (default: 2
#                                                  rounds, 2 and 4 vCPUs)
exec "$(dirname "$0")/smp-ab.sh" "$(dirname "$0")/complete-dispatch.diff" \
	complete-dispatch "$@"
