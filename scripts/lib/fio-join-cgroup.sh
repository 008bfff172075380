#!/bin/sh
# fio exec_prerun helper: move the fio job process that runs us into the
# cgroup named by $1 (a path under /sys/fs/cgroup).  fio's own cgroup=
# option does nothing on a cgroup v2 only system.
cg=/sys/fs/cgroup/$1
pid=$$
while [ "$pid" -gt 1 ]; do
	pid=$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status")
	if [ "$(cat "/proc/$pid/comm")" = fio ]; then
		echo "$pid" >"$cg/cgroup.procs"
		exit $?
	fi
done
echo "fio-join-cgroup: no fio ancestor" >&2
exit 1
