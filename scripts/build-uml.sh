#!/bin/bash
# Configure and build a UML kernel with ccache:
#   scripts/build-uml.sh        the end-to-end test kernel, build/uml-e2e
#                               (scripts/configs/uml-e2e.config: lockdep,
#                               KASAN and the other debug options)
#   scripts/build-uml.sh perf   the same without the debug options,
#                               build/uml-perf, for benchmarks
# A second run only rebuilds what changed.
set -eu
. "$(dirname "$0")/lib/common.sh"

variant=${1:-e2e}
frag=$TOP/scripts/configs/uml-$variant.config
[ -f "$frag" ] || die "no config fragment $frag"
UML_E2E=$BUILD/uml-$variant
"$TOP/scripts/prepare-tree.sh"
mkdir -p "$UML_E2E" "$LOGS"

stamp=$UML_E2E/.ioband-config-stamp
want=$(cat "$frag" "$TREE/.git/ioband-series" | sha1sum | cut -d' ' -f1)
if [ ! -f "$UML_E2E/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring UML kernel"
	uml_make "$UML_E2E" defconfig >"$LOGS/uml-$variant-config.log" 2>&1
	(cd "$TREE" && ARCH=um SUBARCH=x86_64 scripts/kconfig/merge_config.sh \
		-m -O "$UML_E2E" "$UML_E2E/.config" "$frag") \
		>>"$LOGS/uml-$variant-config.log" 2>&1
	uml_make "$UML_E2E" olddefconfig >>"$LOGS/uml-$variant-config.log" 2>&1
	# Every option of the fragment must have stuck.
	bad=0
	while IFS= read -r l; do
		case "$l" in
		CONFIG_*=*) grep -qx "$l" "$UML_E2E/.config" || {
			say "config option did not stick: $l"; bad=1; } ;;
		'# CONFIG_'*' is not set')
			sym=${l#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$UML_E2E/.config" && {
				say "config option did not stick: $l"; bad=1; } ;;
		esac
	done <"$frag"
	[ "$bad" = 0 ] || die "see $LOGS/uml-$variant-config.log"
	echo "$want" >"$stamp"
fi
say "building UML kernel ($UML_E2E/linux)"
if ! uml_make "$UML_E2E" linux >"$LOGS/uml-$variant-build.log" 2>&1; then
	grep -E -B2 -A5 'error|Error' "$LOGS/uml-$variant-build.log" | tail -40 >&2
	die "UML build failed, see $LOGS/uml-$variant-build.log"
fi
