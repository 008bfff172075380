#!/bin/bash
# Seed 003: two mkfs.ext2 in parallel on two partitions, each under a band
# device of weight 100 (one device group), against the same on the bare
# partitions: the time each takes, dm-ioband's overhead, and how far apart
# the two are.  dm-ioband 1.x with default settings: about 3x apart; with
# 10,240 tokens within 2 %; weight-iosize cost about 5 %.
# --assert (6 checks): every mkfs succeeds.  How far apart the two finish
# under dm-ioband (10 % or less was the assertion) is a measurement, not a
# check: at equal weights no controller at all keeps them together (bare
# partitions: 0.0 % apart), so it cannot fail with the controller off.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
[ "$EXP_ASSERT" = 1 ] && plan 6
# mkfs must write real data: a memory-backed disk of two 512 MiB slices,
# with 8 KiB requests so that the disk, not UML, sets the pace.
exp_disk 2 memory_backed=1 size=1024 max_sectors=16 || exit 1

# two_mkfs <dev1> <dev2>: seconds each of two parallel mkfs.ext2 took,
# in a and b.
# Each mkfs's exit status is a check (with --assert); a failed one prints
# "failed" for its time.
two_mkfs() {
	local t0 p1 p2 r1 r2
	t0=$(date +%s%N)
	rm -f /tmp/m1 /tmp/m2
	(mkfs.ext2 -q -F "$1" >/dev/null 2>&1 &&
		echo $(($(date +%s%N) - t0)) >/tmp/m1) &
	p1=$!
	(mkfs.ext2 -q -F "$2" >/dev/null 2>&1 &&
		echo $(($(date +%s%N) - t0)) >/tmp/m2) &
	p2=$!
	wait $p1
	r1=$?
	wait $p2
	r2=$?
	[ "$EXP_ASSERT" = 1 ] && check "mkfs.ext2 on $1 (exit $r1)" test "$r1" = 0
	[ "$EXP_ASSERT" = 1 ] && check "mkfs.ext2 on $2 (exit $r2)" test "$r2" = 0
	a=failed b=failed
	[ -s /tmp/m1 ] && [ -s /tmp/m2 ] || return 1
	read -r a b < <(awk -v a="$(cat /tmp/m1)" -v b="$(cat /tmp/m2)" \
		'BEGIN { printf "%.2f %.2f\n", a / 1e9, b / 1e9 }')
}

printf '\nSeed 003: two mkfs.ext2 in parallel, 512 MiB each, 8 KiB requests, %s\n' "$(exp_disk_desc)"
printf '| %-26s | mkfs 1 (s) | mkfs 2 (s) | apart | overhead |\n' setup
row() {
	local label=$1 a=$2 b=$3
	printf '| %-26s | %10s | %10s | %4s%% | %7s%% |\n' "$label" "$a" "$b" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; printf "%.1f", 100 * d / m }')" \
		"$(awk -v a="$a" -v b="$b" -v c="$base" 'BEGIN { printf "%.1f", 100 * ((a + b) / 2 / c - 1) }')"
}
two_mkfs "${PART[1]}" "${PART[2]}"
base=$(awk -v a="$a" -v b="$b" 'BEGIN { print (a + b) / 2 }')
row "bare partitions" "$a" "$b"
for pol in weight weight-iosize; do
	exp_bands "1 0 0 none $pol 0" 100 100 || exit 1
	two_mkfs /dev/mapper/ioband1 /dev/mapper/ioband2
	row "dm-ioband, $pol" "$a" "$b"
	[ $pol = weight ] && apart=$(awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; printf "%.1f", 100 * d / m }')
	$DMSETUP remove ioband1 && $DMSETUP remove ioband2
done
log "seed (2009, dm-ioband 1.x): default settings about 3x apart; 10,240 tokens within 2 %; weight-iosize about 5 % slower"

measure "under dm-ioband (weight) the two mkfs finish ${apart:-?} % apart (1.x: about 3x; 10 % or less was the assertion)" \
	"$(is_number "${apart:-}" && awk -v a="$apart" 'BEGIN { print (a <= 10 ? "within 10 %" : "MORE than 10 %") }' || echo "no figure")"
finish
