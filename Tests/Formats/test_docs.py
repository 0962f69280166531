# SPDX-License-Identifier: Apache-2.0
"""Documents that cannot drift: every `photomap` command README.md and the guides show in a ```sh block
is run as written (through bash, in one fresh folder, offline, on the embedded catalog, no key), and
each output the document shows after it (a plain ``` block right after the ```sh block, or `photomap:`
lines under the command) is compared with what it printed: the lines shown must be printed, in order
(a "…" line stands for lines left out). Placeholders are filled: `--place ID` is Paris's id, and
`[--json]`'s brackets are dropped.

A command that cannot run here is skipped for a reason in SKIPPED, which every skip must match and
every reason must still be used by some command: the list says what the documents show that no test
runs as written. Also: every environment variable the sources read is in --help and the man page."""

import os
import pathlib
import re
import shlex
import subprocess

import pytest

import prebuilt_indexes
from conftest import BINARY, REPO

DOCUMENTS = ["README.md", "docs/user-guide.md", "docs/operations.md"]
PARIS = "hS4wMLD0wPIXPXB"

# What is not run, matched (a regular expression) against the command without its comment, first match wins.
SKIPPED = [
    (r"PHOTOMAP_DATABASE=|--database|\bdb\b", "needs a PostgreSQL server (DatabaseEndToEndTests, FleetEndToEndTests)"),
    (r"\bserve\b", "a server that runs until stopped (the serve suites start it and ask it over HTTP)"),
    (r"\bimport\b", "reads a user's photo folders (ImportEndToEndTests import generated photos)"),
    (r"\bgeotag\b", "needs a user's photos imported and GPX tracks (GeotagEndToEndTests)"),
    (r"\blocate\b", "needs a user's photos imported first (LocateEndToEndTests, SidecarEndToEndTests)"),
    (r"\busers (add|passwd|remove)\b", "a password typed twice, or a person added before (UsersEndToEndTests)"),
    (r"--source local|\bfences\b|\bvisibility\b",
     "needs a user's photos imported first (FencesEndToEndTests, ImportEndToEndTests, AudiencesEndToEndTests)"),
    (r"export --out site/", "the whole catalog's site takes about a minute in a debug build (ExportEndToEndTests)"),
    (r"index rebuild", "remakes the whole search index, seconds of CPU (LocationEndToEndTests)"),
    (r"^photomap places --map$", "the world map of every place takes 20 s of CPU in a debug build "
                                 "(EndToEndTests' --map with no name, on one place)"),
]


def shell_blocks(text):
    """Each ```sh block's lines (with their line numbers) and the plain ``` block right after it, if any."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```sh":
            start = index + 1
            index = start
            while lines[index].strip() != "```":
                index += 1
            block = [(number + 1, lines[number].strip()) for number in range(start, index)]
            output = []
            if index + 1 < len(lines) and lines[index + 1].strip() == "```":
                end = index + 2
                while lines[end].strip() != "```":
                    end += 1
                output = lines[index + 2:end]
                index = end
            yield block, output
        index += 1


def words_of(line):
    """The shell words of a line without its comment ([] for a line continued on the next)."""
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        return []


def shown_commands():
    """(document, line number, the command as written, the output lines shown after it)."""
    commands = []
    for document in DOCUMENTS:
        for block, output in shell_blocks((REPO / document).read_text()):
            for number, line in block:
                shown = re.match(r"^(?:# )?(photomap: .*)$", line)
                if shown and commands and commands[-1][0] == document:
                    commands[-1][3].append(shown.group(1))
                    continue
                words = words_of(line) if not line.startswith("#") else []
                while words and re.match(r"^[A-Z_]+=", words[0]):
                    words.pop(0)  # FLICKR_API_KEY=… photomap …
                if words and (words[0] == "photomap" or "<(photomap" in line):
                    commands.append((document, number, line, []))
            if output and commands:
                commands[-1][3].extend(output)
    return commands


COMMANDS = shown_commands()


def reason_skipped(line):
    command = " ".join(words_of(line))
    return next((reason for pattern, reason in SKIPPED if re.search(pattern, command)), None)


def runnable(line):
    """The line with its placeholders filled."""
    line = re.sub(r"--place ID\b", f"--place {PARIS}", line)
    return re.sub(r"\[(--[^\]]*)\]", r"\1", line)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """One folder for every command, with `photomap` on the PATH and a cache holding the indexes."""
    work = tmp_path_factory.mktemp("docs")
    (work / "bin").mkdir()
    (work / "bin" / "photomap").symlink_to(BINARY)
    prebuilt_indexes.copy_into(BINARY, work / "cache")
    return work


def test_the_documents_show_commands():
    assert len(COMMANDS) > 50
    ran = [command for command in COMMANDS if reason_skipped(command[2]) is None]
    assert len(ran) >= 25
    # Every reason to skip still holds for some command: a skip nothing needs is taken out.
    for pattern, reason in SKIPPED:
        assert any(re.search(pattern, " ".join(words_of(command[2]))) for command in COMMANDS), reason


@pytest.mark.parametrize("document, number, line, shown", COMMANDS,
                         ids=[f"{c[0]}:{c[1]}" for c in COMMANDS])
def test_command_runs_as_written(folder, document, number, line, shown):
    reason = reason_skipped(line)
    if reason:
        pytest.skip(reason)
    environment = {"PATH": f"{folder / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(folder),
                   "PHOTOMAP_CACHE": str(folder / "cache"), "LC_ALL": "C.UTF-8", "MANPAGER": "cat",
                   "MANWIDTH": "80"}
    completed = subprocess.run(["bash", "-o", "pipefail", "-c", runnable(line)], cwd=folder, env=environment,
                               capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    fails = any(text.startswith("photomap: error:") for text in shown)
    assert (completed.returncode != 0) == fails, f"{document}:{number}: {line}\n{completed.stderr}"
    # The lines shown, in order, in the stream each belongs to: messages on stderr, the rest on stdout.
    for stream, printed in (("stderr", completed.stderr), ("stdout", completed.stdout)):
        expected = [text for text in shown if text.strip() != "…" and text.startswith("photomap: ") == (stream == "stderr")]
        lines = iter(printed.split("\n"))
        for text in expected:
            assert any(printed_line == text for printed_line in lines), \
                f"{document}:{number}: {line}\n{text!r} is not on {stream} (in order):\n{printed}"


def test_every_variable_read_is_documented():
    read = set()
    for source in (REPO / "Sources").rglob("*.swift"):
        text = source.read_text()
        read |= set(re.findall(r'environment\["([A-Z][A-Z0-9_]+)"\]', text))
        read |= set(re.findall(r'variable: "([A-Z][A-Z0-9_]+)"', text))
        read |= set(re.findall(r'getenv\("([A-Z][A-Z0-9_]+)"\)', text))
    assert {"PHOTOMAP_FLICKR_CALLS_PER_HOUR", "PHOTOMAP_CACHE", "NO_COLOR"} <= read
    help_text = subprocess.run([BINARY, "--help"], capture_output=True, text=True, check=True).stdout
    page = subprocess.run([BINARY, "man"], capture_output=True, text=True, check=True).stdout.replace("\\-", "-")
    environment_section = page.split(".SH ENVIRONMENT\n")[1].split(".SH ")[0]
    for variable in sorted(read):
        assert variable in help_text, f"{variable} is read but not in photomap --help"
        assert variable in environment_section, f"{variable} is read but not in the man page's ENVIRONMENT"
