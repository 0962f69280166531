# SPDX-License-Identifier: Apache-2.0
"""What photomap makes in an empty cache on first use of the embedded catalog (the gazetteer's index
and the local search index), made once per test session by `photomap index stats` and copied into new
caches, since making them costs seconds a test. Shared by the browser and the format tests."""

import atexit
import os
import pathlib
import shutil
import subprocess
import tempfile

_made = {}


def copy_into(binary, cache):
    """Copies them into `cache` (a folder not made yet), made first with `binary` if not yet."""
    binary = str(binary)
    if binary not in _made:
        folder = pathlib.Path(tempfile.mkdtemp(prefix="photomap-indexes-"))
        atexit.register(shutil.rmtree, folder, True)
        subprocess.run([binary, "index", "stats"], env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                       "HOME": str(folder), "PHOTOMAP_CACHE": str(folder), "LC_ALL": "C.UTF-8"},
                       stdin=subprocess.DEVNULL, capture_output=True, check=True, timeout=600)
        _made[binary] = folder
    shutil.copytree(_made[binary], cache)
