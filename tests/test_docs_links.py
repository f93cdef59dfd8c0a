"""The docs point at things that exist: every relative link in README.md, CHANGELOG.md and
docs/*.md names an existing file (and, with ``#...``, a heading of it), and every path to a
``.py`` file or a folder written in backticks exists in the repository; and the operator's
page lists every setting ``portes-bot --help`` lists. A dotted name of ours in backticks
(``bot.views.texts.move_words``, ``rules.fairdice.games_of``) must import and resolve.

CHANGELOG.md's backticks are not checked: the history names files that have moved since."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
REFERENCE = [p for p in PAGES if p.name != "CHANGELOG.md"]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|\b(?:src|href)=\"([^\"]+)\"")
CODE = re.compile(r"`([^`\n]+)`")
# a repository path: a file ending in .py with at least one folder, or a folder ending in "/"
# (a bare "kernel.py" in a table of one package's modules is that package's, not the root's)
PATH = re.compile(r"^[\w.-]+(?:/[\w.-]+)+\.py$|^[\w.-]+(?:/[\w.-]+)*/$")


def prose(page: Path) -> str:
    """The page without its fenced code blocks (commands and output, not links)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*_\[\]]|\]\([^)]*\)", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in prose(page).splitlines()
            if re.match(r"#{1,6} ", line)}


def links(page: Path) -> list[str]:
    return [a or b for a, b in LINK.findall(prose(page))]


# a dotted name in one of our packages: a module, or a module and attributes
DOTTED = re.compile(r"^(?:rules|storage|rendering|computer|bot)(?:\.[A-Za-z_]\w*)+")


def dotted_names(page: Path) -> list[str]:
    found = []
    for span in CODE.findall(prose(page)):
        m = DOTTED.match(span.strip())
        if m and not re.search(r"\.(?:md|py)$", m.group(0)):  # bot.md, computer.py: files
            found.append(m.group(0))
    return found


def resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def code_paths(page: Path) -> list[str]:
    found = []
    for span in CODE.findall(prose(page)):
        for word in span.split():
            word = word.strip(",;:()\"'")
            if PATH.match(word) and not word.startswith("."):
                found.append(word)
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_names_an_existing_file_and_heading(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        name, _, fragment = target.partition("#")
        file = (page.parent / name).resolve() if name else page
        if not file.exists():
            broken.append(target)
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{page.name}: {broken}"


@pytest.mark.parametrize("page", REFERENCE, ids=lambda p: p.name)
def test_every_path_in_backticks_exists(page: Path) -> None:
    missing = [p for p in code_paths(page) if not (ROOT / p).exists()]
    assert not missing, f"{page.name}: {missing}"


@pytest.mark.parametrize("page", REFERENCE, ids=lambda p: p.name)
def test_every_dotted_name_of_ours_in_backticks_resolves(page: Path) -> None:
    missing = [n for n in dotted_names(page) if not resolves(n)]
    assert not missing, f"{page.name}: {missing}"


def test_the_checks_see_links_paths_and_headings() -> None:
    readme = ROOT / "README.md"
    assert "docs/rules.md" in links(readme)
    assert "bot/app.py" in code_paths(ROOT / "docs" / "architecture.md")
    assert "bot.views.texts.move_words" in dotted_names(ROOT / "docs" / "bot.md")
    assert resolves("rules.fairdice.games_of") and not resolves("rules.fairdice.no_such_name")
    assert "several-instances" in anchors(ROOT / "docs" / "operating.md")
    assert slug("What chats show: a projection of the database") == \
        "what-chats-show-a-projection-of-the-database"
    assert slug("One chat's flood stays in that chat") == "one-chats-flood-stays-in-that-chat"


def test_the_operator_page_lists_every_setting_the_bot_reads() -> None:
    from bot.settings import ENV_HELP

    page = (ROOT / "docs" / "bot.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in page.splitlines() if line.startswith("| `"))
    missing = [name for name, _ in ENV_HELP if f"`{name}`" not in table]
    assert not missing, f"settings missing from docs/bot.md's table: {missing}"
