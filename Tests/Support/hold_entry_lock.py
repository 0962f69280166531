# SPDX-License-Identifier: Apache-2.0
"""Holds one byte of a lock file with an open-file-description lock, as another
photomap process holding a cache entry's lock does (EntryLocksTests).

Usage: hold_entry_lock.py LOCKFILE OFFSET

Prints ``LOCKED`` once the byte at OFFSET is held (``BUSY`` when another holds
it), then waits until stdin reaches EOF or the process is killed; the kernel
releases the lock either way.  Standard library only.
"""

import fcntl
import os
import struct
import sys


def main():
    path, offset = sys.argv[1], int(sys.argv[2])
    descriptor = os.open(path, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o644)
    # struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for OFD locks).
    lock = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0)
    try:
        fcntl.fcntl(descriptor, fcntl.F_OFD_SETLK, lock)
    except OSError:
        print("BUSY", flush=True)
        return
    print("LOCKED", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
