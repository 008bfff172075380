#!/bin/bash
# Build dm-ioband's objects for 32-bit x86 (i386 tinyconfig plus
# scripts/configs/i386-build.config), with W=1: cgroup ids, sector_t and
# 64-bit divisions behave differently there.  Fails on any warning.
# Then drivers/md without CONFIG_BLK_CGROUP (scripts/configs/
# i386-nocg.config): the stubs in its place must build.
set -eu
. "$(dirname "$0")/lib/common.sh"

O=$BUILD/i386
frag=$TOP/scripts/configs/i386-build.config
kmake() {
	make -C "$TREE" O="$O" ARCH=i386 CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$JOBS" "$@"
}
# configure <fragment>...: tinyconfig with the fragments merged in, in
# $O, unless a .config newer than them is there; what the fragments
# finally say of each option (a later one overrides, as in
# merge_config.sh), set or "is not set", must stick.
configure() {
	local f stale=0
	mkdir -p "$O"
	[ -f "$O/.config" ] || stale=1
	for f in "$@"; do
		[ "$f" -nt "$O/.config" ] && stale=1
	done
	[ "$stale" = 1 ] || return 0
	kmake tinyconfig >/dev/null
	(cd "$TREE" && scripts/kconfig/merge_config.sh -m -O "$O" \
		"$O/.config" "$@") >/dev/null
	kmake olddefconfig >/dev/null
	awk '/^CONFIG_/ { split($0, a, "="); last[a[1]] = $0 }
		/^# CONFIG_.* is not set$/ { last[$2] = $0 }
		END { for (k in last) print last[k] }' "$@" | while read -r l; do
		case $l in
		"# "*) l=${l#\# }; l=${l%% *}
			! grep -q "^$l=" "$O/.config" || die "i386: $l is still set" ;;
		*) grep -qx "$l" "$O/.config" || die "i386: $l did not stick" ;;
		esac
	done
}
configure "$frag"
objs=$(cd "$TREE" && ls drivers/md/dm-ioband*.c drivers/md/tests/dm-ioband*.c |
	sed 's/\.c$/.o/')
log=$O/build.log
# shellcheck disable=SC2086
kmake W=1 $objs 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || die "i386: make failed (exit $rc)"
! grep -E 'warning:|error:' "$log" || exit 1
# A 64-bit division that is not div_u64() and friends becomes a call to
# libgcc's __udivdi3 & co., which the kernel does not have: the module
# would not load.  Objects are not linked here, so look for the calls.
bad=0
for o in $objs; do
	[ -f "$O/$o" ] || die "i386: $o was not built"
	if nm "$O/$o" | grep -E ' U __(u?div|u?mod)di3$'; then
		echo "$o: 64-bit division without div_u64()" >&2
		bad=1
	fi
done
[ "$bad" = 0 ] || exit 1

# Without CONFIG_BLK_CGROUP (and without blktrace): the whole of
# drivers/md as Kbuild builds it there (dm-ioband-blkcg.c left out, the
# stubs of dm-ioband-blkcg.h and dm.c's compiled in their place), with
# W=1; a warning in dm-ioband or dm.c fails.
O=$BUILD/i386-nocg
configure "$frag" "$TOP/scripts/configs/i386-nocg.config"
log=$O/build.log
kmake W=1 drivers/md/ 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || die "i386-nocg: make failed (exit $rc)"
[ -f "$O/drivers/md/dm-ioband.o" ] || die "i386-nocg: dm-ioband.o was not built"
! grep -E '(dm-ioband|md/dm\.[ch]).*(warning|error):' "$log" || exit 1
