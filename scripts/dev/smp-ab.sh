#!/bin/bash
# A/B of a change to dm-ioband on SMP: scripts/qemu/bench/smp-perf.sh on
# a QEMU kernel with the series as it is ("series") and with a diff
# applied to build/linux (NAME), in turns, ROUNDS times for each vCPU
# count; writes results/NAME.txt.  Not a test.
#
#   [FLAVOUR=perf|lockstat] scripts/dev/smp-ab.sh DIFF NAME [ROUNDS] [CPUS...]
#                               (default: perf, 2 rounds, 2 and 4 vCPUs)
#
# FLAVOUR=perf (the default) measures IOPS on a kernel without lock
# debugging; FLAVOUR=lockstat adds /proc/lock_stat's pool lock line, on a
# kernel whose every spin_lock() pays lockdep's bookkeeping.
#
# It rebuilds the dm-ioband module of build/qemu-FLAVOUR for each kernel
# (seconds) and takes the diff out again on exit: it refuses to run on a
# tree with uncommitted changes.  Documentation/testing.md, "Measuring a
# change on SMP", names the changes measured with it (their diffs are in
# git history).
set -eu
. "$(dirname "$0")/../lib/common.sh"

[ $# -ge 2 ] || die "usage: smp-ab.sh DIFF NAME [ROUNDS] [CPUS...]"
diff=$(realpath "$1")
name=$2
rounds=${3:-2}
shift 2
shift || true
cpus=${*:-2 4}
flavour=${FLAVOUR:-perf}
out=$TOP/results/$name.txt

"$TOP/scripts/prepare-tree.sh"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"
restore() {
	git -C "$TREE" checkout -q -- . 2>/dev/null || true
	QEMU_NO_PREPARE=1 "$TOP/scripts/qemu/build.sh" "$flavour" >/dev/null 2>&1 || true
}
trap restore EXIT
git -C "$TREE" apply --check "$diff" || die "$diff does not apply"
"$TOP/scripts/qemu/build.sh" "$flavour"

tmp=$(mktemp)
{
	echo "Made by scripts/dev/smp-ab.sh $(basename "$diff") $name on $(date -u +%Y-%m-%d) at $(source_state): $rounds rounds of each kernel in turns, for $cpus vCPUs"
	echo "(kernel flavour $flavour, QEMU TCG on $(nproc) host cores; smp-perf.sh: 3 runs of 5 s per case, median ratio to dm-linear)"
} >"$tmp"
for r in $(seq 1 "$rounds"); do
	for n in $cpus; do
		for v in series "$name"; do
			git -C "$TREE" checkout -q -- .
			[ "$v" = series ] || git -C "$TREE" apply "$diff"
			QEMU_NO_PREPARE=1 "$TOP/scripts/qemu/build.sh" "$flavour" \
				>"$LOGS/smp-ab-build.log" 2>&1 ||
				die "build failed: $LOGS/smp-ab-build.log"
			"$TOP/scripts/qemu/run.sh" -f "$flavour" -s "$n" \
				"$TOP/scripts/qemu/bench/smp-perf.sh" ||
				die "smp-perf failed"
			o=$BUILD/qemu-runs/$flavour/smp-perf/output
			{
				echo
				echo "== round $r, $n vCPUs, $v"
				grep -E '^(round|uncontended|contended)' "$o"
				grep -m1 'completions_kept' "$o" |
					sed -n 's/.*\(completions_kept=[0-9]*\).*/after the first contended run: \1/p'
				# lock_stat's per-run counts (lockstat flavour)
				grep '^lock:' "$o" || true
			} >>"$tmp"
		done
	done
done
# one line per kernel and vCPU count: the medians of its runs
{
	echo
	echo "== summary: median ratio to dm-linear of each run"
	awk '/^== round/ { key = $4 " vCPUs, " $6; sub(/,$/, "", key) }
	     /^uncontended/ { u[key] = u[key] " " $NF }
	     /^contended/ { c[key] = c[key] " " $NF }
	     END { for (k in u) printf "%-20s uncontended%s; contended%s\n", k, u[k], c[k] }' "$tmp" | sort
} >>"$tmp"
mv "$tmp" "$out"
cat "$out"
