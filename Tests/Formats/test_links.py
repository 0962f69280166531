# SPDX-License-Identifier: Apache-2.0
"""Every relative link and image in README.md, CONTRIBUTING.md and docs/ resolves: the file or folder
exists, and a #fragment names a heading of the target (as GitHub makes heading anchors). Links inside
code blocks and code spans are text, not links; http(s) and mailto links are not followed (no network)."""

import pathlib
import re
import urllib.parse

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def without_fences(text):
    return re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)


def prose(text):
    """The text outside fenced code blocks and code spans."""
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", without_fences(text), flags=re.S)


def anchors(path):
    """GitHub's anchors for a Markdown file's headings: lower case, punctuation dropped, spaces to hyphens."""
    names, seen = set(), {}
    for line in without_fences(path.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = re.sub(r"[^\w\- ]", "", match.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        names.add(slug if count == 0 else f"{slug}-{count}")
    return names


def links(path):
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(document):
    broken = []
    for target in links(document):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I):
            continue  # http:, https:, mailto:
        path_part, _, fragment = target.partition("#")
        resolved = (document.parent / urllib.parse.unquote(path_part)).resolve() if path_part else document
        if not resolved.exists():
            broken.append(f"{target}: no {resolved}")
        elif REPO not in resolved.parents and resolved != REPO:
            broken.append(f"{target}: outside the repository")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no heading #{fragment} in {resolved.name}")
    assert not broken, f"{document.relative_to(REPO)}: " + "; ".join(broken)


def test_documents_link_somewhere():
    """The checker reads links at all: the README links its guides and shows a screenshot."""
    readme = links(REPO / "README.md")
    assert "docs/user-guide.md" in readme and "docs/screenshots/map.png" in readme
    assert len(readme) >= 6


def test_a_broken_link_is_found(tmp_path):
    """A missing file and a missing heading are reported; a link in code is not a link."""
    page = tmp_path / "page.md"
    page.write_text("# Title\n[a](missing.md) [b](#nowhere) [c](#title) `[d](gone.md)`\n```\n[e](gone.md)\n```\n")
    assert links(page) == ["missing.md", "#nowhere", "#title"]
    assert "title" in anchors(page) and "nowhere" not in anchors(page)


def test_readme_is_short():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
