"""The README and docs/ hold together: every relative link leads to a file (and heading) that exists, every page of
docs/ is linked from the README, the README stays a five-minute read (at most 12,000 bytes), and its map of the
code matches the tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
README_LIMIT = 12_000

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(path: Path) -> str:
    """The file's text without its code blocks: a `# comment` in a shell block is not a heading."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor, the second of two equal headings as GitHub numbers it (-1)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(prose(path)):
        base = slug(heading)
        found.add(f"{base}-{seen[base]}" if base in seen else base)
        seen[base] = seen.get(base, 0) + 1
    return found


def relative_links(path: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(INLINE_CODE.sub("", prose(path)))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # https:, mailto: ...
    ]


def broken(path: Path, target: str) -> str | None:
    """Why a link from path is broken, or None."""
    file_part, _, anchor = target.partition("#")
    linked = (path.parent / file_part).resolve() if file_part else path
    if not linked.exists():
        return f"{target}: no {shown(linked)}"
    if anchor and linked.suffix == ".md" and anchor not in anchors(linked):
        return f"{target}: no heading #{anchor} in {shown(linked)}"
    return None


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


@pytest.mark.parametrize("path", [README, *PAGES], ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(path: Path):
    links = relative_links(path)
    problems = [problem for problem in (broken(path, target) for target in links) if problem]
    assert not problems, problems


def test_the_readme_is_a_five_minute_read():
    assert len(README.read_bytes()) <= README_LIMIT


def test_every_page_of_docs_is_linked_from_the_readme():
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in relative_links(README)}
    assert PAGES and not [page.name for page in PAGES if page.resolve() not in linked]


def packages_under(folder: str) -> list[str]:
    return sorted(path.parent.name for path in (ROOT / folder).glob("*/__init__.py"))


def test_the_map_of_the_code_matches_the_tree():
    """Every path the README's map names exists, and it names every package of bot/, every feature of cogs/ and
    every system of rules/ (a new folder must be placed on the map)."""
    table = README.read_text(encoding="utf-8").split("## Map of the code", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([\w./]+)`", table))
    top = {path.name for path in ROOT.iterdir()}
    paths = [name for name in named if "/" in name and name.split("/")[0] in top and "..." not in name]
    assert paths and [path for path in paths if not (ROOT / path).exists()] == []
    assert [f"bot/{name}/" for name in packages_under("bot") if f"bot/{name}/" not in named] == []
    assert [name for name in packages_under("cogs") if f"{name}/" not in named] == []
    assert [name for name in packages_under("rules") if name not in table] == []


def test_the_checker_sees_a_broken_link_and_a_missing_heading(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text("# A page: its `title`\n\n[ok](#a-page-its-title) [no](missing.md) [gone](#nowhere)\n")
    (tmp_path / "other.md").write_text("```sh\n# not a heading\n```\n")
    assert broken(page, "#a-page-its-title") is None
    assert broken(page, "missing.md") is not None
    assert broken(page, "#nowhere") is not None
    assert broken(page, "other.md#not-a-heading") is not None
    assert relative_links(page) == ["#a-page-its-title", "missing.md", "#nowhere"]
