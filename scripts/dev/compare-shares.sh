#!/bin/bash
# The checks of make check's share steps from two runs, side by side: for
# each step, its check lines ("ok - ..." and "not ok - ...") from run A
# and from run B, interleaved, so that each figure of one run sits above
# the same figure of the other.
#
#   scripts/dev/compare-shares.sh LABEL_A DIR_A LABEL_B DIR_B
#
# DIR is a check.sh run directory (build/runs, with shares-STEP/output)
# or a directory of STEP.out files.  Steps present in only one run are
# printed with the other side empty.
set -u
[ $# = 4 ] || { echo "usage: $0 LABEL_A DIR_A LABEL_B DIR_B" >&2; exit 2; }
la=$1 da=$2 lb=$3 db=$4

# out DIR STEP: the output file of STEP in DIR, if any
out() {
	if [ -f "$1/shares-$2/output" ]; then
		echo "$1/shares-$2/output"
	elif [ -f "$1/$2.out" ]; then
		echo "$1/$2.out"
	fi
}

steps() {
	local d
	for d in "$@"; do
		ls "$d" 2>/dev/null | sed -n -e 's/^shares-\(.*\)$/\1/p' \
			-e 's/^\(.*\)\.out$/\1/p'
	done | sort -u
}

w=$(( ${#la} > ${#lb} ? ${#la} : ${#lb} ))
for s in $(steps "$da" "$db"); do
	echo "## $s"
	fa=$(out "$da" "$s") fb=$(out "$db" "$s")
	awk -v la="$la" -v lb="$lb" -v w="$w" '
		/^(ok|not ok) / { if (FILENAME == ARGV[1]) a[na++] = $0; else b[nb++] = $0 }
		END {
			n = na > nb ? na : nb
			for (i = 0; i < n; i++) {
				if (i < na) printf "%-*s  %s\n", w, la, a[i]
				else printf "%-*s  (no check)\n", w, la
				if (i < nb) printf "%-*s  %s\n", w, lb, b[i]
				else printf "%-*s  (no check)\n", w, lb
			}
		}' "${fa:-/dev/null}" "${fb:-/dev/null}"
	echo
done
