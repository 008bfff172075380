#!/bin/bash
# Configure and build the x86-64 QEMU guest kernel (bzImage + modules):
#
#   scripts/qemu/build.sh [lockdep|kasan|kcsan]      (default: lockdep)
#
# tinyconfig + scripts/configs/qemu-base.config + qemu-<flavour>.config,
# merged with merge_config.sh; every option of the fragments must survive
# the merge (the build stops otherwise).  Output in build/qemu-<flavour>
# (O=), compiled with ccache under "nice -n 19".  A second run rebuilds
# only what changed; the configuration is redone when a fragment or the
# series changed.
#
# Environment:
#   KSRC=/path/to/linux   build another kernel source tree (with the series
#                         applied, e.g. your distribution's source) instead
#                         of build/linux; it must be clean (make mrproper)
#                         since the build goes to O=.  prepare-tree.sh is
#                         not run then.
#   QEMU_NO_PREPARE=1     do not run scripts/prepare-tree.sh on build/linux
#   QEMU_O=DIR            build in DIR instead of build/qemu-<flavour> (keep
#                         it at the same depth under build/ for ccache hits)
#   JOBS=N                make -j (default: number of CPUs)
set -eu
. "$(dirname "$0")/../lib/common.sh"

flavour=${1:-lockdep}
base=$TOP/scripts/configs/qemu-base.config
frag=$TOP/scripts/configs/qemu-$flavour.config
[ -f "$frag" ] || die "unknown flavour $flavour (no $frag)"
out=${QEMU_O:-$BUILD/qemu-$flavour}
src=${KSRC:-$TREE}
if [ -z "${KSRC:-}" ] && [ -z "${QEMU_NO_PREPARE:-}" ]; then
	"$TOP/scripts/prepare-tree.sh"
fi
[ -f "$src/Makefile" ] || die "no kernel source in $src"
mkdir -p "$out" "$LOGS"
log=$LOGS/$(basename "$out")-build.log
: >"$log"

kmake() {
	nice -n 19 make -C "$src" O="$out" ARCH=x86_64 \
		CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

# expected_options: the fragments' lines, the last one of each symbol
# winning (a flavour may turn off what the base turns on).
expected_options() {
	cat "$base" "$frag" | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s); v[s] = $0; o[++n] = s }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { s = $2; v[s] = $0; o[++n] = s }
		END { for (i = 1; i <= n; i++) if (!seen[o[i]]++) print v[o[i]] }'
}

stamp=$out/.ioband-config-stamp
series_id=$(cat "$src/.git/ioband-series" 2>/dev/null || echo none)
want=$( (cat "$base" "$frag"; echo "$series_id $src") | sha1sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring $flavour kernel in $out"
	{
		kmake tinyconfig &&
		(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh \
			-m -O "$out" "$out/.config" "$base" "$frag") &&
		kmake olddefconfig
	} >>"$log" 2>&1 || { tail -30 "$log" >&2; die "configuration failed, see $log"; }
	bad=0
	while IFS= read -r l; do
		case "$l" in
		CONFIG_*=*)
			grep -qx "$l" "$out/.config" || {
				say "config option did not survive: $l (have: $(grep "^${l%%=*}=" "$out/.config" || echo unset))"
				bad=1
			} ;;
		'# CONFIG_'*)
			sym=${l#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$out/.config" && {
				say "config option did not survive: $l (have: $(grep "^$sym=" "$out/.config"))"
				bad=1
			} ;;
		esac
	done < <(expected_options)
	[ "$bad" = 0 ] || die "the $flavour configuration lost options, see $log"
	echo "$want" >"$stamp"
fi

say "building $flavour kernel: bzImage modules ($out)"
t0=$(date +%s)
if ! kmake bzImage modules >>"$log" 2>&1; then
	grep -E -B2 -A5 'error|Error' "$log" | tail -40 >&2
	die "build failed, see $log"
fi
say "built $out/arch/x86/boot/bzImage in $(($(date +%s) - t0))s"
