#!/bin/bash
# check-no-fixups.sh <git dir> <base> <head>: fail if a commit of
# base..head fixes another commit of the series instead of being folded
# into it:
#   - its subject starts with "fixup!", "squash!" or "amend!" (made by
#     git commit --fixup/--squash and not yet autosquashed);
#   - it has a "Fixes:" tag that names a commit of base..head, or the
#     subject of one;
#   - its message says it is to be folded into an earlier patch, or names
#     an earlier patch of the series by its subject (as "Since 'add X',
#     ..." does: a change of what that patch did belongs in it).
# make export runs it on build/linux; make check runs it on the patches as
# applied to a pristine tree.
set -eu
dir=$1 base=$2 head=$3
bad=0
# Every commit's full id and subject, read once, oldest first.
mapfile -t ids < <(git -C "$dir" rev-list --reverse "$base..$head")
mapfile -t subjs < <(git -C "$dir" log --reverse --format=%s "$base..$head")
subjects=$(printf '%s\n' "${subjs[@]}")
for i in "${!ids[@]}"; do
	c=${ids[$i]}
	subj=${subjs[$i]}
	msg=$(git -C "$dir" log -1 --format=%B "$c")
	case "$subj" in
	fixup!* | squash!* | amend!*)
		echo "$(git -C "$dir" rev-parse --short "$c") $subj: not folded (git rebase -i --autosquash $base)"
		bad=1
		continue
		;;
	esac
	while read -r tag ref rest; do
		[ "$tag" = Fixes: ] || continue
		for d in "${ids[@]}"; do
			case "$d" in
			"$ref"*)
				echo "$(git -C "$dir" rev-parse --short "$c") $subj: fixes $ref, a commit of the series"
				bad=1
				;;
			esac
		done
		# Fixes: <id> ("<subject>"): the subject may name a patch of
		# the series whose id changed with a rebase.
		title=${rest#(\"}
		title=${title%\")}
		if [ -n "$title" ] && grep -qxF -- "$title" <<<"$subjects"; then
			echo "$(git -C "$dir" rev-parse --short "$c") $subj: fixes \"$title\", a patch of the series"
			bad=1
		fi
	done <<<"$msg"
	# The subjects before this one, without their "dm-ioband: " prefixes,
	# that are long enough not to match by chance.
	flat=$(tr '\n' ' ' <<<"$msg" | tr -s ' ' | tr '[:upper:]' '[:lower:]')
	for ((j = 0; j < i; j++)); do
		prev=$(sed 's/.*: //' <<<"${subjs[$j]}" | tr '[:upper:]' '[:lower:]')
		[ "${#prev}" -gt 20 ] || continue
		if grep -qF -- "$prev" <<<"$flat"; then
			echo "$(git -C "$dir" rev-parse --short "$c") $subj: names the earlier patch \"$prev\""
			bad=1
		fi
	done
	if grep -qiE 'to be folded|fold(ed)? into (the|an earlier|patch)' <<<"$msg"; then
		echo "$(git -C "$dir" rev-parse --short "$c") $subj: says it is to be folded into another patch"
		bad=1
	fi
done
exit $bad
