#!/bin/bash
# Boot the x86-64 guest kernel under QEMU (TCG, SMP) with an initramfs,
# run one test script inside it and bring back its output and exit status.
#
#   scripts/qemu/run.sh [options] TEST [ARGS...]
#
#   -f FLAVOUR   kernel build/qemu-FLAVOUR (lockdep, kasan, kcsan; default
#                lockdep); built with scripts/qemu/build.sh if missing
#   -k BZIMAGE   boot this kernel instead; -M MODDIR: its modules tree
#                (a directory with lib/modules/<release>, as made by
#                "make modules_install INSTALL_MOD_PATH=MODDIR")
#   -s CPUS      virtual CPUs (default 2; 4 works, on 2 host cores)
#   -m MEM       guest memory (default 2G)
#   -t SECONDS   wall-clock limit; the guest is killed after it (default: the
#                test's "# qemu-time-limit: N" line, else 900)
#   -i IOPS      QEMU throttling.iops-total of the data disk (default 150;
#                0: no throttling)
#   -d IMAGE     the data disk, /dev/sdb in the guest (default
#                build/qemu-disk.img, created if missing: 1 GiB written
#                whole (not sparse), sdb1 and an extended partition with
#                sdb5, sdb6, sdb7 of 320 MiB).
#                The test may WRITE anywhere on it: never give a disk whose
#                data you want to keep.
#   -e VAR=val   put VAR in the test's environment (repeatable)
#   -a ARGS      more kernel command-line arguments
#   -v           show the test's output and the console while it runs
#
# A test with a "# qemu-userland: e2e" line gets the host's tools and
# python3 too (see make_e2e below).  When the test's output has a section
# from a line "=== ... summary" on (scripts/qemu/tests/e2e.sh: one line
# per end-to-end test), it is printed here at the end, pass or fail.
#
# The output is kept in build/qemu-runs/<flavour>/<test>/: output (the
# test's stdout and stderr, from the guest's second serial port),
# console.log (the kernel console), status, kernel-reports.  The run fails
# when the test exits non-zero, when no status came back (crash, panic,
# timeout), or when the console has any kernel report: WARNING, BUG,
# KASAN, KCSAN, lockdep, hung task, Oops, panic.  The kernel boots with
# panic_on_warn=1 panic=-1 oops=panic (and kasan.fault=panic), so the
# first report also ends the run.
set -u
. "$(dirname "$0")/../lib/common.sh"

flavour=lockdep
kernel=
moddir=
smp=2
mem=2G
timeout_s=
iops=150
disk=$BUILD/qemu-disk.img
verbose=0
envs=()
append=
while getopts f:k:M:s:m:t:i:d:e:a:v o; do
	case $o in
	f) flavour=$OPTARG ;;
	k) kernel=$(realpath "$OPTARG") ;;
	M) moddir=$(realpath "$OPTARG") ;;
	s) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	i) iops=$OPTARG ;;
	d) disk=$(realpath -m "$OPTARG") ;;
	e) envs+=("$OPTARG") ;;
	a) append="$append $OPTARG" ;;
	v) verbose=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: run.sh [-f flavour] [-s cpus] [-i iops] [-t s] [-d img] [-e V=x] [-v] TEST [ARGS]"
test_path=$(realpath "$1")
shift
[ -f "$test_path" ] || die "no test $test_path"
[ -n "$timeout_s" ] ||
	timeout_s=$(sed -n 's/^# qemu-time-limit: \([0-9][0-9]*\)$/\1/p' "$test_path" | head -1)
timeout_s=${timeout_s:-900}
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run scripts/deps.sh"
command -v cpio >/dev/null || die "cpio missing: run scripts/deps.sh"

kbuild=$BUILD/qemu-$flavour
if [ -n "$kernel" ] && [ -z "$moddir" ]; then
	say "WARNING: -k without -M: no modules in the guest (the kernel needs dm-ioband built in)"
fi
[ -n "$kernel" ] && flavour=custom
if [ -z "$kernel" ]; then
	kernel=$kbuild/arch/x86/boot/bzImage
	[ -f "$kernel" ] || "$TOP/scripts/qemu/build.sh" "$flavour" || exit 1
fi
[ -f "$kernel" ] || die "no kernel $kernel"

