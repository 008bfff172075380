# shellcheck shell=bash
# kmemleak helpers for the tests in the QEMU guest (scripts/lib/guest.sh
# and scripts/qemu/tests/e2e.sh source this; the caller defines log).
#
# kmemleak, in the QEMU flavours lockdep, KASAN and KCSAN
# (scripts/configs/qemu-{lockdep,kasan,kcsan}.config: scanned on
# demand).  kmemleak_wanted: a test scans it at
# its end, in any kernel that has it, and in those flavours always, so
# that a kmemleak missing or off there fails rather than reads "0
# objects".
KMEMLEAK=${IOBAND_KMEMLEAK:-/sys/kernel/debug/kmemleak}
kmemleak_wanted() {
	case ${IOBAND_FLAVOUR:-} in
	lockdep | kasan | kcsan) return 0 ;;
	esac
	[ -w "$KMEMLEAK" ]
}

# kmemleak_begin: forget the objects that are unreferenced now (the boot's,
# an earlier test's).
kmemleak_begin() {
	[ -w "$KMEMLEAK" ] || return 0
	echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK"
}

# kmemleak_none <file>: scan, keep the report in <file>; false if kmemleak
# reports any unreferenced object since kmemleak_begin (the test audit:
# not only device-mapper's), or if kmemleak is missing or off (it refuses
# the scan).  The objects allocated from device-mapper code (by name, or
# a bare address: once the module is gone its frames are no longer
# symbolized) are also listed in <file>.ours.
kmemleak_none() {
	local out=$1 n
	[ -w "$KMEMLEAK" ] || { log "kmemleak: no $KMEMLEAK"; return 1; }
	sleep 6 # kmemleak reports objects older than 5 s
	echo scan >"$KMEMLEAK" || { log "kmemleak: the scan was refused (off?)"; return 1; }
	cat "$KMEMLEAK" >"$out" || return 1
	n=$(grep -c '^unreferenced object' "$out")
	awk '/^unreferenced object/ { if (blk != "" && ours) printf "%s", blk; blk = ""; ours = 0 }
		{ blk = blk $0 "\n" }
		/ioband|[^a-z_]dm_|\[dm_mod\]|\] 0xffffffff[a-f]/ { ours = 1 }
		END { if (blk != "" && ours) printf "%s", blk }' "$out" >"$out.ours"
	log "kmemleak: $n unreferenced object(s), $(grep -c '^unreferenced object' "$out.ours") of them device-mapper's"
	[ "$n" = 0 ] && return 0
	# device-mapper's first, then the start of the whole report
	head -40 "$out.ours"
	head -40 "$out"
	return 1
}
