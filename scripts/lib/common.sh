# shellcheck shell=bash
# Common settings for every dm-ioband script.  Sourced, never run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}

# The base the series is written against: Debian's linux-source-6.12.
KSRC_PKG=linux-source-6.12
KSRC_PKG_VERSION=6.12.117-1~deb12u1
KSRC_VERSION=6.12.117
KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

TREE=$BUILD/linux                # patched tree (a git repo: tags "pristine", "base")
UML_E2E=$BUILD/uml-e2e           # O= dir of the end-to-end UML kernel
KUNIT_BUILD=$BUILD/kunit         # kunit.py --build_dir
LOGS=$BUILD/logs

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_NOHASHDIR=1

JOBS=${JOBS:-$(nproc)}

# source_state: what a results/ file was made from, "commit <short>
# (clean tree)" or "commit <short> (with uncommitted changes)" (tracked
# files only: build/ and other ignored or untracked files do not count).
source_state() {
	local c
	c=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null) || {
		echo "an unknown commit"
		return
	}
	if git -C "$TOP" diff --quiet HEAD 2>/dev/null; then
		echo "commit $c (clean tree)"
	else
		echo "commit $c (with uncommitted changes)"
	fi
}

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# uml_make <O-dir> <args...>: make for ARCH=um in the patched tree.
uml_make() {
	local o=$1
	shift
	make -C "$TREE" O="$o" ARCH=um SUBARCH=x86_64 \
		CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}
