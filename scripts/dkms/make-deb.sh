#!/bin/bash
# Make dm-ioband-dkms_<version>-1_all.deb in build/dkms/: the DKMS source
# tree of scripts/dkms/make-source.sh under /usr/src/dm-ioband-<version>,
# and maintainer scripts that have DKMS build and install dm-mod and
# dm-ioband for every installed kernel with headers that the sources are
# for (Debian's 6.12.117 kernels), in /lib/modules/<kernel>/updates/dkms,
# which depmod searches before the kernel's own modules, then update
# those kernels' initramfs (dm-mod is in it on LVM or LUKS roots).
# Kernels installed later get them through DKMS's kernel hook, which runs
# before initramfs-tools' own.
#
#   scripts/dkms/make-deb.sh [TREE]
#
# Prints the .deb's path.
set -eu
. "$(dirname "$0")/../lib/common.sh"
command -v dpkg-deb >/dev/null || die "dpkg-deb missing"

src=$("$TOP/scripts/dkms/make-source.sh" "$@")
ver=${src##*/dm-ioband-}
pkg=dm-ioband-dkms
st=$BUILD/dkms/deb
rm -rf "$st"
mkdir -p "$st/DEBIAN" "$st/usr/src" "$st/usr/share/doc/$pkg"
cp -r "$src" "$st/usr/src/dm-ioband-$ver"
cp "$TOP/Documentation/dm-ioband.rst" "$st/usr/share/doc/$pkg/"
cat >"$st/usr/share/doc/$pkg/copyright" <<EOT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: dm-ioband
Source: the dm-ioband patch series for Linux 6.12

Files: *
Copyright: the Linux kernel's authors, and the dm-ioband developers
License: GPL-2.0-only
 On Debian systems, the full text of the GNU General Public License
 version 2 can be found in the file /usr/share/common-licenses/GPL-2.
EOT

cat >"$st/DEBIAN/control" <<EOT
Package: $pkg
Version: $ver-1
Architecture: all
Section: kernel
Priority: optional
Depends: dkms (>= 3.0), initramfs-tools | linux-initramfs-tool
Recommends: linux-headers-amd64 | linux-headers-generic
Maintainer: dm-ioband developers <dm-ioband@lists.example.org>
Installed-Size: $(du -sk "$st/usr" | cut -f1)
Description: dm-ioband device-mapper target (DKMS) for Debian's 6.12.117 kernels
 dm-ioband shares a block device's bandwidth between jobs by weight, with
 floors and ceilings: band devices on the partitions or volumes of one
 disk share one pool, and band groups (processes, users, cgroups) share a
 band device.  This package builds, with DKMS, the dm-ioband module and
 dm-mod with the dm core changes it needs, for the installed kernels of
 release 6.12.117 (linux-image-6.12.117+deb12-amd64) whose headers are
 installed; they replace the kernel's own dm-mod.  Kernels of other
 releases are left alone.
EOT

# maint_head <script>: the start both maintainer scripts share: the
# package's name and version, and initramfs_update <kernel>, which updates
# that kernel's initramfs if it has one.
maint_head() {
	cat >"$1" <<EOT
#!/bin/sh
set -e
NAME=dm-ioband
VERSION=$ver
EOT
	cat >>"$1" <<'EOT'
initramfs_update() {
	if command -v update-initramfs >/dev/null &&
		[ -e "/boot/initrd.img-$1" ]; then
		update-initramfs -u -k "$1"
	fi
}
EOT
}

maint_head "$st/DEBIAN/postinst"
cat >>"$st/DEBIAN/postinst" <<'EOT'
[ "$1" = configure ] || exit 0
dkms status -m $NAME -v $VERSION | grep -q . || dkms add -m $NAME -v $VERSION
for d in /lib/modules/*; do
	k=${d##*/}
	[ -e "$d/build" ] || continue
	# exit status 77: not a kernel these sources are for (BUILD_EXCLUSIVE)
	rc=0
	dkms install -m $NAME -v $VERSION -k "$k" || rc=$?
	case $rc in
	0) initramfs_update "$k" ;;
	77) echo "dm-ioband: not built for $k (its sources are for another release)" ;;
	*) echo "dm-ioband: DKMS could not build for $k (exit $rc)" >&2; exit $rc ;;
	esac
done
exit 0
EOT
maint_head "$st/DEBIAN/prerm"
cat >>"$st/DEBIAN/prerm" <<'EOT'
case "$1" in
remove|upgrade|deconfigure)
	kernels=$(dkms status -m $NAME -v $VERSION 2>/dev/null |
		sed -n 's/^[^,]*, \([^,:]*\)[,:].*installed.*/\1/p')
	dkms remove -m $NAME -v $VERSION --all || true
	# the kernel's own dm-mod back in the initramfs
	for k in $kernels; do
		initramfs_update "$k" || true
	done ;;
esac
exit 0
EOT
chmod 755 "$st/DEBIAN/postinst" "$st/DEBIAN/prerm"
deb=$BUILD/dkms/${pkg}_$ver-1_all.deb
dpkg-deb --root-owner-group -Zxz --build "$st" "$deb" >/dev/null
echo "$deb"
