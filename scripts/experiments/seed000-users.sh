#!/bin/bash
# Seed 000, second layout: three users' band groups (group type uid) on
# one partition, weights 40/20/10, 4 KiB random read/write O_DIRECT with
# many I/Os in flight per user.  iocost and BFQ weigh cgroups, not users:
# they do not apply (a cgroup per user would be another setup).
# --assert (3 checks): shares within 1 point of 57.1/28.6/14.3.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
exp_want ioband && [ "$EXP_ASSERT" = 1 ] && plan 3
exp_disk 1 || exit 1
u1=1001 u2=1002 u3=1003

load() {
	exp_fio "$EXP_OUT/seed000-users-$1.json" seed000-users.fio DEV="$2" \
		RUNTIME="$EXP_RUNTIME" IODEPTH=128 UID1=$u1 UID2=$u2 UID3=$u3
}

exp_header "Seed 000: three users on one partition, weights 40/20/10, $(exp_disk_desc), ${EXP_RUNTIME}s" \
	"| weight          |  40 (57.1%)                   |  20 (28.6%)                   |  10 (14.3%)                   |         |" \
	"user $u1 I/Os (r/w) share" "user $u2 I/Os (r/w) share" "user $u3 I/Os (r/w) share"
if exp_want none; then
	chmod 666 "${PART[1]}"
	load none "${PART[1]}" && exp_row none "$EXP_OUT/seed000-users-none.json" user1 user2 user3
fi
if exp_want ioband; then
	dm_create ioband1 "0 $(sectors "${PART[1]}") ioband ${PART[1]} 1 0 0 uid weight 0 :100 $u1:40 $u2:20 $u3:10" ||
		exit 1
	chmod 666 /dev/mapper/ioband1
	if load ioband /dev/mapper/ioband1 &&
		exp_row dm-ioband "$EXP_OUT/seed000-users-ioband.json" user1 user2 user3; then
		s1=${ROW_SHARE[1]} s2=${ROW_SHARE[2]} s3=${ROW_SHARE[3]}
	fi
	log "status: $($DMSETUP status ioband1)"
	$DMSETUP remove ioband1
fi
log "| iocost, BFQ: not applicable: they weigh cgroups, not users"
log "seed (2008): the same layout on sdb5, reported to follow the weights"

if [ "$EXP_ASSERT" = 1 ]; then
	check "user1 share ${s1:-?} within 1 of 57.1" within "${s1:-0}" 57.1 1
	check "user2 share ${s2:-?} within 1 of 28.6" within "${s2:-0}" 28.6 1
	check "user3 share ${s3:-?} within 1 of 14.3" within "${s3:-0}" 14.3 1
fi
finish
