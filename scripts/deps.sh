#!/bin/bash
# Install every Debian package the project needs.  Idempotent: does
# nothing when all of them are present.
set -eu
. "$(dirname "$0")/lib/common.sh"

pkgs="build-essential bc bison flex libelf-dev libssl-dev xz-utils git
ccache quilt sparse python3 fio dmsetup blktrace fdisk e2fsprogs
util-linux kmod procps gnuplot-nox python3-ply python3-git
qemu-system-x86 busybox-static cpio python3-docutils"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if ! dpkg-query -W -f='${Version}' "$KSRC_PKG" 2>/dev/null |
		grep -qx "$KSRC_PKG_VERSION"; then
	want_src=1
else
	want_src=0
fi
[ -z "$missing" ] && [ "$want_src" = 0 ] && exit 0

[ "$(id -u)" = 0 ] || die "missing packages:$missing $KSRC_PKG; run as root"
export DEBIAN_FRONTEND=noninteractive
say "apt-get install$missing"
apt-get update -qq || true
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ "$want_src" = 1 ]; then
	say "installing $KSRC_PKG=$KSRC_PKG_VERSION (pinned)"
	if ! apt-get install -y -qq --no-install-recommends --allow-downgrades \
			"$KSRC_PKG=$KSRC_PKG_VERSION" >/dev/null; then
		say "WARNING: $KSRC_PKG $KSRC_PKG_VERSION is no longer served;"
		say "WARNING: installing the current one; the series must still apply"
		apt-get install -y -qq --no-install-recommends "$KSRC_PKG" >/dev/null
	fi
fi
