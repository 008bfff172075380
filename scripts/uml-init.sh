#!/bin/bash
# init (pid 1) of the UML guest: mount the usual filesystems, run the test
# named by IOBAND_TEST, record its exit status in $IOBAND_OUT/status and
# power off.  Kernel command-line words VAR=val arrive in the environment.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LC_ALL=C DM_DISABLE_UDEV=1 IOBAND_GUEST=1

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
# Private tmpfs over /run, /tmp and /var/tmp, so that the host's are not
# touched.  The project itself may live under one of them (CI clones
# anywhere): keep it visible through a bind mount.
mkdir -p /dev/ioband-top
mount --bind "$IOBAND_TOP" /dev/ioband-top
for d in /dev/shm /run /tmp /var/tmp; do
	mount -t tmpfs tmpfs "$d"
done
if [ ! -d "$IOBAND_TOP/scripts" ]; then
	mkdir -p "$IOBAND_TOP"
	mount --bind /dev/ioband-top "$IOBAND_TOP"
fi
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t configfs configfs /sys/kernel/config
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /run/lock /dev/mapper

# Tests name their files by absolute path; what fio leaves in its working
# directory (prerun output, verify state) goes to the guest's tmpfs.
[ -d "$IOBAND_TOP/scripts" ] || exit 1
cd /tmp || exit 1
mapfile -t args <"$IOBAND_OUT/args"
echo "=== guest: running $IOBAND_TEST ${args[*]}"
bash "$IOBAND_TEST" "${args[@]}" > >(tee "$IOBAND_OUT/output") 2>&1
rc=$?
sleep 0.2
echo "=== guest: exit status $rc"
echo "$rc" >"$IOBAND_OUT/status"
sync
echo o >/proc/sysrq-trigger
sleep 30
