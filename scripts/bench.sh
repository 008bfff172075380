#!/bin/bash
# make bench: every seed experiment, full length, in the UML kernel without
# debug options, side by side with no controller and (where they apply)
# iocost and BFQ.  Writes results/<experiment>.txt, plots (PNG) and
# results/README.md, the summary the top README links to, then runs
# scripts/update-readme.sh (make readme), which copies the figures the
# README and Documentation/*.md show from results/.  Raw fio output and
# logs stay in build/bench/.
#
#   BENCH_RUNTIME=60 make bench     the seeds' 60 s runs (default 20 s)
#   BENCH_ONLY="seed001-vm" ...     a subset (dkms-debian: the DKMS
#                                   package on Debian's kernel, as root)
#   BENCH_DIRTY=1 ...               run on a tree with uncommitted changes
#                                   (each table then says so)
#
# Every results/ file names the commit it was made at; a tree with
# uncommitted changes is refused, so that the commit says what ran.
set -u
. "$(dirname "$0")/lib/common.sh"

rt=${BENCH_RUNTIME:-20}
res=$TOP/results
raw=$BUILD/bench
mkdir -p "$res" "$raw"
"$TOP/scripts/build-uml.sh" perf || exit 1

# name | script and arguments
experiments=(
	"seed000-test1|seed000-test1.sh"
	"seed000-users|seed000-users.sh"
	"seed001-vm|seed001-vm.sh"
	"seed002-mixed|seed002-mixed.sh"
	"seed003-mkfs|seed003-mkfs.sh"
	"seed004-dd|seed004-dd.sh"
	"seed004-rw|seed004-rw.sh"
	"cgroup-direct|cgroup-shares.sh direct"
	"cgroup-buffered|cgroup-shares.sh buffered --runtime 5"
	"range-bw|range-bw.sh"
	"deep-device|deep-device.sh --runtime 10"
	"deep-tags|deep-device.sh --runtime 40 --tags 2048 --latency-us 400000 --devices 2 --on-slices"
	"latency-change|latency-change.sh --phase 12"
	"device-classes|device-classes.sh"
	"device-classes-slices|device-classes.sh --on-slices"
	"overhead|overhead.sh --runtime 5 --rounds 5"
)
# Pinned to one host CPU (uml-run.sh -p): where the guest's CPU time is
# what is measured.
pinned=" overhead "

if ! git -C "$TOP" diff --quiet HEAD 2>/dev/null; then
	[ "${BENCH_DIRTY:-0}" = 1 ] ||
		die "uncommitted changes: commit them first (or BENCH_DIRTY=1)"
fi
# "commit <short> (clean tree)", or "(with uncommitted changes)"
commit=$(source_state)
commit=${commit#commit }

failed=0
for e in "${experiments[@]}"; do
	name=${e%%|*}
	cmd=${e#*|}
	if [ -n "${BENCH_ONLY:-}" ]; then
		case " $BENCH_ONLY " in *" $name "*) ;; *) continue ;; esac
	fi
	script=${cmd%% *}
	args=${cmd#"$script"}
	[ -x "$TOP/scripts/experiments/$script" ] || { say "skip $name: no $script"; continue; }
	say "$name ($(date +%T))"
	rm -rf "${raw:?}/$name"
	mkdir -p "$raw/$name"
	case " $args " in *" --runtime "* | *" --phase "*) ;; *) args="$args --runtime $rt" ;; esac
	pin=
	case $pinned in *" $name "*) pin=-p ;; esac
	# shellcheck disable=SC2086
	IOBAND_RUN_DIR=$raw/$name/run "$TOP/scripts/uml-run.sh" -k perf -v $pin \
		-m 1536M -t 3600 "$TOP/scripts/experiments/$script" $args \
		--out "$raw/$name" || failed=$((failed + 1))
	{
		echo "Made by \`make bench\` ($name) on $(date -u +%Y-%m-%d) at commit $commit"
		grep -v -E '^(ok|not ok|checks:) ' "$raw/$name/run/output"
	} >"$res/$name.txt"
	cp "$raw/$name"/*.png "$res/" 2>/dev/null
done

# Debian's own kernel with the dm-ioband-dkms package (scripts/dkms/test.sh:
# root, it installs Debian's kernel image and headers; the QEMU guest).
if [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" dkms-debian "* ]]; then
	say "dkms-debian ($(date +%T))"
	"$TOP/scripts/dkms/test.sh" >"$raw/dkms-debian.log" 2>&1 ||
		failed=$((failed + 1))
	{
		echo "Made by \`make bench\` (dkms-debian) on $(date -u +%Y-%m-%d) at commit $commit"
		cat "$BUILD/dkms/test.txt"
	} >"$res/dkms-debian.txt"
fi

{
	echo "# dm-ioband benchmark results"
	echo
	if [ -n "${BENCH_ONLY:-}" ]; then
		echo "Made by \`make bench\` on $(date -u +%Y-%m-%d) at commit $commit for$(printf ' %s' $BENCH_ONLY) (BENCH_ONLY);"
		echo "the other experiments' tables are from an earlier run (\`git log results/\`),"
		echo "${rt} s per run unless the table says otherwise, in UML"
	else
		echo "Made by \`make bench\` on $(date -u +%Y-%m-%d) at commit $commit, ${rt} s per run, in UML"
	fi
	echo "(kernel without debug options) on a $(nproc)-core machine; the disk is a"
	echo "null_blk of fixed capacity (see each table's title).  The seed*"
	echo "experiments reproduce the 2008-2010 reports (the seeds) and print the"
	echo "seed's own figures under their tables; cgroup-*, range-bw and"
	echo "deep-device test what the seeds did not (cgroups, floors and"
	echo "ceilings, a deep device); overhead is the cost per bio against"
	echo "dm-linear.  Each table's first line names the commit it was made at"
	echo "and whether the tree was clean; tables made before 2026-12-03 name"
	echo "the commit only, and came from clean trees (\`make bench\` refuses"
	echo "uncommitted changes unless BENCH_DIRTY=1, and then says so)."
	for e in "${experiments[@]}"; do
		name=${e%%|*}
		[ -f "$res/$name.txt" ] || continue
		echo
		echo "## $name"
		echo
		echo '```'
		cat "$res/$name.txt"
		echo '```'
		for p in "$res/$name"*.png; do
			[ -f "$p" ] && echo && echo "![$(basename "$p" .png)]($(basename "$p"))"
		done
	done
	if [ -f "$res/dkms-debian.txt" ]; then
		echo
		echo "## dkms-debian"
		echo
		echo "The dm-ioband-dkms package on Debian's own kernel (\`make dkms-check\`)."
		echo
		echo '```'
		cat "$res/dkms-debian.txt"
		echo '```'
	fi
} >"$res/README.md"
say "results in $res/README.md ($failed experiment(s) failed)"
# The figures of README.md and Documentation/*.md, from results/.
readme=0
RESULTS=$res "$TOP/scripts/update-readme.sh" || {
	readme=1
	say "update-readme.sh failed: the README's figures are not updated"
}
[ "$failed" = 0 ] && [ "$readme" = 0 ]
