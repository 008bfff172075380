#!/bin/bash
# Every table in results/ says where it came from: a commit in its first
# three lines ("at commit <sha>", check-times.txt's "commit <sha>"), and,
# when it was made on a tree with uncommitted changes, that it was (the
# generators write "(with uncommitted changes)"; scripts/lib/common.sh's
# source_state).  A PNG comes with the table of the same experiment
# (seed004-dd-*.png with seed004-dd.txt).
set -u
. "$(dirname "$0")/lib/common.sh"
bad=0
n=0
for f in "$TOP"/results/*.txt "$TOP"/results/README.md; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	if ! head -3 "$f" | grep -qE 'commit +[0-9a-f]{7,40}'; then
		echo "${f#"$TOP"/}: no commit in its first three lines"
		bad=1
	fi
done
for p in "$TOP"/results/*.png; do
	[ -f "$p" ] || continue
	found=
	for f in "$TOP"/results/*.txt; do
		t=$(basename "$f" .txt)
		case $(basename "$p") in "$t"-*) found=$t ;; esac
	done
	if [ -z "$found" ]; then
		echo "${p#"$TOP"/}: no table of its experiment beside it"
		bad=1
	fi
done
echo "results/: $n tables checked"
exit $bad
