#!/bin/busybox sh
# /init of the QEMU guest (busybox sh, pid 1), put into the initramfs by
# scripts/qemu/run.sh: mount the usual file systems, scan the SCSI targets
# in order (the kernel boots with scsi_mod.scan=manual, so the small disk
# is sda and the data disk sdb), run the test named in /ioband/test with
# the arguments in /ioband/args, its output on ttyS1, then print its exit
# status as a marker line on both serial ports and power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LC_ALL=C DM_DISABLE_UDEV=1 IOBAND_GUEST=1 IOBAND_QEMU=1
/bin/busybox --install -s /bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /dev/mapper /run/lock /tmp /var/tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t configfs configfs /sys/kernel/config
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
[ -f /ioband/env ] && . /ioband/env

out=/dev/ttyS1
[ -c $out ] || out=/dev/console
echo "=== guest: up after $(cut -d' ' -f1 /proc/uptime)s, $(nproc) CPUs" >/dev/console

# A distribution kernel (run.sh -k/-M) may have these as modules.
for m in virtio_pci virtio_scsi sd_mod; do modprobe -q $m 2>/dev/null; done
# Disks in target order: sda (scsi-id 0), sdb (scsi-id 1).
# sd probes asynchronously: wait for each disk before scanning the next.
letter=a
for h in /sys/class/scsi_host/host*; do
	for id in 0 1 2 3; do
		echo "0 $id 0" >"$h/scan" 2>/dev/null || continue
		[ -e "$h/device/target${h##*host}:0:$id" ] || continue
		n=0
		while [ ! -b /dev/sd$letter ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
		letter=$(echo $letter | tr a-y b-z)
	done
done

set --
if [ -f /ioband/args ]; then
	while IFS= read -r a; do set -- "$@" "$a"; done </ioband/args
fi
test=$(cat /ioband/test)
echo "=== guest: running $test $*" >/dev/console
cd /tmp || exit 1
t0=$(cut -d' ' -f1 /proc/uptime)
bash "$test" "$@" >$out 2>&1 </dev/null
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
sleep 0.2
echo "=== guest: test took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')s" >/dev/console
echo "@@IOBAND-STATUS $rc@@" >$out
echo "@@IOBAND-STATUS $rc@@" >/dev/console
sync
poweroff -f
reboot -f
sleep 30
