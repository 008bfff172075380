# shellcheck shell=bash
# Common parts of the seed experiments.  Sourced by scripts/experiments/*.sh
# after scripts/lib/guest.sh.
#
# Every experiment takes:
#   --runtime S      seconds of each measured run
#   --assert         check the shares (and exit non-zero when they are off)
#   --device DEV     use DEV's partitions DEV1, DEV2, DEV3 (a real disk on a
#                    machine booted into the patched kernel) instead of
#                    dm-linear slices of a null_blk disk in UML.  THIS
#                    DESTROYS THEIR DATA (see exp_check_device): a disk or
#                    partition with a file system, RAID or LVM signature
#                    is refused unless --force is given
#   --force          use --device even then
#   --out DIR        keep fio's JSON and bandwidth logs, tables and plots
#   --peers LIST     controllers to compare with (default: none,ioband and,
#                    where they apply, iocost,bfq)

EXP_RUNTIME=${EXP_RUNTIME:-20}
EXP_ASSERT=0
EXP_DEVICE=
EXP_FORCE=0
EXP_OUT=/tmp/exp
EXP_PEERS=
EXP_ARGS=()

exp_parse() {
	while [ $# -gt 0 ]; do
		case $1 in
		--runtime) EXP_RUNTIME=$2; shift ;;
		--assert) EXP_ASSERT=1 ;;
		--device) EXP_DEVICE=$2; shift ;;
		--force) EXP_FORCE=1 ;;
		--out) EXP_OUT=$2; shift ;;
		--peers) EXP_PEERS=$2; shift ;;
		*) EXP_ARGS+=("$1") ;;
		esac
		shift
	done
	mkdir -p "$EXP_OUT"
	if controller_off; then
		log "# CONTROLLER OFF (IOBAND_CONTROLLER_OFF=1): dm-linear in place of every band device, no messages sent"
	fi
}

# What the experiments do to the partitions of --device.
EXP_WRITERS="seed000-test1.sh, seed000-users.sh, seed001-vm.sh and seed002-mixed.sh write random data to the raw partitions; seed003-mkfs.sh runs mkfs.ext2 and seed004-rw.sh mkfs.ext4 on them; seed004-dd.sh and range-bw.sh only read"

# exp_check_device <disk> <partition>...: refuse a disk where the whole
# disk or any of its partitions carries a signature (file system, swap,
# RAID, LVM...), unless --force.
exp_check_device() {
	local disk=$1 p t found=
	for p in "$disk" $(lsblk -lnpo NAME "$disk" 2>/dev/null) "${@:2}"; do
		t=$(blkid -p -o value -s TYPE "$p" 2>/dev/null)
		[ -n "$t" ] && found="$found $p ($t)"
	done
	[ -z "$found" ] && return 0
	if [ "$EXP_FORCE" = 1 ]; then
		log "# --force: using $disk although it holds:$found"
		return 0
	fi
	log "refusing $disk: it holds data:$found"
	log "The experiments destroy what is on the partitions: $EXP_WRITERS."
	log "Give --force to use this disk anyway."
	return 1
}

# exp_want <controller>: is this controller to be run?
exp_want() {
	[ -z "$EXP_PEERS" ] && return 0
	case ",$EXP_PEERS," in *",$1,"*) return 0 ;; esac
	return 1
}

# exp_disk <n> [null_blk attr=value...]: the disk and n "partitions":
# sets DISK (the whole disk, where peers act) and PART[1..n].
exp_disk() {
	local n=$1 i
	shift
	PART=()
	if [ -n "$EXP_DEVICE" ]; then
		DISK=$EXP_DEVICE
		for i in $(seq 1 "$n"); do
			if [ -b "$DISK$i" ]; then
				PART[$i]=$DISK$i
			elif [ -b "${DISK}p$i" ]; then
				PART[$i]=${DISK}p$i
			else
				log "no partition $i on $DISK"
				return 1
			fi
		done
		exp_check_device "$DISK" "${PART[@]}"
		return
	fi
	DISK=$(nullb_create disk memory_backed=0 size=1536 "$@") || return 1
	dm_linear_slices "$DISK" "$n" part || return 1
	for i in $(seq 1 "$n"); do
		PART[$i]=/dev/mapper/part$i
	done
}

# exp_bands "<table args>" <weight>...: band devices ioband1, ioband2...
# on PART[1], PART[2]..., one per weight; <table args> go between the
# device and the default group's share (e.g. "1 0 0 none weight 0").
exp_bands() {
	local args=$1 i=0 w
	shift
	for w in "$@"; do
		i=$((i + 1))
		dm_create "ioband$i" "0 $(sectors "${PART[$i]}") ioband ${PART[$i]} $args :$w" ||
			return 1
	done
}

# exp_disk_desc: one line saying what the disk is.
exp_disk_desc() {
	local q
	if [ -n "$EXP_DEVICE" ]; then
		echo "$EXP_DEVICE ($(cat "/sys/block/${EXP_DEVICE#/dev/}/device/model" 2>/dev/null || echo disk))"
		return
	fi
	q=/sys/kernel/config/nullb/disk
	echo "UML null_blk, $(cat $q/hw_queue_depth) tag(s) x $(($(cat $q/completion_nsec) / 1000)) us"
}

# exp_fio <json> <jobfile> [VAR=value...]: run a job file, JSON output;
# SECTION=<name> runs that job of the file alone.
exp_fio() {
	local json=$1 job=$2
	shift 2
	local sect=()
	case " $* " in *" SECTION="*)
		sect=(--section="$(printf '%s\n' "$@" | sed -n 's/^SECTION=//p')") ;;
	esac
	env "$@" JOIN="$GTOP/scripts/lib/fio-join-cgroup.sh" \
		fio "${sect[@]}" --output-format=json --output="$json" \
		"$GTOP/fio-jobs/$job"
}

