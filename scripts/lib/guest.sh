# shellcheck shell=bash
# Helpers for test scripts that run inside the UML guest.  Sourced.
#
# Tests call check/within/at_least and use the device and cgroup helpers
# below; everything they create is removed by guest_cleanup (run on exit),
# and a test whose devices or cgroups cannot be removed fails.
#
# IOBAND_CONTROLLER_OFF=1 in the environment (uml-run.sh -e
# IOBAND_CONTROLLER_OFF=1) makes dm_create load dm-linear in place of
# every ioband table and ib_msg skip every message: the experiments then
# run their checks with no controller at all, and each must fail
# (Documentation/testing.md, "Checks and the controller off").

GTOP=${IOBAND_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
. "$(dirname "${BASH_SOURCE[0]}")/kmemleak.sh"
NULLB_CFG=/sys/kernel/config/nullb
DMSETUP="dmsetup --noudevsync"
export DM_DISABLE_UDEV=1

CHECKS_FAILED=0
CHECKS_PASSED=0
CHECKS_PLANNED=
IOBAND_OFF=${IOBAND_CONTROLLER_OFF:-0}
# What this script made, removed again on exit (never anything else: the
# experiments also run on real machines).  null_blk devices are made in
# $(command substitution), a subshell: their names go to a file.
MADE_DM=()
MADE_CG=()
MADE_NULLB_FILE=${TMPDIR:-/tmp}/ioband-nullb.$$

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

# is_number <value>: a decimal number (not empty, not nan), maybe with an
# exponent, as awk prints a large one that is not whole (2.76543e+07).
is_number() { printf '%s' "$1" | grep -Eq '^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$'; }

# within <value> <target> <tolerance>: |value - target| <= tolerance.
# These three refuse a value, target or bound that is not a number (an
# empty one would read as 0).
within() {
	is_number "$1" && is_number "$2" && is_number "$3" || return 1
	awk -v v="$1" -v t="$2" -v tol="$3" \
		'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= tol) }'
}

# in_range <value> <low> <high>: low <= value <= high.
in_range() {
	is_number "$1" && is_number "$2" && is_number "$3" || return 1
	awk -v v="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(v >= l && v <= h) }'
}

# at_least <value> <minimum>
at_least() {
	is_number "$1" && is_number "$2" || return 1
	awk -v v="$1" -v m="$2" 'BEGIN { exit !(v >= m) }'
}

# plan <n>: the script must run at least n checks; finish fails when it
# ran fewer (a setup that failed silently skipped some).
plan() { CHECKS_PLANNED=$1; }

finish() {
	local ran=$((CHECKS_PASSED + CHECKS_FAILED))
	log "checks: $CHECKS_PASSED passed, $CHECKS_FAILED failed${CHECKS_PLANNED:+, $ran of $CHECKS_PLANNED planned}"
	if [ -n "$CHECKS_PLANNED" ] && [ "$ran" -lt "$CHECKS_PLANNED" ]; then
		log "not ok - ran $ran checks, fewer than the $CHECKS_PLANNED planned"
		return 1
	fi
	[ "$CHECKS_FAILED" = 0 ]
}

# show_group <device> <group> <field>: <field>= of the band group's line
# in show (group=<group> ...; empty if it has none).
show_group() {
	$DMSETUP message "$1" 0 show | awk -v g="group=$2" -v f="$3=" '$1 == g {
		for (i = 2; i <= NF; i++)
			if (index($i, f) == 1) print substr($i, length(f) + 1) }'
}

# show_q <device> <group>: the bios the band group holds (show's queued=).
show_q() { show_group "$1" "$2" queued; }

