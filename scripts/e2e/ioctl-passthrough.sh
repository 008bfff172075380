#!/bin/bash
# SG_IO through a band device: a SCSI read sent as an ioctl goes straight
# to the device's queue, past the weights, floors and ceilings, so dm
# must let only CAP_SYS_RAWIO send it, even when the band device covers
# the whole device below (as it does here).  A scsi_debug disk (built
# into the UML kernel, a module elsewhere) takes SG_IO.
. "$(dirname "$0")/../lib/guest.sh"
plan 5

sdisk() {
	local d
	for d in /sys/block/sd*; do
		[ -e "$d/device/model" ] || continue
		grep -q scsi_debug "$d/device/model" && { echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}
dev=$(sdisk)
loaded=0
if [ -z "$dev" ]; then
	modprobe scsi_debug dev_size_mb=16 && loaded=1
	# The QEMU guest boots with scsi_mod.scan=manual: scan its host.
	for h in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*; do
		[ -e "$h" ] && echo "- - -" >"/sys/class/scsi_host/${h##*/}/scan"
	done
	for _ in $(seq 1 20); do
		dev=$(sdisk) && break
		sleep 0.5
	done
fi
check "a scsi_debug disk (${dev:-none})" test -b "${dev:-/nonexistent}"
[ -b "${dev:-/nonexistent}" ] || { finish; exit 1; }
sz=$(sectors "$dev")
sgio="$GTOP/scripts/lib/sgio.py"
check "SG_IO reads the disk itself" python3 "$sgio" "$dev"
check "create a band device over the whole disk, capped at 10 IOPS" \
	dm_create ioband1 "0 $sz ioband $dev 1 0 0 none weight 0 :100,max=10iops"
out=$(setpriv --bounding-set=-sys_rawio python3 "$sgio" /dev/mapper/ioband1)
rc=$?
log "without CAP_SYS_RAWIO: $out (exit $rc)"
check "SG_IO through the band device is refused without CAP_SYS_RAWIO" \
	test "$rc" = 2
check "SG_IO through the band device works with CAP_SYS_RAWIO" \
	python3 "$sgio" /dev/mapper/ioband1
# A module loaded here goes again (the QEMU guest checks what is left).
if [ "$loaded" = 1 ]; then
	$DMSETUP remove --retry ioband1 >/dev/null 2>&1
	rmmod scsi_debug
fi
finish
