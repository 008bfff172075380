# shellcheck shell=bash
# Helpers for test scripts that run inside the UML guest.  Sourced.
#
# Tests call fail/pass_check and use the device and cgroup helpers below;
# everything they create is removed by guest_cleanup (run on exit).

GTOP=${IOBAND_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
NULLB_CFG=/sys/kernel/config/nullb
DMSETUP="dmsetup --noudevsync"
export DM_DISABLE_UDEV=1

CHECKS_FAILED=0
CHECKS_PASSED=0
# What this script made, removed again on exit (never anything else: the
# experiments also run on real machines).
MADE_DM=()
MADE_NULLB=()
MADE_CG=()

log() { printf '%s\n' "$*"; }

# check <description> <command...>: run a command, count it.
check() {
	local what=$1
	shift
	if "$@"; then
		CHECKS_PASSED=$((CHECKS_PASSED + 1))
		log "ok - $what"
	else
		CHECKS_FAILED=$((CHECKS_FAILED + 1))
		log "not ok - $what"
	fi
}

# is_number <value>: a decimal number (not empty, not nan).
is_number() { printf '%s' "$1" | grep -Eq '^-?[0-9]+(\.[0-9]+)?$'; }

# within <value> <target> <tolerance>: |value - target| <= tolerance.
within() {
	is_number "$1" || return 1
	awk -v v="$1" -v t="$2" -v tol="$3" \
		'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= tol) }'
}

# at_least <value> <minimum>
at_least() {
	is_number "$1" || return 1
	awk -v v="$1" -v m="$2" 'BEGIN { exit !(v >= m) }'
}

finish() {
	log "checks: $CHECKS_PASSED passed, $CHECKS_FAILED failed"
	[ "$CHECKS_FAILED" = 0 ]
}

# nullb_create <name> [attr=value...]: a null_blk device through configfs,
# printed as /dev/nullbN.  Defaults: 256 MiB, memory backed, 4 KiB blocks,
# the 2,000 IOPS device of uml-notes (8 tags x 4 ms).
nullb_create() {
	local name=$1 d kv
	shift
	d=$NULLB_CFG/$name
	mkdir "$d" || return 1
	for kv in size=256 memory_backed=1 blocksize=4096 irqmode=2 \
		completion_nsec=4000000 hw_queue_depth=8 submit_queues=1 \
		"$@"; do
		echo "${kv#*=}" >"$d/${kv%%=*}" || {
			log "nullb: cannot set $kv"
			return 1
		}
	done
	echo 1 >"$d/power" || return 1
	MADE_NULLB+=("$name")
	# 6.12 names a configfs device after its directory.
	if [ -b "/dev/$name" ]; then
		echo "/dev/$name"
	else
		echo "/dev/nullb$(cat "$d/index")"
	fi
}

nullb_remove_all() {
	local n
	for n in "${MADE_NULLB[@]}"; do
		echo 0 >"$NULLB_CFG/$n/power" 2>/dev/null
		rmdir "$NULLB_CFG/$n" 2>/dev/null
	done
}

# dm_create <name> <table>: dmsetup create, remembered for cleanup.
dm_create() {
	$DMSETUP create "$1" --table "$2" || return 1
	MADE_DM+=("$1")
}

# sectors <dev>: size in 512-byte sectors.
sectors() { blockdev --getsz "$1"; }

# dm_linear_slices <dev> <n> <prefix>: n equal dm-linear slices of dev,
# /dev/mapper/<prefix>1..n (the "partitions" of one disk).
dm_linear_slices() {
	local dev=$1 n=$2 prefix=$3 total each i
	total=$(sectors "$dev")
	each=$((total / n / 8 * 8))
	for i in $(seq 1 "$n"); do
		dm_create "$prefix$i" "0 $each linear $dev $(((i - 1) * each))" ||
			return 1
	done
}

dm_remove_all() {
	local i
	# Newest first: band devices sit on the slices made before them.
	for ((i = ${#MADE_DM[@]} - 1; i >= 0; i--)); do
		$DMSETUP remove --retry "${MADE_DM[$i]}" >/dev/null 2>&1
	done
	[ -n "${IOBAND_GUEST:-}" ] && $DMSETUP remove_all --force >/dev/null 2>&1
	true
}

# cg_setup: enable the io and memory controllers for children of the root.
cg_setup() {
	echo "+io +memory" >/sys/fs/cgroup/cgroup.subtree_control
}

# cg_make <path>: create a cgroup (and its parents).
cg_make() {
	mkdir -p "/sys/fs/cgroup/$1" && MADE_CG+=("$1")
}

# cg_run <path> <command...>: run a command inside a cgroup.
cg_run() {
	local cg=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' \
		"/sys/fs/cgroup/$cg" "$@"
}

# cg_disk_sectors <path> <disk>: "<read> <written>" sectors that cgroup
# <path> has submitted to block device <disk> so far (its io.stat), "0 0"
# if none.
cg_disk_sectors() {
	local devno
	devno=$(cat "/sys/block/$(basename "$(readlink -f "$2")")/dev") ||
		return 1
	awk -v d="$devno" '$1 == d { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == "rbytes") r = kv[2]
		if (kv[1] == "wbytes") w = kv[2] } }
		END { printf "%d %d\n", r / 512, w / 512 }' \
		"/sys/fs/cgroup/$1/io.stat"
}

cg_remove_all() {
	local c d
	for c in "${MADE_CG[@]}"; do
		find "/sys/fs/cgroup/${c%%/*}" -depth -type d 2>/dev/null |
			while read -r d; do rmdir "$d" 2>/dev/null; done
	done
}

guest_cleanup() {
	dm_remove_all
	nullb_remove_all
	cg_remove_all
}
trap guest_cleanup EXIT
