# SPDX-License-Identifier: MIT
"""Reads at an offset of a descriptor that other threads read at theirs (crcforge.objects
hashes ranges of one open file on a thread pool): os.preadv where there is one; on Windows,
which has no pread, ReadFile at an offset given in an OVERLAPPED structure.  On a handle
opened for synchronous I/O, Windows completes such reads one at a time, each at its own
offset (it leaves the handle's position after the bytes read, a position these reads never
use)."""
import os

if hasattr(os, "preadv"):
    def pread_into(fd, view, offset):
        """Bytes read into the writable buffer view from offset of fd (0 at the end)."""
        return os.preadv(fd, [view], offset)
else:
    import ctypes
    import msvcrt
    from ctypes import wintypes

    ERROR_HANDLE_EOF = 38

    class _Overlapped(ctypes.Structure):
        _fields_ = [("Internal", ctypes.c_size_t), ("InternalHigh", ctypes.c_size_t),
                    ("Offset", wintypes.DWORD), ("OffsetHigh", wintypes.DWORD),
                    ("hEvent", wintypes.HANDLE)]

    _read_file = ctypes.WinDLL("kernel32", use_last_error=True).ReadFile
    _read_file.argtypes = [wintypes.HANDLE, ctypes.c_void_p, wintypes.DWORD,
                           ctypes.POINTER(wintypes.DWORD), ctypes.POINTER(_Overlapped)]
    _read_file.restype = wintypes.BOOL

    def pread_into(fd, view, offset):
        """Bytes read into the writable buffer view from offset of fd (0 at the end)."""
        length = min(len(view), 1 << 30)  # a DWORD count, in whole blocks
        buffer = (ctypes.c_char * length).from_buffer(view)
        at = _Overlapped(Offset=offset & 0xFFFFFFFF, OffsetHigh=offset >> 32)
        got = wintypes.DWORD()
        if not _read_file(msvcrt.get_osfhandle(fd), buffer, length, ctypes.byref(got),
                          ctypes.byref(at)):
            error = ctypes.get_last_error()
            if error == ERROR_HANDLE_EOF:
                return 0
            raise ctypes.WinError(error)
        return got.value
