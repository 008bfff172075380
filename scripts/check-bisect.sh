#!/bin/bash
# Every patch on its own builds: apply the series one patch at a time to
# a checkout of "base" and build drivers/md (W=1) after each, for UML,
# with the KUnit configuration (DM, dm-ioband and its tests).  A patch
# that changes only Documentation/ or MAINTAINERS is applied, not built.
# Every patch that changes the policy or its tests also passes the policy's
# KUnit suites, built in user space (kunit/uspace) from that patch's tree.
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

# builds <commit>: does the commit change what the build compiles (not
# only Documentation/ or MAINTAINERS)?  A patch that does not is applied
# and not built: the next build covers it, and the tree it leaves is that
# of the patch before, which built.
builds() {
	local files
	files=$(git -C "$W" diff --name-only "$1^" "$1")
	grep -q -E -v -e '^Documentation/' -e '^MAINTAINERS$' <<<"$files" ||
		grep -q -E '(^|/)Kconfig' <<<"$files"
}

n=0
skipped=0
last=
rm -f "$LOGS"/bisect-*.log
for p in $(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$TOP/series"); do
	n=$((n + 1))
	git -C "$W" am -q "$TOP/patches/$p" || die "patch $n ($p) does not apply"
	if [ "$n" -gt 1 ] && ! builds HEAD; then
		skipped=$((skipped + 1))
		say "patch $n changes no built file: $p"
		continue
	fi
	# The configuration again only when a Kconfig changed since the
	# last build (or at first).
	if [ -z "$last" ] || git -C "$W" diff --name-only "$last" HEAD |
			grep -q -E '(^|/)Kconfig'; then
		cp "$KUNIT_BUILD/.config" "$O/.config"
		make -C "$W" O="$O" ARCH=um SUBARCH=x86_64 olddefconfig >/dev/null
	fi
	if ! make -C "$W" O="$O" ARCH=um SUBARCH=x86_64 CC="ccache gcc" \
			HOSTCC="ccache gcc" -j"$JOBS" W=1 drivers/md/ \
			>"$LOGS/bisect-$n.log" 2>&1 ||
			grep -E 'dm-ioband|dm\.c' "$LOGS/bisect-$n.log" |
			grep -q -E 'warning:|error:'; then
		grep -E 'warning:|error:' "$LOGS/bisect-$n.log" | head -20 >&2
		die "patch $n ($p) does not build cleanly on its own"
	fi
	last=$(git -C "$W" rev-parse HEAD)
	say "patch $n builds: $p"
	if git -C "$W" diff --name-only HEAD^ HEAD |
			grep -q -E 'drivers/md/(dm-ioband-(wfq|limits|estimate|policy)|tests/dm-ioband-(sim|wfq|limits|estimate))'; then
		make -s -C "$TOP/kunit/uspace" MD="$W/drivers/md" TOOLS="$W/tools" \
			OUT="$BUILD/bisect-uspace" >"$LOGS/bisect-$n-kunit.log" 2>&1 ||
			{ tail -20 "$LOGS/bisect-$n-kunit.log" >&2
			  die "patch $n ($p): the policy's KUnit suites fail"; }
		say "patch $n: policy KUnit $(tail -1 "$LOGS/bisect-$n-kunit.log")"
		rm -rf "$BUILD/bisect-uspace"
	fi
done
say "$n patches applied one by one, $((n - skipped)) built ($skipped change no built file)"
