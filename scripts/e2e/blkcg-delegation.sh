#!/bin/bash
# io.ioband.limits in a delegated subtree (issue 26, N1; the review's
# trigger): /t, given a ceiling and no floor by the administrator, is
# handed to an unprivileged user (nobody), who moves its processes into a
# child /t/x, enables the io controller in /t, makes a second child /t/y
# and writes itself a floor on /t/x.  The ceiling must still hold /t/x,
# and /t/x and /t/y together (a ceiling holds its descendants' sum), and
# the floor must not take the device from a sibling tenant /u (a floor is
# at most the parent's).
#
# Then two children of /p, whose floor is 200 I/Os per second, ask 200
# each: they share /p's 200 (against /c's unshared floor of 200 in the
# same run).
#
# Before the fix: /t/x ran at the device's speed, /u got a few per cent
# of it while /t/x's self-given floor was served first, and /p's children
# got their whole floors.
. "$(dirname "$0")/../lib/guest.sh"
plan 12

CG=/sys/fs/cgroup
NOBODY=65534
cg_setup || exit 1
cg_make t || exit 1
cg_make u || exit 1
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
dm_create ioband1 "0 $sz ioband $disk 1 0 0 cgroup weight 0 :100" || exit 1
band=$(dm_majmin ioband1)
chmod 666 "$(readlink -f /dev/mapper/ioband1)" || exit 1

# "${as_nobody[@]}" <command...>: run as the unprivileged owner of /t
# (a command, not a function: cg_run execs it).
as_nobody=(setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups)

# fio_args <json> <runtime>: FIO=(the command of random reads on the
# band device, its output in <json>; it also ends, writing its output,
# once <json>.stop exists: stop_io).
fio_args() {
	rm -f "$1.stop"
	FIO=(fio --name=r --filename=/dev/mapper/ioband1 --direct=1
		--rw=randread --bs=4k --iodepth=8 --ioengine=libaio
		--runtime="$2" --time_based --trigger-file="$1.stop"
		--output-format=json --output="$1")
}
# iops_of <json>: its job's read IOPS.
iops_of() {
	python3 -c 'import json, sys
s = open(sys.argv[1]).read()
print("%.1f" % json.loads(s[s.index("{"):])["jobs"][0]["read"]["iops"])' "$1" \
		2>/dev/null || echo 0
}

# The administrator's part: a ceiling on /t, then /t delegated to nobody
# (cgroup-v2.rst, "Delegation": the directory and its cgroup.procs,
# cgroup.subtree_control and cgroup.threads), and a process of the
# tenant's put in /t.
echo "$band max_iops=100" >$CG/t/io.ioband.limits || exit 1
chown $NOBODY:$NOBODY $CG/t $CG/t/cgroup.procs $CG/t/cgroup.subtree_control \
	$CG/t/cgroup.threads || exit 1

fio_args /tmp/deleg-t.json 4
cg_run t "${as_nobody[@]}" "${FIO[@]}" >/dev/null 2>&1
iops=$(iops_of /tmp/deleg-t.json)
check "/t reads at $iops I/Os per second, within 5 of its ceiling of 100" \
	within "$iops" 100 5

# The tenant's part, the review's trigger, as nobody: a child, its own
# process moved into it, +io in /t, the same reads.
rm -f /tmp/deleg-moved
MADE_CG+=("t/x")
fio_args /tmp/deleg-x.json 4
# shellcheck disable=SC2016
cg_run t "${as_nobody[@]}" sh -c 'mkdir "$0/x" && echo $$ > "$0/x/cgroup.procs" &&
	echo +io > "$0/cgroup.subtree_control" && : > /tmp/deleg-moved &&
	exec "$@"' "$CG/t" "${FIO[@]}" \
	>/dev/null 2>&1
check "nobody made /t/x, moved into it and enabled io in /t" \
	test -f /tmp/deleg-moved
iops=$(iops_of /tmp/deleg-x.json)
check "/t/x reads at $iops I/Os per second: /t's ceiling of 100 holds it (within 5)" \
	within "$iops" 100 5

