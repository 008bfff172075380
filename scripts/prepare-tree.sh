#!/bin/bash
# Unpack Debian's linux-source-6.12 into build/linux (once), make it a git
# repository with the pristine source tagged "pristine" and that plus the
# rig's patches (scripts/rig/) tagged "base", and apply the series on base
# with git am (branch "ioband").  Re-running is cheap: when the applied series matches
# patches/ and series, nothing is touched (so builds stay incremental).
#
#   scripts/prepare-tree.sh            prepare build/linux
#   scripts/prepare-tree.sh --pristine apply the series to a fresh checkout
#                                      of "pristine" (build/pristine) and fail
#                                      on any patch that does not apply
#                                      exactly; used by "make check"
#   FORCE=1 scripts/prepare-tree.sh    drop unexported work in build/linux
#   scripts/prepare-tree.sh --stamp-only  record build/linux as matching
#                                      patches/ (after an export)
set -eu
. "$(dirname "$0")/lib/common.sh"

mkdir -p "$BUILD"

unpack() {
	if [ -d "$TREE/.git" ]; then
		git -C "$TREE" rev-parse -q --verify pristine >/dev/null ||
			die "build/linux predates the rig patches (no tag \"pristine\"):
       remove build/linux (make clean keeps the ccache) and run again"
		return 0
	fi
	[ -f "$KSRC_TARBALL" ] || die "$KSRC_TARBALL missing: run scripts/deps.sh"
	say "unpacking $KSRC_TARBALL into $TREE"
	rm -rf "$TREE" "$BUILD/linux-source-6.12"
	tar -C "$BUILD" -xJf "$KSRC_TARBALL"
	mv "$BUILD/linux-source-6.12" "$TREE"
	local v
	v=$(make -s -C "$TREE" kernelversion)
	[ "$v" = "$KSRC_VERSION" ] ||
		say "WARNING: tree is $v, the series is based on $KSRC_VERSION"
	(
		cd "$TREE"
		git init -q -b base-branch
		git config user.name "dm-ioband developers"
		git config user.email "dm-ioband@lists.example.org"
		git config core.autocrlf false
		git config gc.auto 0
		git add -A -f . >/dev/null
		git commit -q -m "Linux $v (Debian $KSRC_PKG)" --no-verify
		# Debian's top-level .gitignore ignores everything ("/*"),
		# which would hide new files from "git add"; drop that block
		# in a commit of its own (no patch touches .gitignore).
		sed -i '/^# Debian packaging/,/^!\/debian\//d' .gitignore
		git commit -q -a -m "local: track new files (drop Debian's /* ignore)"
		git tag pristine
	)
	rig_patches
	echo "$v" > "$TREE/.git/ioband-base-version"
}

# rig_patches: on top of "pristine", the fixes the test rig needs in the
# tree it builds (scripts/rig/*.patch, not part of the series: UML on
# hosts with AMX), as "local:" commits; "base" is the result.  The series
# is checked to apply to "pristine" too (--pristine).
rig_patches() {
	local p
	git -C "$TREE" checkout -q -f -B base-branch pristine
	for p in "$TOP"/scripts/rig/*.patch; do
		[ -f "$p" ] || continue
		git -C "$TREE" am -q --no-3way "$p" ||
			die "rig patch $p does not apply"
	done
	git -C "$TREE" tag -f base >/dev/null
	rig_stamp >"$TREE/.git/ioband-rig"
}

rig_stamp() {
	cat "$TOP"/scripts/rig/*.patch 2>/dev/null | sha1sum | cut -d' ' -f1
}

series_patches() {
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$TOP/series" || true
}

series_stamp() {
	(cd "$TOP" && cat series && series_patches | sed 's|^|patches/|' |
		xargs -r cat) | sha1sum | cut -d' ' -f1
}

# apply_series <git dir>: check out "base" and git am every patch.
# apply_series <git dir> [<onto> <branch>]: check out a branch (default
# "ioband") at "base" (or <onto>) and git am every patch.
apply_series() {
	local dir=$1 onto=${2:-base} branch=${3:-ioband} p n=0
	git -C "$dir" am --abort >/dev/null 2>&1 || true
	git -C "$dir" checkout -q -f -B "$branch" "$onto"
	git -C "$dir" clean -q -f -d >/dev/null
	for p in $(series_patches); do
		n=$((n + 1))
		[ -f "$TOP/patches/$p" ] || die "series names missing patches/$p"
		if ! git -C "$dir" am -q --no-3way --whitespace=error-all \
				"$TOP/patches/$p" >"$BUILD/am.log" 2>&1; then
			cat "$BUILD/am.log" >&2
			git -C "$dir" am --abort >/dev/null 2>&1 || true
			die "patch $n ($p) does not apply cleanly"
		fi
	done
	say "applied $n patches"
}

if [ "${1:-}" = --pristine ]; then
	unpack
	P=$BUILD/pristine
	git -C "$TREE" worktree remove -f "$P" >/dev/null 2>&1 || rm -rf "$P"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$P" pristine
	# a branch of its own: "ioband" is build/linux's
	apply_series "$P" pristine pristine-check
	git -C "$TREE" worktree remove -f "$P"
	git -C "$TREE" branch -q -D pristine-check 2>/dev/null || true
	exit 0
fi

unpack
stamp=$(series_stamp)
stampf=$TREE/.git/ioband-series
if [ "${1:-}" = --stamp-only ]; then
	echo "$stamp $(git -C "$TREE" rev-parse HEAD)" >"$stampf"
	exit 0
fi
# has_local_work: build/linux has commits or edits not recorded in the stamp
has_local_work() {
	local old_stamp old_head
	[ -f "$stampf" ] || return 1
	read -r old_stamp old_head <"$stampf" || true
	[ "$old_head" != "$(git -C "$TREE" rev-parse HEAD)" ] ||
		[ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]
}
if [ "$(cat "$TREE/.git/ioband-rig" 2>/dev/null)" != "$(rig_stamp)" ]; then
	# Other rig patches: "base" is made again, the series applied again.
	if has_local_work && [ "${FORCE:-0}" != 1 ]; then
		die "scripts/rig/ changed, but build/linux has work not exported
       to patches/ (run 'make export' to keep it, or FORCE=1 to throw
       it away)"
	fi
	say "scripts/rig/ changed: making base again"
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	rig_patches
	rm -f "$stampf"
fi
if [ -f "$stampf" ]; then
	read -r old_stamp _ <"$stampf" || true
	local_work=
	has_local_work && local_work=1
	if [ "$old_stamp" = "$stamp" ] && [ "${FORCE:-0}" != 1 ]; then
		# patches/ did not change: keep the tree, with any edits a
		# developer is making in it.
		[ -n "$local_work" ] &&
			say "note: build/linux has changes not exported to patches/"
		exit 0
	fi
	if [ -n "$local_work" ] && [ "${FORCE:-0}" != 1 ]; then
		die "patches/ changed, but build/linux has work not exported
       to patches/ (run 'make export' to keep it, or FORCE=1 to throw
       it away)"
	fi
fi
apply_series "$TREE"
echo "$stamp $(git -C "$TREE" rev-parse HEAD)" >"$stampf"