# line_field <field>: the value of <field>= in the first line of stdin
# (show's scheduler line).
line_field() { head -1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# show_held <device>: the bios the band device holds (show's held=).
show_held() { $DMSETUP message "$1" 0 show | line_field held; }

# wait_for <seconds> <count> <command...>: run the command every quarter
# of a second until it prints a number of at least <count>, for <seconds>
# (whole) at most, and print its last number (0 if it printed none, or
# anything but one number).  fio starts slowly in a TCG guest: a test
# that needs bios held polls for them instead of sleeping a fixed time.
wait_for() {
	local n=0 i limit=$(($1 * 4)) min=$2
	shift 2
	for ((i = 0; i <= limit; i++)); do
		n=$("$@")
		[[ $n =~ ^[0-9]+$ ]] || n=0
		[ "$n" -ge "$min" ] && break
		[ "$i" -lt "$limit" ] && sleep 0.25
	done
	echo "$n"
}

# measure <description> <value>: a figure printed next to the checks but
# not counted (it cannot fail with the controller off).
measure() { log "measure - $1: $2"; }

# controller_off: true when IOBAND_CONTROLLER_OFF=1 (see the head).
controller_off() { [ "$IOBAND_OFF" = 1 ]; }

# ib_msg <device> <message...>: dmsetup message to a band device; with
# the controller off (dm-linear in its place) it is skipped.
ib_msg() {
	local dev=$1
	shift
	if controller_off; then
		log "# controller off: not sent: message $dev $*"
		return 0
	fi
	$DMSETUP message "$dev" 0 "$@"
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
	echo "$name" >>"$MADE_NULLB_FILE"
	echo 1 >"$d/power" || return 1
	# 6.12 names a configfs device after its directory.
	if [ -b "/dev/$name" ]; then
		echo "/dev/$name"
	else
		echo "/dev/nullb$(cat "$d/index")"
	fi
}

# nullb_remove_all: remove the null_blk devices this script made; in the
# guest, also any other one left behind.  Fails if one stays.
nullb_remove_all() {
	local n bad=0
	[ -f "$MADE_NULLB_FILE" ] && while read -r n; do
		[ -d "$NULLB_CFG/$n" ] || continue
		echo 0 >"$NULLB_CFG/$n/power" &&
			rmdir "$NULLB_CFG/$n" || {
			log "cleanup: cannot remove null_blk $n"
			bad=1
		}
	done <"$MADE_NULLB_FILE"
	rm -f "$MADE_NULLB_FILE"
	# In the guest nothing else makes them: one left is a leak.
	if [ -n "${IOBAND_GUEST:-}" ] && [ -d "$NULLB_CFG" ]; then
		for n in "$NULLB_CFG"/*; do
			[ -d "$n" ] || continue
			log "cleanup: null_blk ${n##*/} left behind"
			bad=1
		done
	fi
	return $bad
}

# ioband_off_table <table>: with the controller off, an ioband table line
# becomes dm-linear on the same device; any other line is kept.
ioband_off_table() {
	local t=$1
	if controller_off; then
		set -- $t
		if [ "$3" = ioband ]; then
			echo "$1 $2 linear $4 0"
			return
		fi
	fi
	echo "$t"
}

# dm_create <name> <table>: dmsetup create, remembered for cleanup (an
# ioband table becomes dm-linear with the controller off).
dm_create() {
	$DMSETUP create "$1" --table "$(ioband_off_table "$2")" || return 1
	MADE_DM+=("$1")
}

# table_refused <why> <table>: creating a device of <table> must fail and
# leave no device; the check names the kernel's reason (dmsetup's
# "ioband: ..." line).
table_refused() {
	local why=$1 err=${TMPDIR:-/tmp}/ioband-refused.$$
	if $DMSETUP create bad --table "$2" 2>"$err"; then
		$DMSETUP remove bad
		check "refused: $why" false
		rm -f "$err"
		return
	fi
	check "refused: $why ($(grep -o 'ioband: .*' "$err" | head -1))" \
		test ! -e /dev/mapper/bad
	$DMSETUP remove bad 2>/dev/null
	rm -f "$err"
}