# rates <cg>...: each cgroup's bios dispatched by dm-ioband per second
# (its io.stat's ioband.dispatched on the band device) over a window of
# RATE_WINDOW seconds (4 unless set) and the time the reads take, from
# 1 s after the call, the same for all but for when each is read, once
# await_io has seen each fio read: the fio jobs of a check start seconds
# apart on a loaded machine, and each one's own average would count the
# time it ran alone.
# band_stat <key> <cg>: <key>= of <cg>'s io.stat line for the band
# device, 0 if none.
band_stat() {
	awk -v d="$band" -v k="$1" '$1 == d { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k) n = kv[2] } }
		END { print n + 0 }' "$CG/$2/io.stat"
}
dispatched() { band_stat ioband.dispatched "$1"; }
# floor:<cg> counts the bios dispatched to meet <cg>'s floor instead (its
# group's floor_dispatched in show).
floor_dispatched() {
	$DMSETUP message ioband1 0 show |
		awk -v g="group=cgroup:$(stat -c %i "$CG/$1")" '$1 == g {
			for (i = 2; i <= NF; i++) { split($i, kv, "=")
				if (kv[1] == "floor_dispatched") n = kv[2] } }
			END { print n + 0 }'
}
# rios:<cg> counts the reads <cg> and its descendants sent to the band
# device (its io.stat's rios).
rios() { band_stat rios "$1"; }
count() {
	case $1 in
	floor:*) floor_dispatched "${1#floor:}" ;;
	rios:*) rios "${1#rios:}" ;;
	*) dispatched "$1" ;;
	esac
}
rates() {
	local c r0=() r1=() s0=() s1=() i=0
	sleep 1
	sample r0 s0 "$@"
	sleep "${RATE_WINDOW:-4}"
	sample r1 s1 "$@"
	for c in "$@"; do
		# "start end" of each read: its middle
		awk -v a="${r0[i]}" -v b="${r1[i]}" -v s="${s0[i]}" -v t="${s1[i]}" \
			'BEGIN { split(s, x); split(t, y); w = (y[1] + y[2] - x[1] - x[2]) / 2
				# nan, never nothing: the caller reads one per cgroup
				if (w > 0) printf "%.1f ", (b - a) / w; else printf "nan " }'
		i=$((i + 1))
	done
	echo
	# stderr: the test's output, not the caller's read
	awk -v s="${s0[0]}" -v t="${s1[0]}" -v r="${s1[$# - 1]}" -v w="$*" \
		'BEGIN { split(s, x); split(t, y); split(r, z)
		printf "# rates of %s: the first one over %.3f s; the last reads took %.3f s\n",
			w, (y[1] + y[2] - x[1] - x[2]) / 2, z[2] - y[1] }' >&2
}
# sample <counts> <stamps> <cg>...: the count of each <cg> into the array
# <counts>, and into <stamps> when its read started and ended ("start
# end"): a rate is timed from the middle of its reads.  Each read starts
# an awk (and a dmsetup for floor:), which the debug kernel takes from
# tenths of a second to seconds to do (0.4 s for one, 11 s for the six
# of /p's check, in one run here), so a window stamped once before all
# the reads was off by as much as those times differed between its two
# ends: the likely cause of a sum of 94.3 I/Os per second at a ceiling
# of 100 in the CI run of bb5b6eb.  EPOCHREALTIME is bash's own: no
# process to start.
sample() {
	local -n counts=$1 stamps=$2
	local a c
	shift 2
	counts=() stamps=()
	for c in "$@"; do
		a=$EPOCHREALTIME
		counts+=("$(count "$c")")
		stamps+=("$a $EPOCHREALTIME")
	done
}

