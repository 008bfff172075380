#!/bin/bash
# init (pid 1) of the UML guest: mount the usual filesystems, run the test
# named by IOBAND_TEST, record its exit status in $IOBAND_OUT/status and
# power off.  Kernel command-line words VAR=val arrive in the environment.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LC_ALL=C DM_DISABLE_UDEV=1 IOBAND_GUEST=1

# A mount that fails stops everything here, before a write to /proc or
# /sys (sysrq, vm and queue settings) could reach the host's files through
# hostfs: init exits, the kernel panics and uml-run.sh reports it.
die() {
	echo "uml-init: $*"
	exit 1
}
mnt() { mount "$@" || die "mount $* failed"; }
mnt -t proc proc /proc
mnt -t sysfs sysfs /sys
# Our own procfs and sysfs, not the host's directories through hostfs.
mountpoint -q /proc && mountpoint -q /sys || die "/proc or /sys is not mounted"
mountpoint -q /dev || mnt -t devtmpfs devtmpfs /dev
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mkdir -p /dev/pts /dev/shm
mnt -t devpts devpts /dev/pts
# Private tmpfs over /run, /tmp and /var/tmp, so that the host's are not
# touched.  The project itself may live under one of them (CI clones
# anywhere): keep it visible through a bind mount.
mkdir -p /dev/ioband-top
mnt --bind "$IOBAND_TOP" /dev/ioband-top
for d in /dev/shm /run /tmp /var/tmp; do
	mnt -t tmpfs tmpfs "$d"
done
if [ ! -d "$IOBAND_TOP/scripts" ]; then
	mkdir -p "$IOBAND_TOP"
	mnt --bind /dev/ioband-top "$IOBAND_TOP"
fi
mnt -t cgroup2 cgroup2 /sys/fs/cgroup
mnt -t configfs configfs /sys/kernel/config
mnt -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /run/lock /dev/mapper

# Tests name their files by absolute path; what fio leaves in its working
# directory (prerun output, verify state) goes to the guest's tmpfs.
[ -d "$IOBAND_TOP/scripts" ] || exit 1
cd /tmp || exit 1
mapfile -t args <"$IOBAND_OUT/args"
echo "=== guest: running $IOBAND_TEST ${args[*]}"
# A pipeline, not a process substitution: tee has written every line
# (the cleanup's included) when we go on.
bash "$IOBAND_TEST" "${args[@]}" 2>&1 | tee "$IOBAND_OUT/output"
rc=${PIPESTATUS[0]}
echo "=== guest: exit status $rc"
echo "$rc" >"$IOBAND_OUT/status"
sync
echo o >/proc/sysrq-trigger
sleep 30
