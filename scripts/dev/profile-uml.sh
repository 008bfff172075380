#!/bin/bash
# Where the CPU goes per bio: boot the UML perf kernel, run fio on
# dm-linear and on dm-ioband in turn (scripts/dev/profile.guest.sh) and
# profile the UML processes from the host with perf (UML's kernel is a
# host process: its functions resolve from build/uml-perf/linux).
# A developer's tool, not a test.
#
#   scripts/dev/profile-uml.sh [--runtime S] [--batch N] [CONFIG...]
#   CONFIG: linear ioband linear2 contended (default: linear ioband)
# The summary goes to results/profile-uml.txt, the reports to
# build/runs/profile.guest/perf-<config>.txt: the share of
# the UML kernel's samples per function (scripts/dev/uml-syms.py; UML maps
# its text from a deleted file, which perf cannot read).
set -u
. "$(dirname "$0")/../lib/common.sh"

runtime=10
gargs=()
cfgs=()
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; gargs+=(--runtime "$2"); shift ;;
	--batch) gargs+=(--batch "$2"); shift ;;
	*) cfgs+=("$1") ;;
	esac
	shift
done
[ ${#cfgs[@]} -gt 0 ] || cfgs=(linear ioband)
command -v perf >/dev/null || die "no perf: apt-get install linux-perf"
run=$BUILD/runs/profile.guest
kernel=$BUILD/uml-perf/linux

"$TOP/scripts/uml-run.sh" -k perf -p -t 900 -m 1536M \
	"$TOP/scripts/dev/profile.guest.sh" "${gargs[@]}" "${cfgs[@]}" &
guest=$!
for c in "${cfgs[@]}"; do
	while [ ! -e "$run/go-$c" ]; do
		kill -0 $guest 2>/dev/null || die "the guest stopped"
		sleep 0.2
	done
	sleep 1
	perf record -q -a -e cpu-clock -F 4000 -o "$run/perf-$c.data" -- \
		sleep $((runtime - 2)) >/dev/null 2>&1
	perf script -i "$run/perf-$c.data" -F ip 2>/dev/null |
		"$TOP/scripts/dev/uml-syms.py" "$kernel" 0.2 >"$run/perf-$c.txt"
done
wait $guest
rc=$?
# results/profile-uml.txt: the summary
{
	echo "Made by scripts/dev/profile-uml.sh on $(date -u +%Y-%m-%d) at $(source_state), pinned to one host CPU"
	grep ' iops ' "$run/output"
	for c in "${cfgs[@]}"; do
		echo "$c: $(head -1 "$run/perf-$c.txt");" \
			"dm-ioband's functions (ioband_*, iob_*): $(grep -E ' (ioband|iob)_' "$run/perf-$c.txt" |
			awk '{ s += $1 } END { printf "%.2f%%", s }') of them"
	done
} >"$TOP/results/profile-uml.txt"
cat "$TOP/results/profile-uml.txt"
for c in "${cfgs[@]}"; do
	say "$c: $run/perf-$c.txt"
	head -25 "$run/perf-$c.txt"
done
exit $rc
