#!/bin/bash
# More device classes for the simulator's device matrix
# (dm_ioband_device_matrix in drivers/md/tests/dm-ioband-estimate_kunit.c),
# in user space (kunit/uspace): the same harness, its classes replaced by
# the rows of ROWS files (struct dev_class initialisers, one per line).
# A measurement, not a test: classes the estimate fails are listed on
# purpose (Documentation/known-limits.md, "Devices the matrix does not
# hold").  Prints the matrix's lines; "not ok" marks a class below 95 %
# or off its 3:1 by more than 2 points.
#
#   scripts/dev/matrix-sweep.sh [--warm-s N] [ROWS...]
#
# ROWS default to scripts/dev/matrix-rows/*.rows, and the lines then go
# to results/matrix-sweep.txt as well (with the default warm-up).
# --warm-s N: the warm-up (and each measured part) lasts N s at least,
# not 2 (a device's 40 latencies if longer).
# Each row is built and run on its own, JOBS at once (default: the
# CPUs); the lines come out in the rows' order.  The 4,096 x 800 ms row
# takes minutes.  IOBAND_MD: another drivers/md to take the sources from
# (a scratch copy being tried), built in build/matrix-sweep-alt.
set -eu
. "$(dirname "$0")/../lib/common.sh"

warm=2
if [ "${1:-}" = --warm-s ]; then
	warm=$2
	shift 2
fi
out=/dev/null
if [ $# = 0 ]; then
	set -- "$TOP"/scripts/dev/matrix-rows/*.rows
	[ "$warm" != 2 ] || out=$TOP/results/matrix-sweep.txt
fi
"$TOP/scripts/prepare-tree.sh" >/dev/null
md=${IOBAND_MD:-$TREE/drivers/md}
W=$BUILD/matrix-sweep${IOBAND_MD:+-alt}
rm -rf "$W"
mkdir -p "$W/md/tests"
cp "$md"/dm-ioband-*.[ch] "$W/md/"
cp "$md"/tests/dm-ioband-*.[ch] "$W/md/tests/"
cat "$@" | grep '\.name' >"$W/rows"
nrows=$(wc -l <"$W/rows")
# Row N's source: the row in place of the matrix's classes, only the
# matrix's case run, the least warm-up from --warm-s.
python3 - "$W/md/tests/dm-ioband-estimate_kunit.c" "$W/rows" "$warm" <<'PY'
import sys
path, rows, warm = sys.argv[1], open(sys.argv[2]).read().splitlines(), sys.argv[3]
src = open(path).read()
old = 'per_s = max_t(u64, 2 * SIM_SEC, 40 * d->svc_ns);'
assert src.count(old) == 1
src = src.replace(old, 'per_s = max_t(u64, %d * SIM_SEC, 40 * d->svc_ns);'
		  % int(warm))
head = 'static struct kunit_case dm_ioband_estimate_cases[] = {\n'
i = src.index(head)
j = src.index('{}', i)
src = (src[:i] + head +
       '\tKUNIT_CASE_PARAM(dm_ioband_device_matrix, dev_class_gen_params),\n\t'
       + src[j:])
head = 'static const struct dev_class dev_classes[] = {\n'
i = src.index(head)
j = src.index('\n};\n', i)
for n, row in enumerate(rows):
	open('%s.%d.c' % (path[:-2], n), 'w').write(
		src[:i] + head + row + src[j:])
PY
# Row N: its binary built (-Wno-unused-function: the suite's other
# cases are left out) and run, its lines in $W/out.N.txt.
run_row() {
	make -s -C "$TOP/kunit/uspace" MD="$W/md" OUT="$W/out.$1" \
		KUNIT_SRCS="$W/md/tests/dm-ioband-sim.c $W/md/tests/dm-ioband-estimate_kunit.$1.c" \
		EXTRA_CFLAGS=-Wno-unused-function \
		"$W/out.$1/ioband_kunit" >&2
	"$W/out.$1/ioband_kunit" |
		grep -E 'permille|^        not ok' |
		sed 's/^ *# dm_ioband_device_matrix: //' >"$W/out.$1.txt" || true
}
export -f run_row
export TOP W
seq 0 $((nrows - 1)) | xargs -P "${JOBS:-$(nproc)}" -I{} bash -c 'run_row {}'
{
	echo "# scripts/dev/matrix-sweep.sh at $(source_state), warm-up ${warm} s at least, $nrows classes"
	echo "# dm_ioband_device_matrix's harness: two groups at 3:1 against io_limit fixed at the tags; the estimate's line, then the AIMD candidate's"
	for n in $(seq 0 $((nrows - 1))); do
		cat "$W/out.$n.txt"
	done
} | tee "$W/out.txt"
[ "$out" = /dev/null ] || cp "$W/out.txt" "$out"
