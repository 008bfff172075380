#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print blktrace binary output with its messages (notes), blkparse-style.

Linux 6.12, built with CONFIG_BLK_CGROUP, adds a cgroup id to every note
message (dm-ioband's "ioband <group> hold ..." and "... issue ...", BFQ's
and others).  Debian 12's blkparse 1.2.0 predates that and drops them.
This prints every event of the given files in time order, the block
layer's actions next to the messages:

    scripts/blkparse-notes.py dm-0.blktrace.0 [more files...]
"""
import struct
import sys

HDR = struct.Struct("<IIQQIIIIIHH")  # struct blk_io_trace, 48 bytes
MAGIC = 0x65617400
TA_CGROUP = 1 << 8
TC_NOTIFY = 1 << 10
ACTIONS = {1: "Q", 2: "M", 3: "F", 4: "G", 5: "S", 6: "R", 7: "D", 8: "C",
           9: "P", 10: "U", 11: "T", 12: "I", 13: "X", 14: "B", 15: "A",
           16: "K", 17: "m"}
CATEGORIES = [(1 << 0, "R"), (1 << 1, "W"), (1 << 2, "F"), (1 << 3, "S")]


def events(path):
    data = open(path, "rb").read()
    off = 0
    while off + HDR.size <= len(data):
        (magic, seq, time, sector, nbytes, action, pid, dev, cpu, _err,
         pdu_len) = HDR.unpack_from(data, off)
        if magic & 0xffffff00 != MAGIC:
            raise SystemExit("%s: bad magic at %d" % (path, off))
        pdu = data[off + HDR.size:off + HDR.size + pdu_len]
        off += HDR.size + pdu_len
        yield time, seq, sector, nbytes, action, pid, dev, cpu, pdu


def main():
    evs = []
    for p in sys.argv[1:]:
        evs.extend(events(p))
    evs.sort(key=lambda e: (e[0], e[1]))
    t0 = evs[0][0] if evs else 0
    for time, seq, sector, nbytes, action, pid, dev, cpu, pdu in evs:
        devs = "%d,%d" % (dev >> 20, dev & 0xfffff)
        head = "%-8s %2d %8d %14.9f %5d" % (devs, cpu, seq,
                                             (time - t0) / 1e9, pid)
        if (action >> 16) & TC_NOTIFY:
            if action & 0xff != 2:  # only messages, not process/timestamps
                continue
            if action & TA_CGROUP:
                pdu = pdu[8:]
            print("%s  m   N %s" % (head, pdu.rstrip(b"\0").decode(
                "utf-8", "replace")))
            continue
        what = ACTIONS.get(action & 0xffff & ~TA_CGROUP)
        if what is None:
            continue
        rwbs = "".join(c for bit, c in CATEGORIES if (action >> 16) & bit)
        print("%s  %s %3s %d + %d" % (head, what, rwbs or "N", sector,
                                       nbytes >> 9))


if __name__ == "__main__":
    main()