name=$(basename "$test_path" .sh)
out=$(realpath -m "${IOBAND_RUN_DIR:-$BUILD/qemu-runs/$flavour/$name}")
rm -rf "$out"
mkdir -p "$out"

# --- the initramfs: three or four concatenated cpio archives -------------
# 1. userland (busybox and the host's tools with their libraries), made
#    once; 1b. for the end-to-end tests only, more of the host's userland
#    (below); 2. the modules of the kernel, redone when the kernel changed;
# 3. this run: the repository's scripts/ and fio-jobs/ (at the same
#    absolute path as on the host), the test, its arguments and environment.
tools="/usr/bin/bash /usr/bin/fio /usr/sbin/dmsetup /usr/sbin/sfdisk
/usr/bin/kmod /usr/sbin/blockdev /usr/sbin/mke2fs"
base_cpio=$BUILD/qemu-initramfs/base.cpio
# copy_bin <staging dir> <binary>: the binary at the same path, with the
# libraries ldd lists.
copy_bin() {
	local st=$1 f=$2 l
	mkdir -p "$st$(dirname "$f")"
	cp -L "$f" "$st$f" || return 1
	for l in $(ldd "$f" | grep -o '/[^ ]*'); do
		[ -e "$st$l" ] && continue
		mkdir -p "$st$(dirname "$l")"
		cp -L "$l" "$st$l" || return 1
	done
}
make_base() {
	local st=$BUILD/qemu-initramfs/base f l
	rm -rf "$st"
	mkdir -p "$st"/{bin,sbin,usr/bin,usr/sbin,usr/lib,usr/lib64,etc,root,proc,sys,dev,tmp,run,ioband}
	ln -s usr/lib "$st/lib"
	ln -s usr/lib64 "$st/lib64"
	cp /bin/busybox "$st/bin/busybox" || return 1
	ln -s busybox "$st/bin/sh"
	file "$st/bin/busybox" 2>/dev/null | grep -q 'dynamically' &&
		{ say "busybox is not static: apt-get install busybox-static"; return 1; }
	for f in $tools; do
		copy_bin "$st" "$f" || return 1
	done
	for l in modprobe rmmod lsmod insmod depmod modinfo; do
		ln -s ../bin/kmod "$st/usr/sbin/$l"
	done
	ln -s mke2fs "$st/usr/sbin/mkfs.ext4"
	ln -s mke2fs "$st/usr/sbin/mkfs.ext2"
	echo 'root:x:0:0:root:/root:/bin/sh' >"$st/etc/passwd"
	echo 'root:x:0:' >"$st/etc/group"
	: >"$st/etc/mtab"
	cp "$TOP/scripts/qemu/init.sh" "$st/init"
	chmod 755 "$st/init"
	(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$base_cpio.tmp" &&
		mv "$base_cpio.tmp" "$base_cpio"
}
if [ ! -f "$base_cpio" ] || [ "$TOP/scripts/qemu/init.sh" -nt "$base_cpio" ] ||
		[ "$0" -nt "$base_cpio" ]; then
	say "making the initramfs userland ($base_cpio)"
	mkdir -p "$BUILD/qemu-initramfs"
	make_base || die "cannot make the initramfs userland"
fi

# 1b. The end-to-end userland, for a test with a "# qemu-userland: e2e"
#    line (scripts/qemu/tests/e2e.sh): the UML end-to-end tests run with
#    the host's userland, so they get the host's tools here too, in
#    /usr/bin and /usr/sbin ahead of busybox's /bin in PATH: coreutils,
#    grep, sed, awk (mawk), dash as sh, cmp, util-linux's setpriv,
#    setsid, unshare, nsenter, losetup, fallocate, mkswap, swapon,
#    mount..., blktrace and blkparse, perf if the host has it (Debian's
#    linux-perf: real-disk.sh --profile), and python3 with its standard
#    library (without its tests, tkinter, idle, lib2to3, distutils and
#    the build configuration).  Made once, in
#    build/qemu-initramfs/e2e.cpio.
e2e_tools="$(dpkg -L coreutils 2>/dev/null | grep -E '^/(usr/)?s?bin/[^/]+$' |
	sed 's|^/bin/|/usr/bin/|; s|^/sbin/|/usr/sbin/|' | tr '\n' ' ')
