#!/usr/bin/env python3
"""Resolve `perf script -F ip` sample addresses against a UML kernel's
symbol table (UML maps its text from a deleted file, which perf cannot
read) and print the share of the UML kernel's samples per function.

    perf script -F ip -i DATA | uml-syms.py VMLINUX [LIMIT_PERCENT]
"""
import bisect
import collections
import subprocess
import sys

vmlinux = sys.argv[1]
limit = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
syms = []
for line in subprocess.run(["nm", "-n", vmlinux], capture_output=True,
                           text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "tTwW":
        syms.append((int(parts[0], 16), parts[2]))
addrs = [a for a, _ in syms]
lo, hi = addrs[0], addrs[-1]
count = collections.Counter()
total = other = 0
for line in sys.stdin:
    try:
        ip = int(line.strip(), 16)
    except ValueError:
        continue
    total += 1
    if not lo <= ip <= hi:
        other += 1
        continue
    count[syms[bisect.bisect_right(addrs, ip) - 1][1]] += 1
uml = total - other
print("samples: %d, in the UML kernel: %d (%.1f%%)" %
      (total, uml, 100.0 * uml / max(total, 1)))
for name, n in count.most_common():
    pct = 100.0 * n / max(uml, 1)
    if pct < limit:
        break
    print("%6.2f%%  %s" % (pct, name))
