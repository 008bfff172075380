#!/bin/bash
# Seed 001: weights 80/20 on two partitions, each used by one "virtual
# machine": one submitting thread, limited queue depth.  dm-ioband 1.x
# gave 60.2/39.8 through KVM against 80.6/19.4 run locally.  The disk
# serves one request at a time (a disk where a busy job can starve a
# low-depth one; on a disk with spare tags both would get all they ask).
#
#   seed001-vm.sh [--iodepth N] [common options, see lib.sh]
#
# Compared: no controller; dm-ioband (80/20 band devices); iocost and BFQ
# on the disk below (each VM in a cgroup, io.weight / io.bfq.weight
# 800/200).  --assert (1 check): dm-ioband within 2 points of 80/20.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
iodepth=1
set -- "${EXP_ARGS[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--iodepth) iodepth=$2; shift ;;
	*) log "unknown argument $1"; exit 2 ;;
	esac
	shift
done

exp_want ioband && [ "$EXP_ASSERT" = 1 ] && plan 1
exp_disk 2 hw_queue_depth=1 completion_nsec=500000 || exit 1
cg_setup
cg_make ioband-exp/vm1
cg_make ioband-exp/vm2
echo "+io" >/sys/fs/cgroup/ioband-exp/cgroup.subtree_control

load() {
	exp_fio "$EXP_OUT/seed001-$1.json" seed001-vm.fio DEV1="$2" DEV2="$3" \
		CG1=ioband-exp/vm1 CG2=ioband-exp/vm2 RUNTIME="$EXP_RUNTIME" \
		IODEPTH="$iodepth"
}

exp_header "Seed 001: two VMs (1 thread, depth $iodepth), weights 80/20, $(exp_disk_desc), ${EXP_RUNTIME}s" \
	"| weight          |  80 (80.0%)                   |  20 (20.0%)                   |         |" \
	"vm1 I/Os (r/w) share" "vm2 I/Os (r/w) share"
if exp_want none; then
	load none "${PART[1]}" "${PART[2]}" &&
		exp_row "none" "$EXP_OUT/seed001-none.json" vm1 vm2
fi
if exp_want ioband; then
	exp_bands "1 0 0 none weight 0" 80 20 || exit 1
	# ib1, ib2 only from this run: a failed run leaves them unset and
	# the checks fail.
	if load ioband /dev/mapper/ioband1 /dev/mapper/ioband2 &&
		exp_row "dm-ioband" "$EXP_OUT/seed001-ioband.json" vm1 vm2; then
		ib1=${ROW_SHARE[1]}
		ib2=${ROW_SHARE[2]}
	fi
	$DMSETUP remove ioband1 && $DMSETUP remove ioband2 || exit 1
fi
peer_run() {
	load "${1,,}" "${PART[1]}" "${PART[2]}" &&
		exp_row "$1 (disk)" "$EXP_OUT/seed001-${1,,}.json" vm1 vm2
}
exp_peers peer_run ioband-exp/vm1:800 ioband-exp/vm2:200
log "seed (2008, KVM): 4397/2902 I/Os = 60.2/39.8 %; run locally 80.6/19.4 %"

if [ "$EXP_ASSERT" = 1 ]; then
	# One check: vm2's share is the rest of vm1's.
	split_ok() { within "${ib1:-}" 80 2 && within "${ib2:-}" 20 2; }
	check "dm-ioband vm1 and vm2 share ${ib1:-?}/${ib2:-?}, within 2 of 80/20" split_ok
fi
finish
