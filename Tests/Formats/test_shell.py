# SPDX-License-Identifier: Apache-2.0
"""The shell completions run by the shells themselves, the man page rendered by groff and man, and
--version checked against what pkg-config says of the libraries photomap was built with.

bash and zsh are driven interactively in a pseudo-terminal (pexpect), so completion goes through
readline's and zle's own word splitting; a Tab is pressed on a partial line, then the line is
turned into `echo 'LINE:…'` and run, which prints what the Tab made of it. bash's candidates are also
recorded by wrapping the completion function. fish answers `complete -C LINE` directly."""

import os
import re
import subprocess

import pexpect
import pytest

from conftest import BINARY

PROMPT = "PROMPT> "


@pytest.fixture
def shell_folder(tmp_path):
    """A folder holding the scripts, a sub-folder and files to complete file names against."""
    (tmp_path / "subfolder").mkdir()
    (tmp_path / "subfile.txt").write_text("")
    (tmp_path / "places.kml").write_text("")
    for shell in ("bash", "zsh", "fish"):
        script = subprocess.run([BINARY, "completions", shell], capture_output=True, check=True).stdout
        (tmp_path / f"photomap.{shell}").write_bytes(script)
    return tmp_path


class Interactive:
    """An interactive shell in a pseudo-terminal."""

    def __init__(self, command, arguments, folder, setup):
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder), "TERM": "dumb",
                       "PS1": PROMPT, "INPUTRC": str(folder / "inputrc"), "LC_ALL": "C.UTF-8"}
        (folder / "inputrc").write_text("set bell-style none\nset show-all-if-ambiguous off\n")
        self.child = pexpect.spawn(command, arguments, cwd=str(folder), env=environment, encoding="utf-8",
                                   timeout=20, dimensions=(50, 500))
        for line in setup:
            self.child.sendline(line)
        self.child.sendline("echo READY")
        self.child.expect("\r\nREADY\r\n")

    def complete(self, line):
        """The line after pressing Tab once at its end."""
        self.child.send(line + "\t")
        # Give the completion time to run, then make the line print itself.
        self.child.expect(pexpect.TIMEOUT, timeout=0.5)
        # A "#" typed first keeps what zle would drop on a cursor move (the space or slash it added).
        self.child.send("#\x01echo 'LINE:\x05'\r")
        self.child.expect("\r\nLINE:(.*?)#\r\n")
        return self.child.match.group(1)

    def close(self):
        self.child.sendline("exit")
        self.child.close(force=True)


@pytest.fixture
def bash(shell_folder):
    record = shell_folder / "candidates"
    shell = Interactive("/bin/bash", ["--norc", "--noprofile", "-i"], shell_folder, [
        f"source {shell_folder / 'photomap.bash'}",
        # The same function, recording what it offers.
        f'_record() {{ _photomap "$@"; printf "%s\\n" "${{COMPREPLY[@]}}" > {record}; }}; complete -F _record photomap',
    ])
    shell.record = record
    yield shell
    shell.close()


@pytest.mark.parametrize("line, completed", [
    ("photomap pl", "photomap places "),
    ("photomap cache pr", "photomap cache prune "),
    ("photomap places --fo", "photomap places --format "),
    ("photomap places --format ge", "photomap places --format geojson "),
    ("photomap places --format=ge", "photomap places --format=geojson "),
    ("photomap --source f", "photomap --source flickr "),  # `fixtures` is taken but no longer offered
    ("photomap --source emb", "photomap --source embedded "),
    ("photomap --source embedded pho", "photomap --source embedded photos "),
    ("photomap --source=flickr --cache sub", "photomap --source=flickr --cache subfolder/"),
    ("photomap photos --place X --li", "photomap photos --place X --limit "),
    ("photomap places --output pl", "photomap places --output places.kml "),
    ("photomap completions z", "photomap completions zsh "),
    ("photomap search bridge --ra", "photomap search bridge --radius "),
    ("photomap --vers", "photomap --version "),
    ("photomap help pla", "photomap help places "),
    ("photomap help se", "photomap help se"),  # search or serve: ambiguous, nothing added
])
def test_bash_completes_the_line(bash, line, completed):
    assert bash.complete(line) == completed


@pytest.mark.parametrize("line, candidates", [
    ("photomap ", {"places", "photos", "cache", "export", "find", "search", "index", "serve", "recent", "import", "geotag", "locate", "fences", "visibility", "trips", "visited", "users", "db", "completions", "man", "help"}),
    ("photomap cache ", {"stats", "verify", "prune", "clear"}),
    ("photomap cache stats ", set()),
    ("photomap fences ", {"add", "list", "remove"}),
    ("photomap index ", {"rebuild", "stats"}),
    ("photomap places --format ", {"table", "json", "geojson", "kml", "gpx", "csv"}),
    ("photomap places --format=", {"table", "json", "geojson", "kml", "gpx", "csv"}),
    ("photomap find --format g", {"geojson", "gpx"}),
    ("photomap visited --format ", {"table", "json", "csv", "geojson"}),
    ("photomap --source ", {"embedded", "flickr", "local"}),
    ("photomap --cache sub", {"subfolder"}),
    ("photomap export --out ", {"subfolder"}),
])
def test_bash_offers(bash, line, candidates):
    bash.record.unlink(missing_ok=True)
    bash.complete(line)
    assert set(filter(None, bash.record.read_text().splitlines())) == candidates


