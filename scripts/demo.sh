#!/bin/bash
# make demo: build the patched UML kernel, boot it and reproduce seed 000's
# test #1 (three band devices, weights 40/20/10), printing its table.
#   DEMO_RUNTIME=60 make demo   runs it for the seed's 60 s (default 20 s)
set -eu
. "$(dirname "$0")/lib/common.sh"

# The kernel without debug options: the debug one measures its own
# overhead (see Documentation/developing.md, "The rig").
"$TOP/scripts/build-uml.sh" perf
say "booting UML: seed 000 test #1, ${DEMO_RUNTIME:-20} s per run, two runs"
"$TOP/scripts/uml-run.sh" -k perf -v -t 900 \
	"$TOP/scripts/experiments/seed000-test1.sh" --runtime "${DEMO_RUNTIME:-20}"
