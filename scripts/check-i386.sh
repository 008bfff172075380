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
mkdir -p "$O"
if [ ! -f "$O/.config" ] || [ "$frag" -nt "$O/.config" ]; then
	kmake tinyconfig >/dev/null
	(cd "$TREE" && scripts/kconfig/merge_config.sh -m -O "$O" \
		"$O/.config" "$frag") >/dev/null
	kmake olddefconfig >/dev/null
	grep -v '^#' "$frag" | grep . | while read -r l; do
		grep -qx "$l" "$O/.config" || die "i386: $l did not stick"
	done
fi
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
nocg=$TOP/scripts/configs/i386-nocg.config
mkdir -p "$O"
if [ ! -f "$O/.config" ] || [ "$frag" -nt "$O/.config" ] ||
	[ "$nocg" -nt "$O/.config" ]; then
	kmake tinyconfig >/dev/null
	(cd "$TREE" && scripts/kconfig/merge_config.sh -m -O "$O" \
		"$O/.config" "$frag" "$nocg") >/dev/null
	kmake olddefconfig >/dev/null
fi
grep -qx 'CONFIG_DM_IOBAND=m' "$O/.config" || die "i386-nocg: no CONFIG_DM_IOBAND=m"
! grep -q '^CONFIG_BLK_CGROUP=y' "$O/.config" ||
	die "i386-nocg: CONFIG_BLK_CGROUP is still set"
log=$O/build.log
kmake W=1 drivers/md/ 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || die "i386-nocg: make failed (exit $rc)"
[ -f "$O/drivers/md/dm-ioband.o" ] || die "i386-nocg: dm-ioband.o was not built"
! grep -E '(dm-ioband|md/dm\.[ch]).*(warning|error):' "$log" || exit 1
