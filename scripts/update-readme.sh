#!/bin/bash
# make readme: put the current figures of results/ into the documentation.
# No figure of a measurement is typed into README.md or Documentation/*.md:
# each sits in a block between two markers, each alone on its line,
#
#   <!-- results: seed000-test1.txt exclude="^(# t=|group=)" -->
#   ...generated: the selected lines of results/seed000-test1.txt...
#   <!-- /results -->
#
# and this script rewrites what is between them from results/<file>, as a
# fenced code block.  Markers may be indented (inside a list item); the
# block then is too.  Options in the opening marker (values in double
# quotes, without a double quote or "--" in them):
#
#   include="ERE"     keep only the lines that match (awk regex)
#   exclude="ERE"     drop the lines that match (applied after include)
#   if-missing="text" the file may be missing; the block then says text
#                     (without it, a missing file is an error)
#
# Blank lines at the start and end of the selection are dropped.  A file
# missing without if-missing, a selection of no line, or a marker without
# its end fails the run, and then no file is changed.  Running it twice
# changes nothing the second time.  make bench runs it at its end.
#
#   scripts/update-readme.sh            README.md and Documentation/*.md
#   scripts/update-readme.sh FILE...    those files
#   scripts/update-readme.sh --check    change nothing; exit 1 if a file
#                                       is not up to date with results/
#   RESULTS=dir ...                     read the results from dir
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS=${RESULTS:-$TOP/results}

check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
if [ $# -gt 0 ]; then
	files=("$@")
else
	files=("$TOP/README.md")
	for f in "$TOP"/Documentation/*.md; do
		grep -q -E '^ *<!-- */?results' "$f" && files+=("$f")
	done
fi
[ -d "$RESULTS" ] || { echo "update-readme: no directory $RESULTS" >&2; exit 1; }

# generate <file>: the file with every block regenerated, on stdout.
generate() {
	RESULTS=$RESULTS awk -v doc="$1" '
function fail(msg) {
	printf "update-readme: %s:%d: %s\n", doc, FNR, msg > "/dev/stderr"
	failed = 1
	exit 1
}
# parse(spec): sets name and opt[] from the text after "results: "
function parse(spec,   key, val, n) {
	delete_opts()
	sub(/^[ ]+/, "", spec)
	n = index(spec, " ")
	if (n == 0) { name = spec; spec = "" }
	else { name = substr(spec, 1, n - 1); spec = substr(spec, n + 1) }
	if (name == "" || name ~ /^\// || name ~ /(^|\/)\.\.(\/|$)/)
		fail("bad results file name \"" name "\"")
	while (1) {
		sub(/^[ ]+/, "", spec)
		if (spec == "")
			break
		if (!match(spec, /^[a-z-]+="/))
			fail("cannot read the options at: " spec)
		key = substr(spec, 1, RLENGTH - 2)
		spec = substr(spec, RLENGTH + 1)
		n = index(spec, "\"")
		if (n == 0)
			fail("option " key " has no closing quote")
		val = substr(spec, 1, n - 1)
		spec = substr(spec, n + 1)
		if (key != "include" && key != "exclude" && key != "if-missing")
			fail("unknown option " key)
		if (key in opt)
			fail("option " key " given twice")
		opt[key] = val
	}
}
function delete_opts(k) { for (k in opt) delete opt[k] }
# block(): print the generated lines of the block opened by the marker
function block(   path, line, rc, n, i, first, last, sel) {
	path = ENVIRON["RESULTS"] "/" name
	n = 0
	while ((rc = (getline line < path)) > 0) {
		if (("include" in opt) && line !~ opt["include"])
			continue
		if (("exclude" in opt) && line ~ opt["exclude"])
			continue
		sel[++n] = line
	}
	if (rc < 0) {
		if ("if-missing" in opt) {
			print indent opt["if-missing"]
			return
		}
		fail("results file " path " is missing (run make bench)")
	}
	close(path)
	first = 1
	while (first <= n && sel[first] ~ /^[ \t]*$/)
		first++
	last = n
	while (last >= first && sel[last] ~ /^[ \t]*$/)
		last--
	if (first > last)
		fail("the marker selects no line of " path)
	print indent "```"
	for (i = first; i <= last; i++) {
		if (sel[i] ~ /^```/)
			fail(path " has a line starting with ```")
		# An indented blank line would be trailing white space.
		print (sel[i] == "" ? "" : indent sel[i])
	}
	print indent "```"
}
/^[ ]*<!-- results: .* -->[ \t]*$/ {
	if (inblock)
		fail("a results marker inside the block opened at line " opened)
	spec = $0
	indent = $0
	sub(/<.*/, "", indent)
	sub(/^[ ]*<!-- results: /, "", spec)
	sub(/[ ]*-->[ \t]*$/, "", spec)
	parse(spec)
	print
	block()
	inblock = 1
	opened = FNR
	next
}
/^[ ]*<!-- \/results -->[ \t]*$/ {
	if (!inblock)
		fail("<!-- /results --> without an opening marker")
	inblock = 0
	print
	next
}
/^[ \t]*<!-- *\/?results/ {
	fail("a results marker must be alone on its line, as <!-- results: FILE ... --> or <!-- /results -->")
}
!inblock { print }
END {
	if (failed)
		exit 1
	if (inblock)
		fail("the block opened at line " opened " has no <!-- /results -->")
}
' "$1"
}

tmpdir=$(mktemp -d) || exit 1
trap 'rm -rf "$tmpdir"' EXIT
rc=0
i=0
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "update-readme: no file $f" >&2; rc=1; continue; }
	i=$((i + 1))
	generate "$f" >"$tmpdir/$i" || rc=1
done
[ "$rc" = 0 ] || { echo "update-readme: nothing changed" >&2; exit 1; }

# Every file generated: only now change the ones that differ.
i=0
stale=0
for f in "${files[@]}"; do
	i=$((i + 1))
	rel=${f#"$TOP"/}
	if cmp -s "$tmpdir/$i" "$f"; then
		echo "update-readme: $rel up to date" >&2
	elif [ "$check" = 1 ]; then
		echo "update-readme: $rel differs from results/:" >&2
		diff -u "$f" "$tmpdir/$i" >&2
		stale=1
	else
		cat "$tmpdir/$i" >"$f" || exit 1
		echo "update-readme: $rel updated" >&2
	fi
done
[ "$stale" = 0 ]