/usr/bin/grep /usr/bin/sed /usr/bin/mawk /usr/bin/dash /usr/bin/cmp
/usr/bin/setpriv /usr/bin/setsid /usr/bin/unshare /usr/bin/nsenter
/usr/sbin/losetup /usr/bin/fallocate
/usr/sbin/mkswap /usr/sbin/swapon /usr/sbin/swapoff /usr/bin/mount
/usr/bin/umount /usr/bin/mountpoint /usr/bin/dmesg /usr/bin/findmnt
/usr/sbin/blkid /usr/sbin/blktrace /usr/bin/blkparse /usr/bin/python3.11
$([ -x /usr/bin/perf ] && echo /usr/bin/perf)"
e2e_cpio=$BUILD/qemu-initramfs/e2e.cpio
make_e2e() {
	local st=$BUILD/qemu-initramfs/e2e f py=/usr/lib/python3.11
	rm -rf "$st"
	mkdir -p "$st/usr/bin" "$st/usr/sbin" "$st/usr/lib" "$st/usr/lib64"
	# As in the userland archive (and in the archive, left out: they
	# are there already), so the libraries go to usr/lib.
	ln -s usr/lib "$st/lib"
	ln -s usr/lib64 "$st/lib64"
	for f in $e2e_tools; do
		[ -L "$f" ] && f=$(realpath "$f")
		copy_bin "$st" "$f" || return 1
	done
	ln -s mawk "$st/usr/bin/awk"
	ln -s dash "$st/usr/bin/sh"
	ln -s python3.11 "$st/usr/bin/python3"
	[ -f "$py/os.py" ] || { say "no $py: apt-get install python3"; return 1; }
	tar -C / --exclude="${py#/}/config-*" --exclude="${py#/}/test" \
		--exclude="${py#/}/tkinter" --exclude="${py#/}/idlelib" \
		--exclude="${py#/}/lib2to3" --exclude="${py#/}/distutils" \
		--exclude="${py#/}/ensurepip" --exclude="${py#/}/turtledemo" \
		--exclude="${py#/}/pydoc_data" --exclude="${py#/}/site-packages" \
		--exclude="${py#/}/dist-packages" --exclude="${py#/}/lib-dynload/_test*" \
		-cf - "${py#/}" | tar -C "$st" -xf - || return 1
	(cd "$st" && find usr | LC_ALL=C sort | cpio -o -H newc --quiet) >"$e2e_cpio.tmp" &&
		mv "$e2e_cpio.tmp" "$e2e_cpio"
}
extra_cpio=
if grep -q '^# qemu-userland: e2e$' "$test_path"; then
	if [ ! -f "$e2e_cpio" ] || [ "$0" -nt "$e2e_cpio" ]; then
		say "making the end-to-end userland ($e2e_cpio)"
		make_e2e || die "cannot make the end-to-end userland"
	fi
	extra_cpio=$e2e_cpio
fi

mod_cpio=$BUILD/qemu-initramfs/modules-$flavour.cpio
if [ "$flavour" = custom ] && [ -z "$moddir" ]; then
	mod_cpio=/dev/null
elif [ -n "$moddir" ]; then
	# lib/modules/<release> of MODDIR, put under usr/lib (the
	# initramfs's /lib is a link to usr/lib).
	mod_cpio=$out/modules.cpio
	[ -d "$moddir/lib/modules" ] || die "no lib/modules in $moddir"
	mkdir -p "$out/modroot/usr"
	cp -a "$moddir/lib" "$out/modroot/usr/lib"
	(cd "$out/modroot" && find usr | LC_ALL=C sort | cpio -o -H newc --quiet) >"$mod_cpio"
	rm -rf "$out/modroot"
elif [ ! -f "$mod_cpio" ] || [ "$kernel" -nt "$mod_cpio" ] ||
		[ -n "$(find "$kbuild" -name '*.ko' -newer "$mod_cpio" -print -quit)" ]; then
	say "installing the $flavour modules into the initramfs"
	st=$BUILD/qemu-initramfs/modules-$flavour
	rm -rf "$st"
	mkdir -p "$st"
	nice -n 19 make -s -C "$kbuild" modules_install INSTALL_MOD_PATH="$st" \
		INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod >"$out/modules_install.log" 2>&1 ||
		{ cat "$out/modules_install.log"; die "modules_install failed"; }
	krel=$(cat "$kbuild/include/config/kernel.release")
	/sbin/depmod -b "$st" "$krel" || die "depmod failed"
	# modules_install puts them in lib/modules; /lib is a link to usr/lib
	# in the initramfs.
	mkdir -p "$st/usr"
	mv "$st/lib" "$st/usr/lib"
	(cd "$st" && find usr | LC_ALL=C sort | cpio -o -H newc --quiet) >"$mod_cpio"
