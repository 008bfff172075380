#!/bin/bash
# make shares-onoff: every shares: step of make check run twice, with the
# controller and without it (IOBAND_CONTROLLER_OFF=1: dm-linear in place
# of every band device, no message sent), into results/shares-onoff.txt:
# each step's result both ways, then each check's line from both runs.
# Every check of those steps must fail with the controller off; one that
# passes is marked "PASSES OFF" (Documentation/testing.md, "Checks and
# the controller off", shows the table from results/ through
# scripts/update-readme.sh).
#
#   scripts/shares-onoff.sh          both runs (twice make check's shares
#                                    stage: about 37 min), the table
#   ONOFF_ONLY="seed000-test1 ..."   those steps only (the table then
#                                    says so)
#
# Refuses uncommitted changes unless BENCH_DIRTY=1 (then the table says
# so), as make bench does.
set -u
. "$(dirname "$0")/lib/common.sh"

if ! git -C "$TOP" diff --quiet HEAD 2>/dev/null; then
	[ "${BENCH_DIRTY:-0}" = 1 ] ||
		die "uncommitted changes: commit them first (or BENCH_DIRTY=1)"
fi
state=$(source_state)
out=$BUILD/shares-onoff
res=$TOP/results/shares-onoff.txt
only=
if [ -n "${ONOFF_ONLY:-}" ]; then
	for s in $ONOFF_ONLY; do only="$only shares:$s"; done
fi
rm -rf "$out"
mkdir -p "$out/on" "$out/off"

# run <on|off>: the steps, each one's output and its step line kept.
run() {
	local mode=$1 env=() d
	[ "$mode" = off ] && env=(IOBAND_CONTROLLER_OFF=1)
	say "shares with the controller $mode ($(date +%T))"
	env -u IOBAND_CONTROLLER_OFF -u RECORD_TIMES "${env[@]}" CHECK_ONLY="build-uml-perf ${only:-shares}" \
		"$TOP/scripts/check.sh" >"$out/$mode/check.log" 2>&1
	for d in "$BUILD"/runs/shares-*; do
		[ -f "$d/output" ] || continue
		cp "$d/output" "$out/$mode/$(basename "$d" | sed 's/^shares-//').out"
	done
	rm -rf "$BUILD"/runs/shares-*
}
rm -rf "$BUILD"/runs/shares-*
run on
run off

# The steps, in make check's order (its PASS/FAIL lines).
steps=$(sed -n 's/^\(PASS\|FAIL\)  *shares:\([^ ]*\) .*/\2/p' "$out/on/check.log")
[ -n "$steps" ] || die "no shares step ran (see $out/on/check.log)"
{
	echo "Made by \`scripts/shares-onoff.sh\` on $(date -u +%Y-%m-%d) at $state${only:+, for$only}"
	echo "# each shares: step of make check with the controller on, then off"
	echo "# (dm-linear in place of every band device); every check must fail off"
	printf '%-16s %-22s %s\n' step on off
	declare -A r ok nok
	for s in $steps; do
		for m in on off; do
			f=$out/$m/$s.out
			ok[$m]=$(grep -c '^ok - ' "$f" 2>/dev/null)
			nok[$m]=$(grep -c '^not ok - ' "$f" 2>/dev/null)
			r[$m]=$(sed -n "s/^\(PASS\|FAIL\)  *shares:$s .*/\1/p" "$out/$m/check.log")
		done
		[ $((ok[off] + nok[off])) -gt 0 ] ||
			die "shares:$s printed no check with the controller off (see $out/off)"
		printf '%-16s %-22s %s\n' "$s" \
			"${r[on]:-none} (${ok[on]:-0} ok, ${nok[on]:-0} not)" \
			"${r[off]:-none} (${ok[off]:-0} ok, ${nok[off]:-0} not)"
	done
	for s in $steps; do
		echo
		echo "$s:"
		a=$(grep -cE '^(ok|not ok) - ' "$out/on/$s.out" 2>/dev/null)
		b=$(grep -cE '^(ok|not ok) - ' "$out/off/$s.out" 2>/dev/null)
		[ "${a:-0}" = "${b:-0}" ] ||
			echo "  (on printed ${a:-0} checks, off ${b:-0}: the lines pair by position)"
		paste -d '\n' \
			<(grep -E '^(ok|not ok) - ' "$out/on/$s.out" 2>/dev/null | sed 's/^/  on:  /') \
			<(grep -E '^(ok|not ok) - ' "$out/off/$s.out" 2>/dev/null |
				sed 's/^ok - /PASSES OFF: ok - /; s/^/  off: /') |
			grep -v '^$'
	done
} >"$res"
passed_off=$(grep -c 'off: PASSES OFF' "$res")
say "results/shares-onoff.txt: $passed_off checks passed with the controller off"
"$TOP/scripts/update-readme.sh" "$TOP/Documentation/testing.md"