def test_bash_offers_each_commands_own_options(bash):
    bash.record.unlink(missing_ok=True)
    bash.complete("photomap search bridge --")
    offered = set(bash.record.read_text().split())
    assert {"--near", "--radius", "--limit", "--format", "--json", "--output", "--map", "--source", "--help"} <= offered
    assert "--place" not in offered and "--prefetch" not in offered


@pytest.fixture
def zsh(shell_folder):
    shell = Interactive("/usr/bin/zsh", ["-f", "-i"], shell_folder, [
        "bindkey -e", f"PS1='{PROMPT}'", "autoload -Uz compinit && compinit -u -D",
        f"source {shell_folder / 'photomap.zsh'}",
    ])
    yield shell
    shell.close()


@pytest.mark.parametrize("line, completed", [
    ("photomap pl", "photomap places "),
    ("photomap cache pr", "photomap cache prune "),
    ("photomap completions fi", "photomap completions fish "),
    ("photomap places --format ge", "photomap places --format geojson "),
    ("photomap places --format=ge", "photomap places --format=geojson "),
    ("photomap --source emb", "photomap --source embedded "),
    ("photomap photos --pre", "photomap photos --prefetch "),
    ("photomap --cache sub", "photomap --cache subfolder/"),
    ("photomap help geo", "photomap help geotag "),
])
def test_zsh_completes_the_line(zsh, line, completed):
    assert zsh.complete(line) == completed


@pytest.mark.parametrize("line, expected", [
    ("photomap cache ", {"stats", "verify", "prune", "clear"}),
    ("photomap places --format ", {"table", "json", "geojson", "kml", "gpx", "csv"}),
    ("photomap ", {"places", "photos", "cache", "export", "find", "search", "index", "serve", "recent", "import", "geotag", "locate", "fences", "visibility", "trips", "visited", "users", "db", "completions", "man", "help"}),
    ("photomap --source ", {"embedded", "flickr", "local"}),
    ("photomap help ", {"places", "photos", "cache", "export", "find", "search", "index", "serve", "recent", "import", "geotag", "locate", "fences", "visibility", "trips", "visited", "users", "db", "completions", "man", "help"}),
])
def test_fish_offers(shell_folder, line, expected):
    script = shell_folder / "photomap.fish"
    answer = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"],
                            capture_output=True, text=True, check=True).stdout
    assert {entry.split("\t")[0] for entry in answer.splitlines()} == expected


def test_man_page_renders_without_warnings(tmp_path):
    page = tmp_path / "photomap.1"
    page.write_bytes(subprocess.run([BINARY, "man"], capture_output=True, check=True).stdout)
    groff = subprocess.run(["groff", "-ww", "-man", "-Tutf8", str(page)], capture_output=True)
    assert groff.returncode == 0 and groff.stderr == b""
    man = subprocess.run(["man", "--warnings", "-l", str(page)], capture_output=True, text=True,
                         env={"PATH": os.environ.get("PATH", ""), "MANPAGER": "cat", "MANWIDTH": "80", "LC_ALL": "C.UTF-8"})
    assert man.returncode == 0 and man.stderr == ""
    text = re.sub(".\b", "", man.stdout)  # overstrike bold and underline, if the pager left them
    for heading in ("NAME", "SYNOPSIS", "COMMANDS", "GLOBAL OPTIONS", "OUTPUT FORMATS", "EXAMPLES", "ENVIRONMENT",
                    "FILES", "EXIT STATUS", "SEE ALSO"):
        assert f"\n{heading}\n" in text
    # Every command and option --help shows is in the page.
    help_text = subprocess.run([BINARY, "--help"], capture_output=True, text=True, check=True).stdout
    commands = help_text.split("Commands:\n")[1].split("\n\n")[0]
    for command in re.findall(r"^  (\w+)  ", commands, flags=re.M):
        assert f"photomap {command}" in text
        command_help = subprocess.run([BINARY, command, "--help"], capture_output=True, text=True, check=True).stdout
        for option in set(re.findall(r"^  (--[a-z-]+)", command_help, flags=re.M)):
            assert option in text
    assert "75×75" in text  # non-ASCII survives as itself


def test_version_matches_the_libraries_built_with():
    lines = subprocess.run([BINARY, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()
    versions = {line.split(" ")[0]: line.split(" ")[1] for line in lines}
    def modversion(module):
        return subprocess.run(["pkg-config", "--modversion", module], capture_output=True, text=True, check=True).stdout.strip()
    assert versions["libcurl"] == modversion("libcurl")
    assert versions["libpng"] == modversion("libpng")
    assert versions["libjpeg-turbo"] == modversion("libjpeg")
    assert versions["SQLite"] == modversion("sqlite3")
    assert versions["libcrypto"] == modversion("libcrypto")
    assert "at run time the library reports only the libjpeg API 6b" in next(line for line in lines if line.startswith("libjpeg"))