# await_io <cg>...: wait (at most 60 s) until each <cg> has sent the band
# device a read since the call: its fio has started.  False if one has
# not: the caller's check must then fail (its rates left empty).
await_io() {
	local c r0=() i end=$((SECONDS + 60))
	for c in "$@"; do r0+=("$(rios "$c")"); done
	while [ $SECONDS -lt $end ]; do
		i=0
		for c in "$@"; do
			[ "$(rios "$c")" -gt "${r0[i]}" ] || break
			i=$((i + 1))
		done
		[ $i -eq $# ] && return 0
		sleep 0.2
	done
	log "await_io: $* did not all start reading in 60 s"
	return 1
}
# stop_io <json>... -- <cg>...: tell the fio jobs writing each <json> to
# end (their trigger files), then wait until no process is left in each
# <cg>.  Not signals: a SIGINT sent to every process of a cgroup reached
# fio's job processes too, whose handler prints (not safe in a handler),
# and in the clean-clone CI of 8721dde one job never ended: fio's main
# gave up on it after its 300 s, and the job kept the band device open.
# Bounded by 60 s (the reads in flight need well under a second at 100
# I/Os per second): false, with what is left and where it waits, if a
# process stays (a hung bio would keep its reader).
stop_io() {
	local c end=$((SECONDS + 60)) left
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		: >"$1.stop"
		shift
	done
	shift
	while :; do
		left=
		for c in "$@"; do
			[ -n "$(cat "$CG/$c/cgroup.procs")" ] && left="$left $c"
		done
		[ -z "$left" ] && return 0
		[ $SECONDS -ge $end ] && break
		sleep 0.2
	done
	log "stop_io: processes left in$left 60 s after being told to end"
	for c in $left; do
		cg_procs_dump "$c"
	done
	log "show: $($DMSETUP message ioband1 0 show | head -1)"
	for c in $left; do
		# shellcheck disable=SC2046
		kill -KILL $(cat "$CG/$c/cgroup.procs") 2>/dev/null
	done
	return 1
}

# wait_ended <pid>...: reap the fio jobs stop_io ended; if it had to kill
# them, at most 10 s more (a reader in state D for a hung bio does not die:
# the check has failed, the cleanup says what is left).
wait_ended() {
	local p i
	if [ "$stopped" = 1 ]; then
		wait "$@"
		return
	fi
	for p in "$@"; do
		for ((i = 0; i < 40; i++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.25
		done
	done
}

# Nor by making more children: /t/y beside /t/x, both reading, share the
# 100 I/Os per second (each bio is charged to /t's ceiling too).
MADE_CG+=("t/y")
"${as_nobody[@]}" mkdir $CG/t/y || exit 1
# Their sum over one window while both run (each fio's own rate covers its
# own start and end: under QEMU one started a second after the other, ran
# alone meanwhile, and the two rates added up to 123): /t's reads on the
# band device in its io.stat, which counts its descendants', from once
# both have read (await_io: a fio that starts seconds late on a loaded CI
# machine left the clean-clone CI of 3549b4a a window half empty, 52.7).
fio_args /tmp/deleg-x2.json 300
cg_run t/x "${FIO[@]}" >/dev/null 2>&1 &
xpid=$!
fio_args /tmp/deleg-y2.json 300
cg_run t/y "${FIO[@]}" >/dev/null 2>&1 &
ypid=$!
sum=
await_io t/x t/y && read -r sum < <(RATE_WINDOW=8 rates rios:t)
stopped=0
stop_io /tmp/deleg-x2.json /tmp/deleg-y2.json -- t/x t/y && stopped=1
wait_ended $xpid $ypid
check "the readers in /t/x and /t/y ended once told to" test $stopped = 1
x2=$(iops_of /tmp/deleg-x2.json) y2=$(iops_of /tmp/deleg-y2.json)
check "/t/x and /t/y read at $sum I/Os per second in all over 8 s while both ran (fio's own: $x2 + $y2): /t's ceiling of 100 holds their sum (within 5)" \
	within "$sum" 100 5

# A floor nobody writes itself on /t/x (it owns the file), and no ceiling
# left to bound it: /t has no floor from the administrator, so /t/x none.
echo "$band max_iops=max" >$CG/t/io.ioband.limits || exit 1
check "nobody writes itself min_iops=1000000 on /t/x" "${as_nobody[@]}" sh -c \
	"echo '$band min_iops=1000000' > $CG/t/x/io.ioband.limits"
# /t/x and the other tenant /u, equal weights, both busy: /u gets half
# the device, not what /t/x's floor leaves.
fio_args /tmp/deleg-fx.json 300
cg_run t/x "${FIO[@]}" --iodepth=16 >/dev/null 2>&1 &
xpid=$!
fio_args /tmp/deleg-u.json 300
cg_run u "${FIO[@]}" >/dev/null 2>&1 &
upid=$!
xiops='' uiops=''
await_io t/x u && read -r xiops uiops < <(rates t/x u)
stopped=0
stop_io /tmp/deleg-fx.json /tmp/deleg-u.json -- t/x u && stopped=1
wait_ended $xpid $upid
check "the readers in /t/x and /u ended once told to" test $stopped = 1
share=$(awk -v u="$uiops" -v x="$xiops" 'BEGIN { printf "%.1f", u + x ? 100 * u / (u + x) : 0 }')
log "show: $($DMSETUP message ioband1 0 show | head -1)"
check "/u gets $share % of the device beside /t/x's self-given floor ($uiops against $xiops I/Os per second; 40 to 60, both reading)" \
	sh -c "awk -v x=$xiops -v s=$share 'BEGIN { exit !(x > 0 && s >= 40 && s <= 60) }'"

# Children that ask more floor than their parent has share it: /p has
# min_iops=200 and, against /q at a weight 10,000 times its own, gets
# little more than its floor; /p/a and /p/b ask 200 each.  Without the
# sharing they would get 200 each, 400 in all.  /c, a sibling of /p with
# the same weight and its own unshared floor of 200, reads beside them as
# the same run's control.  (Floors well below what the device does under
# a loaded CI machine, about 1,000 I/Os per second here, and 16 in flight
# each, so that a submitter short of CPU still asks for its floor.)
cg_make p/a && cg_make p/b && cg_make q && cg_make c || exit 1
echo +io >$CG/p/cgroup.subtree_control || exit 1
echo "$band 1" >$CG/p/io.ioband.weight || exit 1
echo "$band 1" >$CG/c/io.ioband.weight || exit 1
echo "$band 10000" >$CG/q/io.ioband.weight || exit 1
echo "$band min_iops=200" >$CG/p/io.ioband.limits || exit 1
echo "$band min_iops=200" >$CG/p/a/io.ioband.limits || exit 1
echo "$band min_iops=200" >$CG/p/b/io.ioband.limits || exit 1
echo "$band min_iops=200" >$CG/c/io.ioband.limits || exit 1
fio_args /tmp/deleg-pa.json 300
cg_run p/a "${FIO[@]}" --iodepth=16 >/dev/null 2>&1 &
apid=$!
fio_args /tmp/deleg-pb.json 300
cg_run p/b "${FIO[@]}" --iodepth=16 >/dev/null 2>&1 &
bpid=$!
fio_args /tmp/deleg-c.json 300
cg_run c "${FIO[@]}" --iodepth=16 >/dev/null 2>&1 &
cpid=$!
fio_args /tmp/deleg-q.json 300
cg_run q "${FIO[@]}" --iodepth=32 >/dev/null 2>&1 &
qpid=$!
a='' b='' q='' fa='' fb='' fc=''
await_io p/a p/b c q &&
	read -r a b q fa fb fc < <(rates p/a p/b q floor:p/a floor:p/b floor:c)
stopped=0
stop_io /tmp/deleg-pa.json /tmp/deleg-pb.json /tmp/deleg-c.json \
	/tmp/deleg-q.json -- p/a p/b c q && stopped=1
wait_ended $apid $bpid $cpid $qpid
check "the readers in /p/a, /p/b, /c and /q ended once told to" test $stopped = 1
ab=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", a + b }')
fab=$(awk -v a="$fa" -v b="$fb" 'BEGIN { printf "%.1f", a + b }')
ratio=$(awk -v p="$fab" -v c="$fc" 'BEGIN { printf "%.2f", (c > 0 ? p / c : 99) }')
log "/p/a $a, /p/b $b, /q $q I/Os per second; to meet the floors: /p/a $fa, /p/b $fb, /c $fc"
# What the floors served, not all that /p/a and /p/b got: where /q's
# submitter, short of CPU (the QEMU guest under TCG), leaves its queue
# empty for a moment, its slots go to them, as they should (work
# conservation), and their total says nothing about the floors (130 to
# 280 was asserted on it: 298.6, 372.5 and 349.8 I/Os a second in the
# QEMU guest on 2026-12-03, with 530 to 705 left to /q).  Nor against a
# fixed 200: a floor that fell behind while the guest's CPU was taken
# away catches up (at most IOB_RESV_LAG_NS, 200 ms, each time), and a
# group whose submitter leaves its queue empty restarts its tag up to
# 20 ms back (IOB_TAG_BURST_NS); the clean-clone CI of 695623c saw 261.1
# for "at most 250".  /c's floor gets the same catch-ups in the same
# window: shared, /p's two floors serve what /c's one does (1); not
# shared, twice that (2; 426.9 against 200 with the sharing undone).
check "the floors served /p/a and /p/b $fab I/Os per second in all, $ratio times /c's unshared floor of the same 200 ($fc): /p's floor, shared (0.5 to 1.5; 2 if not)" \
	sh -c "awk -v r='$ratio' -v c='$fc' 'BEGIN { exit !(c > 0 && r != \"\" && r >= 0.5 && r <= 1.5) }'"
check "/p/a and /p/b get $ab I/Os per second in all: at least most of /p's floor (130)" \
	sh -c "awk -v t=$ab 'BEGIN { exit !(t >= 130) }'"
check "in proportion to what they ask: /p/a $a, /p/b $b (each at least 50)" \
	sh -c "awk -v a=$a -v b=$b 'BEGIN { exit !(a >= 50 && b >= 50) }'"
finish
