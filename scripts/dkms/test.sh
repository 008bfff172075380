#!/bin/bash
# Issue 28's test, on this machine (root, Debian 12), as an administrator
# would do it: Debian's kernel and its headers from the archive, the
# dm-ioband-dkms .deb made and installed (DKMS builds dm-mod and
# dm-ioband for that kernel), the modules checked against the kernel
# (vermagic, updates/dkms ahead of the kernel's dm-mod, the initramfs),
# Debian's kernel image booted in the QEMU guest with that modules tree
# (scripts/qemu/tests/debian.sh: seed test #1 on sdb5-7, the SMP stress
# run, rmmod and modprobe), then the package removed and the kernel's own
# dm-mod back.  Not in make check: it installs a kernel image and takes
# about 15 minutes (make dkms-check; make bench runs it too).
#
#   scripts/dkms/test.sh [--keep]   --keep leaves the package installed
#
# Writes build/dkms/test.txt (the checks and figures; make bench copies it
# to results/dkms-debian.txt) and build/dkms/test.log (the commands'
# output), and prints "N passed, M failed".
set -u
. "$(dirname "$0")/../lib/common.sh"
keep=0
[ "${1:-}" = --keep ] && keep=1
[ "$(id -u)" = 0 ] || die "run as root: it installs packages"
K=${DKMS_KERNEL:-$KSRC_VERSION+deb12-amd64}
pass=0 fail=0
out=$BUILD/dkms/test.txt
log=$BUILD/dkms/test.log
mkdir -p "$BUILD/dkms"
: >"$out"
: >"$log"
note() { echo "$*" | tee -a "$out"; }
# ok <what> <command...>: a check; the command's output goes to test.log
ok() {
	local what=$1
	shift
	echo "== $what" >>"$log"
	if "$@" >>"$log" 2>&1; then
		note "ok - $what"
		pass=$((pass + 1))
	else
		note "not ok - $what"
		fail=$((fail + 1))
	fi
}

note "# dm-ioband-dkms on Debian's $K ($(date -u +%F), $(source_state))"
if ! dpkg -s "linux-headers-$K" dkms >/dev/null 2>&1; then
	say "apt-get install dkms linux-headers-$K (and its linux-image-$K)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends dkms "linux-headers-$K" >"$BUILD/dkms/apt.log" 2>&1 ||
		die "cannot install dkms and linux-headers-$K (see $BUILD/dkms/apt.log)"
fi
ok "Debian's kernel image is installed (/boot/vmlinuz-$K)" test -f "/boot/vmlinuz-$K"

deb=$("$TOP/scripts/dkms/make-deb.sh") || die "cannot make the .deb"
note "# $(basename "$deb"): its files"
dpkg-deb -c "$deb" | awk '{ print "#   " $6 }' | tee -a "$out"
dpkg -r dm-ioband-dkms >/dev/null 2>&1
ok "dpkg -i $(basename "$deb") (DKMS builds and installs for $K)" \
	dpkg -i "$deb"
ok "dkms status: installed for $K" \
	sh -c "dkms status -m dm-ioband | grep '$K' | grep -q ': installed$'"
for m in dm_mod dm_ioband; do
	f=$(modinfo -k "$K" -n $m 2>/dev/null)
	ok "modprobe's $m for $K is DKMS's ($f)" \
		sh -c "echo '$f' | grep -q '/updates/dkms/'"
done
stock=$(modinfo -F vermagic "/lib/modules/$K/kernel/drivers/md/dm-mod.ko.xz")
for m in dm_mod dm_ioband; do
	v=$(modinfo -k "$K" -F vermagic $m)
	note "# vermagic of $m: $v (the kernel's dm-mod: $stock)"
	ok "$m's vermagic is the kernel's" test "$v" = "$stock"
done
ok "the initramfs of $K has DKMS's dm-mod" \
	sh -c "lsinitramfs /boot/initrd.img-$K | grep -q 'updates/dkms/dm-mod.ko'"

# The guest: Debian's kernel and its modules tree as the package left it
guest=$BUILD/dkms/guest
rm -rf "$guest"
mkdir -p "$guest/lib/modules"
cp -a "/lib/modules/$K" "$guest/lib/modules/"
rm -f "$guest/lib/modules/$K/build" "$guest/lib/modules/$K/source"
ok "Debian's kernel in the QEMU guest: seed test #1, SMP stress, rmmod and modprobe (scripts/qemu/tests/debian.sh)" \
	"$TOP/scripts/qemu/run.sh" -k "/boot/vmlinuz-$K" -M "$guest" \
	"$TOP/scripts/qemu/tests/debian.sh"
r=$BUILD/qemu-runs/custom/debian
grep -E '^(ok|not ok) |^# |passed|%' "$r/output" | sed 's/^/#   guest: /' >>"$out"
rm -rf "$guest"

if [ "$keep" = 0 ]; then
	ok "dpkg -r dm-ioband-dkms" dpkg -r dm-ioband-dkms
	f=$(modinfo -k "$K" -n dm_mod 2>/dev/null)
	ok "the kernel's own dm-mod is back ($f)" \
		sh -c "echo '$f' | grep -q '/kernel/drivers/md/'"
	ok "and in the initramfs, DKMS's gone" \
		sh -c "! lsinitramfs /boot/initrd.img-$K | grep -q 'updates/dkms/dm-mod'"
fi
note "$pass passed, $fail failed"
[ "$fail" = 0 ]
