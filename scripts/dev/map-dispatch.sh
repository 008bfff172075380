#!/bin/bash
# The measurement behind "ioband_map() dispatches held bios" (see
# Documentation/testing.md, "Per-bio cost"): builds a UML perf kernel
# from the patched tree plus scripts/dev/map-dispatch-knob.diff (a module
# parameter map_dispatch: 0 leaves every held bio to the pool's worker),
# in its own worktree and build directory, and runs
# map-dispatch.guest.sh in it, pinned to one host CPU.  Not a test.
#
#   scripts/dev/map-dispatch.sh [--runtime S] [--rounds N]
# Writes the table to results/map-dispatch.txt.
set -eu
. "$(dirname "$0")/../lib/common.sh"

"$TOP/scripts/prepare-tree.sh"
wt=$BUILD/wt-mapdisp
out=$BUILD/uml-mapdisp
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" HEAD
git -C "$wt" apply "$TOP/scripts/dev/map-dispatch-knob.diff"
mkdir -p "$out" "$LOGS"
k() {
	make -C "$wt" O="$out" ARCH=um SUBARCH=x86_64 CC="ccache gcc" \
		HOSTCC="ccache gcc" -j"$JOBS" "$@"
}
say "building $out/linux"
{
	k defconfig
	(cd "$wt" && ARCH=um SUBARCH=x86_64 scripts/kconfig/merge_config.sh \
		-m -O "$out" "$out/.config" "$TOP/scripts/configs/uml-perf.config")
	k olddefconfig
	k linux
} >"$LOGS/uml-mapdisp-build.log" 2>&1 || die "build failed: $LOGS/uml-mapdisp-build.log"
"$TOP/scripts/uml-run.sh" -k mapdisp -p -v -t 1800 -m 1536M \
	"$TOP/scripts/dev/map-dispatch.guest.sh" "$@"
# results/map-dispatch.txt: the table (Documentation/testing.md shows it)
{
	echo "Made by scripts/dev/map-dispatch.sh on $(date -u +%Y-%m-%d) at commit $(git -C "$TOP" rev-parse --short HEAD)"
	sed -n '/^$/,$p' "$BUILD/runs/map-dispatch.guest/output"
} >"$TOP/results/map-dispatch.txt"