# exp_jobs <json>: "name read_ios write_ios read_kib write_kib runtime_ms"
# per job (the runtime includes waiting for the last I/Os, which a
# throttled job can make longer than --runtime).
exp_jobs() {
	python3 - "$1" <<'PY'
import json, sys
for job in json.load(open(sys.argv[1]))["jobs"]:
    r, w = job["read"], job["write"]
    print(job["jobname"], r["total_ios"], w["total_ios"],
          r["io_kbytes"], w["io_kbytes"], max(r["runtime"], w["runtime"]))
PY
}

share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) b = 1; printf "%.1f", 100 * a / b }'; }

# Peers set on the disk below: they weigh cgroups.
# peer_iocost <cgroup:weight>...: iocost on DISK, io.weight per cgroup.
peer_iocost() {
	local devno c
	devno=$(cat "/sys/block/$(basename "$(readlink -f "$DISK")")/dev")
	echo "$devno enable=1" >/sys/fs/cgroup/io.cost.qos || return 1
	for c in "$@"; do
		echo "default ${c##*:}" >"/sys/fs/cgroup/${c%:*}/io.weight" || return 1
	done
}

peer_iocost_off() {
	local devno
	devno=$(cat "/sys/block/$(basename "$(readlink -f "$DISK")")/dev")
	echo "$devno enable=0" >/sys/fs/cgroup/io.cost.qos 2>/dev/null
}

# peer_bfq <cgroup:weight>...: BFQ on DISK, io.bfq.weight per cgroup.
peer_bfq() {
	local q c
	q=/sys/block/$(basename "$(readlink -f "$DISK")")/queue/scheduler
	echo bfq >"$q" || return 1
	# BFQ_LOW_LATENCY, BFQ_SLICE_IDLE: try BFQ with other settings
	[ -n "${BFQ_LOW_LATENCY:-}" ] && echo "$BFQ_LOW_LATENCY" >"${q%/scheduler}/iosched/low_latency"
	[ -n "${BFQ_SLICE_IDLE:-}" ] && echo "$BFQ_SLICE_IDLE" >"${q%/scheduler}/iosched/slice_idle"
	for c in "$@"; do
		echo "${c##*:}" >"/sys/fs/cgroup/${c%:*}/io.bfq.weight" || return 1
	done
}

peer_bfq_off() {
	local q
	q=/sys/block/$(basename "$(readlink -f "$DISK")")/queue/scheduler
	echo none >"$q" 2>/dev/null || echo mq-deadline >"$q" 2>/dev/null
}

# exp_plot <png> <title> <log>...: a PNG of each fio bandwidth log
# (KiB/s over time), if gnuplot is there.
exp_plot() {
	local png=$1 title=$2 plots= f
	shift 2
	command -v gnuplot >/dev/null || return 0
	for f in "$@"; do
		plots="$plots${plots:+, }'$f' using (\$1/1000):(\$2/1024) with lines title '$(basename "$f" .log)'"
	done
	gnuplot <<EOF 2>/dev/null
set terminal png size 900,420 noenhanced
set output '$png'
set title '$title'
set xlabel 'time (s)'
set ylabel 'MiB/s'
set key outside
plot $plots
EOF
}

# exp_row <label> <json> <job>...: one table row: each job's I/Os (r/w)
# and share of the total, and the total.  Sets ROW_SHARE[i] and ROW_TOTAL.
exp_row() {
	local label=$1 json=$2 j n r w line tot=0 i=0
	shift 2
	declare -gA ROW_IOS=()
	ROW_SHARE=()
	while read -r n r w _ _; do
		ROW_IOS[$n]="$r $w"
	done < <(exp_jobs "$json")
	for j in "$@"; do
		read -r r w <<<"${ROW_IOS[$j]:-0 0}"
		tot=$((tot + r + w))
	done
	line=$(printf '| %-16s|' "$label")
	for j in "$@"; do
		i=$((i + 1))
		read -r r w <<<"${ROW_IOS[$j]:-0 0}"
		ROW_SHARE[$i]=$(share $((r + w)) $tot)
		line="$line$(printf ' %6d (%5d/%5d) %5s%% |' $((r + w)) "$r" "$w" "${ROW_SHARE[$i]}")"
	done
	ROW_TOTAL=$tot
	printf '%s %7d |\n' "$line" "$tot"
}

# exp_header <title> <weight-line> <column>...: the table's head.
exp_header() {
	local title=$1 wl=$2 c line
	shift 2
	printf '\n%s\n' "$title"
	line=$(printf '| %-16s|' "controller")
	for c in "$@"; do
		line="$line$(printf ' %-29s|' "$c")"
	done
	printf '%s %7s |\n' "$line" total
	printf '%s\n' "$wl"
}

# exp_peers <function> <cgroup:weight>...: for iocost and then BFQ (each
# if wanted), set the peer on DISK with these weights, call
# "<function> <label>" (label "iocost" or "BFQ"), and take the peer off.
exp_peers() {
	local fn=$1 p label
	shift
	for p in iocost bfq; do
		exp_want "$p" || continue
		label=iocost
		[ "$p" = bfq ] && label=BFQ
		if "peer_$p" "$@"; then
			"$fn" "$label"
			"peer_${p}_off"
		else
			log "| $label: cannot be set on $DISK"
		fi
	done
}
