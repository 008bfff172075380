# shellcheck shell=bash
# Sourced by scripts/dev/shares-under-load.sh, after common.sh: a parallel
# kernel build (make -j$(nproc), ccache off, x86-64 defconfig of the
# patched tree in build/load-build, over and over) that keeps every host
# CPU busy while the caller measures.
#
# load_build_start <seconds>: prepare the tree and the perf UML kernel,
# start the loop, let it run <seconds>, and die if it already failed.
# Sets $loader; the loop stops when the caller exits.
# load_build_alive <what>: die if the loop stopped (during <what>).

load_build_start() {
	local kb=$BUILD/load-build

	"$TOP/scripts/prepare-tree.sh" || exit 1
	"$TOP/scripts/build-uml.sh" perf >/dev/null || exit 1
	mkdir -p "$kb" "$BUILD/logs"
	# The loop in a session of its own: the trap stops it and every
	# process under it (compilers included) as one process group.  A
	# build that fails stops the loop, and then the caller.
	# shellcheck disable=SC2016  # expanded by the inner shell
	setsid bash -c '
		while :; do
			CCACHE_DISABLE=1 make -C "$1" O="$2" -j"$(nproc)" defconfig all ||
				exit 1
			make -C "$1" O="$2" clean || exit 1
		done' load-build "$TREE" "$kb" >"$BUILD/logs/load-build.log" 2>&1 &
	loader=$!
	trap 'kill -TERM -- -$loader 2>/dev/null; wait $loader 2>/dev/null' EXIT
	# Let the build get going.
	sleep "$1"
	load_build_alive "the start"
}

load_build_alive() {
	kill -0 "$loader" 2>/dev/null ||
		die "the kernel build stopped ($1): $BUILD/logs/load-build.log"
}
