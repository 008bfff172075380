#!/bin/bash
# The series under Debian's own amd64 configuration (issue 28): the tree
# configured from the .config of Debian's 6.12.117 kernel
# (linux-headers-<K>'s, the image's /boot/config-<K> less its signing
# lines) with CONFIG_DM_IOBAND=m, make olddefconfig, and drivers/md built
# with W=1 (x86-64, in build/debian-config).  Every warning is listed;
# one in a file the series adds or changes (or a header it changes,
# reported from any file) fails.
#
#   scripts/dkms/build-debian-config.sh
set -u
. "$(dirname "$0")/../lib/common.sh"
K=${DKMS_KERNEL:-$KSRC_VERSION+deb12-amd64}
cfg=/usr/src/linux-headers-$K/.config
[ -f "$cfg" ] || cfg=/boot/config-$K
[ -f "$cfg" ] || die "no configuration of $K: apt-get install linux-headers-$K"
o=$BUILD/debian-config
mkdir -p "$o" "$LOGS"
cp "$cfg" "$o/.config"
(
	cd "$TREE" &&
	# no signing key, no trusted keys of Debian's: build-only
	scripts/config --file "$o/.config" --module DM_IOBAND \
		--disable DM_IOBAND_KUNIT_TEST --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str MODULE_SIG_KEY "certs/signing_key.pem" \
		--disable MODULE_SIG_ALL --set-str SYSTEM_REVOCATION_KEYS "" \
		--disable DEBUG_INFO_BTF
) || exit 1
make -C "$TREE" O="$o" CC="ccache gcc" olddefconfig >"$LOGS/debian-config.log" 2>&1 ||
	die "olddefconfig failed (see $LOGS/debian-config.log)"
grep -q '^CONFIG_DM_IOBAND=m$' "$o/.config" || die "CONFIG_DM_IOBAND=m did not stay"
# The series' objects are always compiled again, so that their warnings
# are printed even in an incremental build (the count "in all" covers
# only what was compiled).
changed=$(git -C "$TREE" diff --name-only base..HEAD | grep -E '\.[ch]$')
for f in $(echo "$changed" | grep '^drivers/md/.*\.c$'); do
	rm -f "$o/${f%.c}.o"
done
say "building drivers/md with Debian's configuration, W=1 (build/debian-config)"
make -C "$TREE" O="$o" CC="ccache gcc" -j"$JOBS" W=1 drivers/md/ \
	>"$LOGS/debian-config-build.log" 2>&1
rc=$?
[ "$rc" = 0 ] || { tail -30 "$LOGS/debian-config-build.log"; die "drivers/md did not build"; }
warnings=$(grep -E ': warning: ' "$LOGS/debian-config-build.log" | sort -u)
n=$(printf '%s' "$warnings" | grep -c . || true)
ours=$(printf '%s\n' "$warnings" | grep -F -f <(echo "$changed") || true)
echo "drivers/md with Debian's configuration, W=1: $n warnings in what was compiled"
printf '%s\n' "$warnings" | sed 's/^/  /' | head -50
if [ -n "$ours" ]; then
	echo "in files the series adds or changes:"
	printf '%s\n' "$ours" | sed 's/^/  /'
	exit 1
fi
echo "none in the files the series adds or changes ($(echo "$changed" | wc -l) files)"
