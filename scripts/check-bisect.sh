#!/bin/bash
# Every patch on its own builds: apply the series one patch at a time to
# a checkout of "base" and build drivers/md (W=1) after each, for UML,
# with the KUnit configuration (DM, dm-ioband and its tests).
set -eu
. "$(dirname "$0")/lib/common.sh"

"$TOP/scripts/prepare-tree.sh"
[ -f "$KUNIT_BUILD/.config" ] || die "run scripts/kunit.sh first (its .config)"
W=$BUILD/bisect-src
O=$BUILD/bisect-out
git -C "$TREE" worktree remove -f "$W" >/dev/null 2>&1 || rm -rf "$W"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$W" base
trap 'git -C "$TREE" worktree remove -f "$W" >/dev/null 2>&1 || true' EXIT
mkdir -p "$O"

n=0
for p in $(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$TOP/series"); do
	n=$((n + 1))
	git -C "$W" am -q "$TOP/patches/$p" || die "patch $n ($p) does not apply"
	cp "$KUNIT_BUILD/.config" "$O/.config"
	make -C "$W" O="$O" ARCH=um SUBARCH=x86_64 olddefconfig >/dev/null
	if ! make -C "$W" O="$O" ARCH=um SUBARCH=x86_64 CC="ccache gcc" \
			HOSTCC="ccache gcc" -j"$JOBS" W=1 drivers/md/ \
			>"$LOGS/bisect-$n.log" 2>&1 ||
			grep -E 'dm-ioband|dm\.c' "$LOGS/bisect-$n.log" |
			grep -q -E 'warning:|error:'; then
		grep -E 'warning:|error:' "$LOGS/bisect-$n.log" | head -20 >&2
		die "patch $n ($p) does not build cleanly on its own"
	fi
	say "patch $n builds: $p"
done