# dm_reads <name>...: completed reads of each device-mapper device, on one
# line (/sys/block/dm-N/stat); dm_ios: its reads and writes.
dm_reads() { dm_completed 0 "$@"; }
dm_ios() { dm_completed 1 "$@"; }
dm_completed() {
	local writes=$1 d m r w stats=() out=()
	shift
	# The minors first: a dmsetup between two devices' reads (a tenth of
	# a second and more in a busy UML guest) would shift one device's
	# window against the other's.  The counters are then read back to
	# back, by the shell alone.
	for d in "$@"; do
		m=$($DMSETUP info -c --noheadings -o minor "$d") || return 1
		stats+=("/sys/block/dm-$((m))/stat")
	done
	for d in "${stats[@]}"; do
		read -r r _ _ _ w _ <"$d" || return 1
		[ "$writes" = 1 ] || w=0
		out+=("$((r + w))")
	done
	echo "${out[*]}"
}

# dm_majmin <name>: MAJ:MIN of a device-mapper device, as cgroup files
# name a device.
dm_majmin() { $DMSETUP info -c --noheadings -o major,minor "$1" | tr -d ' '; }

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

# dm_pair <prefix> <io_limit|linear> <dev1> <dev2>: /dev/mapper/<prefix>1
# on dev1 and <prefix>2 on dev2, each the whole device: band devices of
# device group 7 at weights 300 and 100 (group type none, policy weight)
# with that io_limit (0: estimated), or dm-linear devices for "linear".
dm_pair() {
	local prefix=$1 kind=$2 i dev
	shift 2
	for i in 1 2; do
		dev=${!i}
		if [ "$kind" = linear ]; then
			dm_create "$prefix$i" "0 $(sectors "$dev") linear $dev 0"
		else
			dm_create "$prefix$i" "0 $(sectors "$dev") ioband $dev 7 0 $kind none weight 0 :$((i == 1 ? 300 : 100))"
		fi || return 1
	done
}

# dm_pair_remove <prefix>: remove what dm_pair <prefix> made.
dm_pair_remove() { $DMSETUP remove "${1}1" && $DMSETUP remove "${1}2"; }

# dm_names: the device-mapper devices there are.
dm_names() { cat /sys/block/dm-*/dm/name 2>/dev/null; }

