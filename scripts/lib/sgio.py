#!/usr/bin/env python3
# sgio.py DEVICE: send one SG_IO READ(10) of 8 blocks at LBA 0 to DEVICE.
# Exit 0 if the ioctl succeeded and the device reported GOOD status,
# 2 if the ioctl was refused (the errno is printed), 1 otherwise.
import ctypes
import fcntl
import os
import sys

SG_IO = 0x2285
SG_DXFER_FROM_DEV = -3


class SgIoHdr(ctypes.Structure):
    _fields_ = [
        ("interface_id", ctypes.c_int),
        ("dxfer_direction", ctypes.c_int),
        ("cmd_len", ctypes.c_ubyte),
        ("mx_sb_len", ctypes.c_ubyte),
        ("iovec_count", ctypes.c_ushort),
        ("dxfer_len", ctypes.c_uint),
        ("dxferp", ctypes.c_void_p),
        ("cmdp", ctypes.c_void_p),
        ("sbp", ctypes.c_void_p),
        ("timeout", ctypes.c_uint),
        ("flags", ctypes.c_uint),
        ("pack_id", ctypes.c_int),
        ("usr_ptr", ctypes.c_void_p),
        ("status", ctypes.c_ubyte),
        ("masked_status", ctypes.c_ubyte),
        ("msg_status", ctypes.c_ubyte),
        ("sb_len_wr", ctypes.c_ubyte),
        ("host_status", ctypes.c_ushort),
        ("driver_status", ctypes.c_ushort),
        ("resid", ctypes.c_int),
        ("duration", ctypes.c_uint),
        ("info", ctypes.c_uint),
    ]


def main():
    blocks = 8
    cdb = (ctypes.c_ubyte * 10)(0x28, 0, 0, 0, 0, 0, 0, 0, blocks, 0)
    buf = ctypes.create_string_buffer(blocks * 512)
    sense = ctypes.create_string_buffer(32)
    hdr = SgIoHdr(interface_id=ord("S"), dxfer_direction=SG_DXFER_FROM_DEV,
                  cmd_len=10, mx_sb_len=32, dxfer_len=blocks * 512,
                  dxferp=ctypes.addressof(buf), cmdp=ctypes.addressof(cdb),
                  sbp=ctypes.addressof(sense), timeout=10000)
    fd = os.open(sys.argv[1], os.O_RDONLY)
    try:
        fcntl.ioctl(fd, SG_IO, hdr)
    except OSError as e:
        print("SG_IO refused: %s" % os.strerror(e.errno))
        return 2
    finally:
        os.close(fd)
    print("SG_IO status %d host %d driver %d" %
          (hdr.status, hdr.host_status, hdr.driver_status))
    return 0 if hdr.status == 0 and hdr.host_status == 0 else 1


sys.exit(main())
