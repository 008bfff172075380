#!/bin/bash
# qemu-time-limit: 1500
# On Debian's own kernel (linux-image-6.12.117+deb12-amd64), booted by
# scripts/dkms/test.sh with its modules tree as the dm-ioband-dkms package
# left it: dm-mod and dm-ioband are DKMS's (updates/dkms); seed test #1 on
# /dev/sdb5-7 and the module's life cycle (seed000.sh, which ends by
# unloading dm_ioband and dm_mod), the SMP stress run (smp-stress.sh),
# then modprobe once more, Debian's own dm targets loaded on DKMS's
# dm-mod, and rmmod.  A kernel report fails the run
# (scripts/qemu/run.sh).
. "$(dirname "$0")/../../lib/guest.sh"
D=$(dirname "$0")
plan 10
krel=$(uname -r)
log "# kernel $krel, $(nproc) CPUs"
check "the kernel is Debian's 6.12.117 ($krel)" \
	sh -c "echo '$krel' | grep -q '^6\.12\.117+deb12-'"
check "modprobe finds DKMS's dm_mod ($(modinfo -n dm_mod))" \
	sh -c "modinfo -n dm_mod | grep -q '/updates/dkms/dm-mod\.ko'"
check "and DKMS's dm_ioband ($(modinfo -n dm_ioband))" \
	sh -c "modinfo -n dm_ioband | grep -q '/updates/dkms/dm-ioband\.ko'"
check "seed test #1 on sdb5-7 and the module's life (seed000.sh)" bash "$D/seed000.sh"
check "the SMP stress run (smp-stress.sh)" bash "$D/smp-stress.sh"
check "modprobe dm-ioband again" modprobe dm-ioband
check "dm_mod loaded is version $(cat /sys/module/dm_mod/version 2>/dev/null)" \
	sh -c "grep -q -- '-ioband$' /sys/module/dm_mod/version"
# Debian's own targets, built against its dm-mod, load on ours: the same
# symbol versions (CRCs) for every export they import.
check "Debian's dm-crypt, dm-snapshot and dm-thin-pool load on it" \
	modprobe -a dm-crypt dm-snapshot dm-thin-pool
check "no symbol version disagrees" \
	sh -c "! dmesg | grep -q 'disagrees about version of symbol'"
rmmod dm_thin_pool dm_snapshot dm_crypt 2>/dev/null
rmmod dm_persistent_data dm_bio_prison dm_bufio 2>/dev/null
check "rmmod dm_ioband dm_mod" rmmod dm_ioband dm_mod
finish