fi

run_st=$out/initramfs
mkdir -p "$run_st/ioband" "$run_st$TOP"
cp -r "$TOP/scripts" "$TOP/fio-jobs" "$run_st$TOP/"
# The ioctl stress helper of the stress tests (no compiler in the guest).
mkdir -p "$run_st/usr/bin"
gcc -O2 -static -o "$run_st/usr/bin/iobstress" \
	"$TOP/scripts/qemu/tools/iobstress.c" || die "cannot build iobstress"
# The test may live outside the repository.
mkdir -p "$run_st$(dirname "$test_path")"
cp "$test_path" "$run_st$test_path"
echo "$test_path" >"$run_st/ioband/test"
: >"$run_st/ioband/args"
[ $# -gt 0 ] && printf '%s\n' "$@" >"$run_st/ioband/args"
{
	echo "export IOBAND_TOP='$TOP' IOBAND_FLAVOUR='$flavour' IOBAND_IOPS='$iops'"
	for e in "${envs[@]}"; do
		printf 'export %q\n' "$e"
	done
} >"$run_st/ioband/env"
(cd "$run_st" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out/run.cpio"
cat "$base_cpio" "$mod_cpio" $extra_cpio "$out/run.cpio" >"$out/initramfs.cpio"
rm -rf "$run_st" "$out/run.cpio"

# --- the disks -------------------------------------------------------------
sda=${QEMU_SDA:-$BUILD/qemu-sda.img}
[ -f "$sda" ] || truncate -s 16M "$sda"
# The default disk is written whole, not sparse: reads of a hole in a file
# never reach the host's storage (the file system returns zeros), and the
# unthrottled disk (-i 0) must give real storage's latency.  An older,
# sparse one is made again.
if [ "$disk" = "$BUILD/qemu-disk.img" ] && [ -f "$disk" ] &&
	[ $(($(stat -c '%b * %B' "$disk"))) -lt $(($(stat -c %s "$disk") * 9 / 10)) ]; then
	say "$disk is sparse: making it again"
	rm -f "$disk"
fi
if [ ! -e "$disk" ]; then
	say "creating $disk: 1 GiB written whole, sdb1, sdb2 extended with sdb5-7"
	dd if=/dev/zero of="$disk" bs=1M count=1040 conv=fsync status=none &&
		printf 'label: dos\nsize=16M, type=83\ntype=5\nsize=320M, type=83\nsize=320M, type=83\nsize=320M, type=83\n' |
		sfdisk -q "$disk" || die "cannot partition $disk"
fi
throttle=
[ "$iops" != 0 ] && throttle=,throttling.iops-total=$iops

# KCSAN panics on its first report with panic_on_warn, and the rest of the
# kernel has known races: in that flavour a report fails the run only if
# it names device-mapper code (see below), and the kernel keeps going.
pow=panic_on_warn=1
[ "$flavour" = kcsan ] && pow=
cmdline="console=ttyS0 $pow panic=-1 oops=panic scsi_mod.scan=manual"
cmdline="$cmdline loglevel=6 printk.time=1 hung_task_panic=1 softlockup_panic=1"
[ "$flavour" = kasan ] && cmdline="$cmdline kasan.fault=panic"
cmdline="$cmdline$append"

qemu=(qemu-system-x86_64 -accel tcg -cpu max -smp "$smp" -m "$mem"
	-nographic -no-reboot -monitor none
	-kernel "$kernel" -initrd "$out/initramfs.cpio" -append "$cmdline"
	-serial "file:$out/console.raw" -serial "file:$out/output.raw"
	-device virtio-scsi-pci,id=scsi0
	-drive "file=$sda,format=raw,if=none,id=d0,cache=none,aio=threads"
	-device scsi-hd,drive=d0,bus=scsi0.0,scsi-id=0,lun=0
	-drive "file=$disk,format=raw,if=none,id=d1,cache=none,aio=threads$throttle"
	-device scsi-hd,drive=d1,bus=scsi0.0,scsi-id=1,lun=0)
printf '%q ' "${qemu[@]}" >"$out/qemu-cmd"
echo >>"$out/qemu-cmd"

t0=$(date +%s)
timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null >"$out/qemu.log" 2>&1 &
qpid=$!
if [ "$verbose" = 1 ]; then
	touch "$out/console.raw" "$out/output.raw"
	tail -n +1 -q -f --pid=$qpid "$out/output.raw" "$out/console.raw" &
fi
wait $qpid
qrc=$?
wait
t=$(($(date +%s) - t0))
tr -d '\r' <"$out/console.raw" >"$out/console.log"
tr -d '\r' <"$out/output.raw" | grep -v '^@@IOBAND-STATUS' >"$out/output"
status=$(tr -d '\r' <"$out/output.raw" | sed -n 's/^@@IOBAND-STATUS \([0-9]*\)@@$/\1/p' | tail -1)
[ -n "$status" ] && echo "$status" >"$out/status"
rm -f "$out/console.raw" "$out/output.raw" "$out/initramfs.cpio"

# KCSAN reports whose stack frames name no device-mapper function (dm_*,
# ioband*, or a frame in dm_mod or dm_ioband) go to kcsan-other and do not
# fail the run; the others stay in the console.
reports_in=$out/console.log
if grep -q 'BUG: KCSAN' "$out/console.log"; then
	awk -v other="$out/kcsan-other" '
		function flush() { if (nb) { if (rel) printf "%s", blk; else printf "%s", blk >> other }
			nb = 0; blk = ""; rel = 0 }
		/BUG: KCSAN:/ { flush(); nb = 1 }
		nb { blk = blk $0 "\n"
			# Only stack frames count ("func+0x1/0x2 [module]"): other
			# lines of the console (the workqueue name, dm messages
			# printed meanwhile) may be interleaved.
			if ($0 ~ /\+0x[0-9a-f]+\/0x[0-9a-f]+/ &&
			    $0 ~ /[ (]ioband[a-z_]*\+|[ (]dm_[a-z_]+\+|\[dm_mod\]|\[dm_ioband\]/) rel = 1
			if ($0 ~ /=====================/) flush(); next }
		{ print }
		END { flush() }' "$out/console.log" >"$out/console.kcsan-filtered"
	reports_in=$out/console.kcsan-filtered
	[ -s "$out/kcsan-other" ] &&
		say "$(grep -c 'BUG: KCSAN' "$out/kcsan-other") KCSAN report(s) outside device-mapper code: $out/kcsan-other"
fi

rc=0
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "FAIL: $name: guest killed after ${timeout_s}s" >&2
	rc=1
fi
if grep -n -E 'WARNING:|BUG:|KASAN|KCSAN|lockdep|possible (recursive|circular)|Kernel panic|Oops|hung_task|INFO: task|soft lockup|UBSAN' \
		"$reports_in" | grep -v -E 'Kernel command line:|kasan: KernelAddressSanitizer initialized|kcsan: ' \
		>"$out/kernel-reports"; then
	echo "FAIL: $name: kernel reports (full console: $out/console.log):" >&2
	head -20 "$out/kernel-reports" >&2
	rc=1
fi
if [ -z "$status" ]; then
	echo "FAIL: $name: no exit status (guest crashed?), last console lines:" >&2
	tail -15 "$out/console.log" >&2
	rc=1
elif [ "$status" != 0 ]; then
	echo "FAIL: $name: test exited $status" >&2
	rc=1
fi
boot=$(sed -n 's/^=== guest: up after \([0-9.]*\)s.*/\1/p' "$out/console.log" | head -1)
ttest=$(sed -n 's/^=== guest: test took \([0-9.]*\)s/\1/p' "$out/console.log" | head -1)
say "$name ($flavour, -smp $smp, ${iops} IOPS): status ${status:-none}, boot ${boot:-?}s, test ${ttest:-?}s, total ${t}s; output in $out"
[ "$verbose" = 1 ] || [ "$rc" = 0 ] || { echo "--- test output (tail):" >&2; tail -30 "$out/output" >&2; }
# The test's summary (e2e.sh: one line per end-to-end test), pass or fail.
if grep -q '^=== .* summary' "$out/output"; then
	echo "--- summary:"
	sed -n '/^=== .* summary/,$p' "$out/output"
fi
exit $rc
