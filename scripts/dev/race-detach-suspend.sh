#!/bin/bash
# Review finding 3 made deterministic (a demonstration, not part of make
# check): build the debug UML kernel twice with a temporary 300 ms sleep
# inside detach, between taking the group out of the xarray and moving its
# held bios, and start a suspend in that window
# (race-detach-suspend.guest.sh):
#   A: presuspend without ic->lock (the code before the fix): the detached
#      group's bios are held again in the suspending device;
#   B: the series as it is: nothing is held while the device suspends.
# The tree is restored and the kernel rebuilt at the end.
set -eu
. "$(dirname "$0")/../lib/common.sh"
src=$TREE/drivers/md/dm-ioband-target.c
keep=$(mktemp)
cp "$src" "$keep"
restore() { cp "$keep" "$src"; rm -f "$keep"; "$TOP/scripts/build-uml.sh" >/dev/null 2>&1 || true; }
trap restore EXIT
variant() {
	python3 - "$keep" "$src" "$1" <<'PY'
import sys
s = open(sys.argv[1]).read()
s = s.replace('#include <linux/cred.h>\n', '#include <linux/cred.h>\n#include <linux/delay.h>\n', 1)
old = "\txa_erase(&ic->groups, ioband_key(grp->id));\n\tWRITE_ONCE(ic->nr_groups, ic->nr_groups - 1);\n"
assert old in s
s = s.replace(old, old + "\tmsleep(300);\n")
if sys.argv[3] == "A":
    a = s.replace("\tmutex_lock(&ic->lock);\n\tdo {\n\t\tspin_lock_irq(&pool->lock);\n\t\tic->may_hold = false;",
                  "\tdo {\n\t\tspin_lock_irq(&pool->lock);\n\t\tic->may_hold = false;")
    a = a.replace("\t\tcond_resched();\n\t} while (more);\n\tmutex_unlock(&ic->lock);",
                  "\t\tcond_resched();\n\t} while (more);")
    assert a != s
    s = a
open(sys.argv[2], "w").write(s)
PY
	"$TOP/scripts/build-uml.sh" >/dev/null
	echo "== variant $1"
	"$TOP/scripts/uml-run.sh" -t 200 "$TOP/scripts/dev/race-detach-suspend.guest.sh" || true
	grep -E 'held 1 s|took|^(ok|not ok)' "$BUILD/runs/race-detach-suspend.guest/output"
}
variant A
variant B
