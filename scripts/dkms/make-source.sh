#!/bin/bash
# Assemble the DKMS source tree of dm-ioband (scripts/dkms/Kbuild) from
# the kernel branch: build/dkms/dm-ioband-<version>/ with the dm core and
# dm-ioband sources of the series, the headers it adds or changes under
# include/, a Makefile to build by hand and dkms.conf.
#
#   scripts/dkms/make-source.sh [TREE]   TREE: build/linux by default
#
# Prints the directory it made.  The version is the target's
# (.version in dm-ioband-target.c); the kernels DKMS builds for are those
# of the release the tree is (its Makefile's version, Debian's ABI name).
set -eu
. "$(dirname "$0")/../lib/common.sh"

tree=${1:-$TREE}
[ -f "$tree/drivers/md/dm-ioband-target.c" ] ||
	die "$tree has no dm-ioband: run make tree"
ver=$(sed -n 's/^\t\.version = {\([0-9]*\), \([0-9]*\), \([0-9]*\)},/\1.\2.\3/p' \
	"$tree/drivers/md/dm-ioband-target.c")
[ -n "$ver" ] || die "no .version in dm-ioband-target.c"
kver=$(make -s -C "$tree" kernelversion)
out=$BUILD/dkms/dm-ioband-$ver
rm -rf "$out"
mkdir -p "$out/include/linux" "$out/include/trace/events"

# dm-mod: drivers/md/Makefile's objects and the headers they include
dm_mod="dm dm-table dm-target dm-linear dm-stripe dm-ioctl dm-io dm-kcopyd
dm-sysfs dm-stats dm-rq dm-io-rewind dm-uevent dm-zone dm-ima dm-audit"
for f in $dm_mod; do
	cp "$tree/drivers/md/$f.c" "$out/"
done
for f in dm-core dm dm-rq dm-stats dm-uevent dm-ima dm-audit; do
	cp "$tree/drivers/md/$f.h" "$out/"
done
cp "$tree"/drivers/md/dm-ioband*.[ch] "$out/"
cp "$tree/include/linux/device-mapper.h" "$tree/include/linux/blk-cgroup-policy.h" \
	"$out/include/linux/"
cp "$tree/include/trace/events/dm_ioband.h" "$out/include/trace/events/"
cp "$TOP/scripts/dkms/Kbuild" "$TOP/scripts/dkms/Makefile" "$out/"
# Every quoted include must be here: a missing one would be taken from
# nowhere (drivers/ is in no headers package).
missing=$(cd "$out" && grep -ho '#include "[^"]*"' ./*.c ./*.h |
	sed 's/.*"\(.*\)"/\1/' | sort -u | while read -r h; do
		[ -f "$h" ] || echo "$h"
	done)
[ -z "$missing" ] || die "headers missing from the DKMS tree: $missing"
# Debian names its 6.12.117 kernels 6.12.117+deb12-<flavour>
kregex="^${kver//./\\.}\\+deb[0-9]+-"
sed "s/@VERSION@/$ver/" "$TOP/scripts/dkms/dm-mod-version.c.in" \
	>"$out/dm-mod-version.c"
conf=$(cat "$TOP/scripts/dkms/dkms.conf.in")
conf=${conf//@VERSION@/$ver}
conf=${conf//@KSERIES@/$kver}
conf=${conf//@KREGEX@/$kregex}
printf '%s\n' "$conf" >"$out/dkms.conf"
echo "$out"