# dm_remove_all: remove the devices this script made (newest first: band
# devices sit on the slices made before them) and, in the guest, every
# other device-mapper device left (tests may create devices directly and
# leave them to this cleanup), without --force.  Fails if any stays: a
# band device that cannot be removed is a bug (a leaked open count or a
# held bio).
dm_remove_all() {
	local i n bad=0
	for ((i = ${#MADE_DM[@]} - 1; i >= 0; i--)); do
		$DMSETUP info "${MADE_DM[$i]}" >/dev/null 2>&1 || continue
		$DMSETUP remove --retry "${MADE_DM[$i]}" >/dev/null 2>&1 || {
			log "cleanup: cannot remove device-mapper device ${MADE_DM[$i]}"
			bad=1
		}
	done
	[ -n "${IOBAND_GUEST:-}" ] || return $bad
	# Left by the test itself: stacked devices need several passes.
	for _ in 1 2 3; do
		for n in $(dm_names); do
			$DMSETUP remove --retry "$n" >/dev/null 2>&1
		done
	done
	for n in $(dm_names); do
		log "cleanup: cannot remove device-mapper device $n"
		bad=1
	done
	return $bad
}

# cg_setup: enable the io and memory controllers for children of the root.
cg_setup() {
	echo "+io +memory" >/sys/fs/cgroup/cgroup.subtree_control
}

# cg_make <path>: create a cgroup (and its parents); only the
# directories it created are removed on exit, children first.
cg_make() {
	local p= c
	local IFS=/
	for c in $1; do
		p=${p:+$p/}$c
		[ -d "/sys/fs/cgroup/$p" ] && continue
		mkdir "/sys/fs/cgroup/$p" || return 1
		MADE_CG+=("$p")
	done
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

# cg_dying <path>: the cgroups below <path> that were removed but are not
# freed yet (its cgroup.stat's nr_dying_descendants).
cg_dying() {
	awk '$1 == "nr_dying_descendants" { print $2 }' \
		"/sys/fs/cgroup/$1/cgroup.stat"
}

# cg_dying_gone <path> <seconds>: wait until no cgroup below <path> is
# dying, at most <seconds>; false if some still are.  A removed cgroup is
# freed once the last reference to it goes: its bios, its blkgs, a band
# group of dm-ioband, the pages charged to its memory controller.
cg_dying_gone() {
	local i
	for ((i = 0; i < $2 * 4; i++)); do
		[ "$(cg_dying "$1")" = 0 ] && return 0
		sleep 0.25
	done
	[ "$(cg_dying "$1")" = 0 ]
}

# cg_procs_dump <path>: log each process left in cgroup <path>: its
# name, state, where it waits in the kernel and its kernel stack.
cg_procs_dump() {
	local p
	while read -r p; do
		log "  $1: pid $p $(cat "/proc/$p/comm" 2>/dev/null)" \
			"$(awk '$1 == "State:" { print $2, $3 }' "/proc/$p/status" 2>/dev/null)" \
			"wchan $(cat "/proc/$p/wchan" 2>/dev/null)"
		sed 's/^/    /' "/proc/$p/stack" 2>/dev/null | head -20
	done <"/sys/fs/cgroup/$1/cgroup.procs"
}

# cg_remove_all: remove the cgroups cg_make created, newest first (a test
# may have removed some itself).  A process left inside gets a few seconds
# to exit; a cgroup that cannot be removed fails the test.
cg_remove_all() {
	local i d t bad=0
	for ((i = ${#MADE_CG[@]} - 1; i >= 0; i--)); do
		d=/sys/fs/cgroup/${MADE_CG[$i]}
		[ -d "$d" ] || continue
		for t in $(seq 1 20); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.25
		done
		[ -d "$d" ] && {
			log "cleanup: cannot remove cgroup ${MADE_CG[$i]} ($(cat "$d/cgroup.procs" 2>/dev/null | wc -l) processes in it)"
			cg_procs_dump "${MADE_CG[$i]}"
			bad=1
		}
	done
	return $bad
}

# guest_cleanup (on exit): remove what the script made; when something
# cannot be removed, say so and make the script fail.
guest_cleanup() {
	local rc=$? bad=0
	dm_remove_all || bad=1
	nullb_remove_all || bad=1
	cg_remove_all || bad=1
	if [ "$bad" = 1 ]; then
		log "not ok - cleanup: something this test made could not be removed"
		[ "$rc" = 0 ] && rc=1
	fi
	exit "$rc"
}
trap guest_cleanup EXIT

# noise_bound <a> <b> <bound> <floor>: the same load run twice without a
# controller, <a> and <b>, in the same run as what is compared with them;
# prints "<mean> <noise> <bound less the noise>": the noise is how far
# the two are apart, in % of their mean (100 if the mean is 0), and the
# bound is lowered by it to no less than <floor> (audit finding 9: a
# bound widened for a loaded machine is justified by the machine's noise
# measured beside it, or not at all).
noise_bound() {
	awk -v a="$1" -v b="$2" -v m="$3" -v f="$4" 'BEGIN {
		base = (a + b) / 2; d = a - b; if (d < 0) d = -d
		n = base > 0 ? 100 * d / base : 100; x = m - n
		printf "%.0f %.1f %.1f\n", base, n, x < f ? f : x }'
}

# msg_refused <band device> <message...>: the message is refused, the
# kernel log has dm-ioband's reason for it, and the device's table is as
# it was.  "--": an argument like -1 is the message's, not an option of
# dmsetup's (which would refuse it before the kernel saw it).
msg_refused() {
	local d=$1 before why
	shift
	before=$($DMSETUP table "$d")
	dmesg -C
	if $DMSETUP message -- "$d" 0 "$@" 2>/dev/null; then
		check "message '$*' refused" false
		return
	fi
	why=$(dmesg | grep -m1 'device-mapper: ioband:' | sed 's/.*ioband: //')
	check "message '$*' refused ($why), table unchanged" \
		test -n "$why" -a "$($DMSETUP table "$d")" = "$before"
}
