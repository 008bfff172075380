#!/bin/bash
# Export the commits of build/linux on top of "base" into patches/ and
# rewrite series in the same order, keeping the banner comment that stood
# above each patch (a new patch inherits the banner of the one before it).
# Nobody edits the .patch files by hand.
set -eu
. "$(dirname "$0")/lib/common.sh"

[ -d "$TREE/.git" ] || die "no tree: run scripts/prepare-tree.sh"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes: commit or amend them first"

# The series is base..ioband: refuse anything else (a git am stopped in
# the middle, another branch checked out, nothing on top of base), which
# would export the wrong range or none after patches/ is emptied.
[ "$(git -C "$TREE" symbolic-ref -q HEAD)" = refs/heads/ioband ] ||
	die "build/linux is not on branch ioband"
[ ! -d "$TREE/.git/rebase-apply" ] && [ ! -d "$TREE/.git/rebase-merge" ] ||
	die "build/linux is in the middle of a git am or rebase"
git -C "$TREE" merge-base --is-ancestor base HEAD ||
	die "build/linux's HEAD is not on top of base"
[ -n "$(git -C "$TREE" rev-list base..HEAD)" ] ||
	die "build/linux has no commit on top of base"
# A fix goes into the patch it fixes (git commit --fixup, then git rebase
# -i --autosquash base), never on the end of the series.
"$TOP/scripts/check-no-fixups.sh" "$TREE" base HEAD ||
	die "the series has patches that fix others: fold them first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Old banner of each patch name.
declare -A banner_of
banner=
if [ -f "$TOP/series" ]; then
	while IFS= read -r line; do
		case "$line" in
		'#:'*) ;;
		'#'*) banner="$banner$line"$'\n' ;;
		'') ;;
		*) banner_of[$line]=$banner; banner= ;;
		esac
	done <"$TOP/series"
fi

git -C "$TREE" format-patch -q --zero-commit --signature=dm-ioband --no-numbered \
	--no-stat -o "$tmp" base..HEAD
git -C "$TREE" format-patch -q --zero-commit --signature=dm-ioband --no-numbered \
	-o "$tmp/stat" base..HEAD

rm -f "$TOP"/patches/*.patch
# The cover letter: git's, with the subject and text of
# Documentation/cover-letter.txt (first line: the subject), dated as the
# series' last commit (git dates it now: every export would change it).
git -C "$TREE" format-patch -q --zero-commit --signature=dm-ioband \
	--cover-letter -o "$tmp/cover" base..HEAD
python3 - "$tmp"/cover/0000-cover-letter.patch \
	"$TOP/Documentation/cover-letter.txt" \
	"$TOP/patches/0000-cover-letter.patch" \
	"$(git -C "$TREE" log -1 --format=%aD HEAD)" <<'PY'
import re, sys
cover, text, out, date = sys.argv[1:]
subject, blurb = open(text).read().split("\n===BLURB===\n", 1)
c = open(cover).read()
c = re.sub(r"^Date: .*$", "Date: " + date, c, count=1, flags=re.M)
c = c.replace("*** SUBJECT HERE ***", subject.strip())
c = c.replace("*** BLURB HERE ***", blurb.rstrip())
open(out, "w").write(c)
PY
{
	echo "#: dm-ioband patch series for Linux $KSRC_VERSION"
	echo "#: (Debian $KSRC_PKG $KSRC_PKG_VERSION).  Written by"
	echo "#: scripts/export-patches.sh; banners (# lines) may be edited here."
} >"$tmp/series"
last=
for f in "$tmp"/stat/*.patch; do
	name=$(basename "$f" | sed 's/^[0-9]\{4\}-//')
	cp "$f" "$TOP/patches/$name"
	b=${banner_of[$name]:-}
	if [ -n "$b" ]; then
		printf '\n%s' "$b" >>"$tmp/series"
		last=$b
	elif [ -z "$last" ]; then
		last=$'#####\n# dm-ioband\n#####\n'
		printf '\n%s' "$last" >>"$tmp/series"
	fi
	echo "$name" >>"$tmp/series"
done
cat -s "$tmp/series" >"$TOP/series"
say "exported $(grep -c -v -e '^#' -e '^$' "$TOP/series") patches and the cover letter"
# Readable copies of what the series adds, for people browsing the repo.
cp "$TREE/Documentation/admin-guide/device-mapper/dm-ioband.rst" \
	"$TOP/Documentation/dm-ioband.rst"
awk '/^DEVICE-MAPPER IOBAND TARGET$/ { p = 1 } p && /^$/ { exit } p' \
	"$TREE/MAINTAINERS" >"$TOP/MAINTAINERS-snippet"
# Record the tree as matching the new patches.
"$TOP/scripts/prepare-tree.sh" --stamp-only
