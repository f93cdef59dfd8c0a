"""The floors hold: rules/ at the bottom; storage/, rendering/ and computer/ above it, each on its
own and none of them talking to Telegram; bot/ on top; the harness (standin/, oracles/, tests/)
beside them, which nothing of the bot imports, and nothing but the tests imports tests/. And no
module uses another's private names, storage/ tells no chat's kind by the sign of its id, and no
import cycle runs through our packages, the harness or the tooling.

Every .py of every package is read (subpackages too), and every import counts: inside functions,
under ``if TYPE_CHECKING:``, relative ones, and ``importlib.import_module("...")`` with a literal.
tests/rules/test_purity.py separately keeps rules/ to the standard library.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import source_trees

ROOT = Path(__file__).resolve().parents[1]
# Our top-level packages; migrations/ is storage's Alembic scripts and lives on storage's floor.
OURS = ("rules", "storage", "rendering", "computer", "bot", "migrations")
# What each floor may not import. Only bot/ talks to Telegram (python-telegram-bot, its HTTP
# client) and only bot/ sits above the middle floor, whose rooms do not lean on one another; the
# database library stays in storage.
# The harness (the stand-in and its simulated players, the rules' references, the tests) sits
# beside the floors: nothing of the bot leans on it, and only the tests import the tests.
HARNESS = frozenset({"tests", "standin", "oracles"})
FORBIDDEN: dict[str, frozenset[str]] = {
    "rules": frozenset(OURS) - {"rules"} | HARNESS,
    "storage": frozenset({"telegram", "httpx", "bot", "rendering", "computer"}) | HARNESS,
    "migrations": frozenset({"telegram", "httpx", "bot", "rendering", "computer"}) | HARNESS,
    "rendering": frozenset({"telegram", "bot", "storage", "computer", "migrations",
                            "sqlalchemy", "alembic"}) | HARNESS,
    "computer": frozenset({"telegram", "bot", "storage", "rendering", "migrations",
                           "sqlalchemy", "alembic"}) | HARNESS,
    "bot": HARNESS,
    "standin": frozenset({"tests"}),
    "oracles": frozenset({"tests"}),
    "bench": frozenset({"tests"}),
    "tools": frozenset({"tests"}),
}
# The rooms held to the private-names rule (migrations/versions are generated scripts).
ROOMS = ("rules", "rendering", "storage", "bot", "computer")


@dataclass(frozen=True)
class Source:
    """One module: its dotted name, whether it is a package's __init__, its text and file."""

    module: str
    is_package: bool
    text: str
    file: str


@dataclass(frozen=True)
class Imported:
    """One import: the absolute module it names, the names taken from it (for ``from``)."""

    module: str
    names: tuple[str, ...]
    line: int
    is_from: bool


def sources(package: str) -> list[Source]:
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found.append(Source(".".join(parts), is_package, source_trees.text(path),
                            str(path.relative_to(ROOT))))
    assert found, f"no modules under {package}/"
    return found


def absolute(source: Source, node: ast.ImportFrom) -> str:
    """The module a ``from`` import names, with relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    package = source.module.split(".")
    if not source.is_package:
        package.pop()
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports(source: Source) -> Iterator[Imported]:
    for node in source_trees.nodes(source.text, source.file):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(alias.name, (), node.lineno, False)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            yield Imported(absolute(source, node), names, node.lineno, True)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and _called(node.func) in ("import_module", "__import__")):
            yield Imported(node.args[0].value, (), node.lineno, False)


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def floor_violations(floor: str, modules: list[Source]) -> list[str]:
    """One line per import that crosses the floor's rules: file, line, the import, why."""
    out = []
    for source in modules:
        for imp in imports(source):
            top = imp.module.split(".")[0]
            if top in FORBIDDEN[floor]:
                taken = f" ({', '.join(imp.names)})" if imp.names else ""
                out.append(f"{source.file}:{imp.line} imports {imp.module}{taken}: "
                           f"{floor}/ may not import {top}")
    return out


# ---- private names ---------------------------------------------------------------------------

def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_private_module(importer: str, dotted: str, known: set[str]) -> bool:
    """A private module may be used inside the package that holds it, and only there."""
    if dotted not in known:
        return False
    package = dotted.rsplit(".", 1)[0]
    return importer == package or importer.startswith(package + ".")


def private_path(importer: str, dotted: str, known: set[str]) -> str | None:
    """The first private step of ``dotted`` the importer may not take, if any."""
    parts = dotted.split(".")
    for i in range(1, len(parts)):
        step = ".".join(parts[: i + 1])
        if is_private(parts[i]) and not own_private_module(importer, step, known):
            return step
    return None


def private_uses(source: Source, known: set[str]) -> list[str]:
    """Another module's private names this module imports or reaches through an import."""
    out = []
    bound: dict[str, str] = {}  # local name -> the dotted thing of ours it refers to
    for imp in imports(source):
        if imp.module.split(".")[0] not in OURS:
            continue
        wrong = private_path(source.module, imp.module, known)
        if wrong:
            out.append(f"{source.file}:{imp.line} imports {wrong}")
            continue
        for name in imp.names:
            wrong = private_path(source.module, f"{imp.module}.{name}", known)
            if wrong:
                out.append(f"{source.file}:{imp.line} imports {wrong}")
    for node in source_trees.nodes(source.text, source.file):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OURS:
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            module = absolute(source, node)
            if module.split(".")[0] in OURS:
                for alias in node.names:
                    bound[alias.asname or alias.name] = f"{module}.{alias.name}"
    for node in source_trees.nodes(source.text, source.file):
        if not isinstance(node, ast.Attribute):
            continue
        chain = _attribute_chain(node)
        if chain and chain[0] in bound and is_private(chain[-1]):
            dotted = ".".join([bound[chain[0]], *chain[1:]])
            wrong = private_path(source.module, dotted, known)
            if wrong:
                out.append(f"{source.file}:{node.lineno} uses {wrong} "
                           f"(as {'.'.join(chain)})")
    return list(dict.fromkeys(out))


def _attribute_chain(node: ast.Attribute) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"] when the attribute hangs off a plain dotted name."""
    names: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        names.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return None
    return [current.id, *reversed(names)]


def known_modules() -> set[str]:
    return {s.module for package in OURS for s in sources(package)}


# ---- the tests on the code -------------------------------------------------------------------

@pytest.mark.parametrize("floor", sorted(FORBIDDEN))
def test_each_floor_imports_only_what_sits_below_it(floor: str) -> None:
    crossings = floor_violations(floor, sources(floor))
    assert not crossings, "\n".join(crossings)


def test_the_docs_hold_no_code() -> None:
    """The docs' picture tools live in tools/ (they import the stand-in, never tests.*)."""
    assert sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.py")) == []


def test_no_module_uses_another_modules_private_names() -> None:
    known = known_modules()
    uses = [line for package in ROOMS for s in sources(package) for line in private_uses(s, known)]
    assert not uses, "\n".join(uses)


# ---- the checks can fail ---------------------------------------------------------------------

def _source(module: str, text: str, is_package: bool = False) -> Source:
    file = module.replace(".", "/") + ("/__init__.py" if is_package else ".py")
    return Source(module, is_package, text, file)


@pytest.mark.parametrize(("module", "text", "expected"), [
    ("storage.usecases.turns", "import telegram\n",
     "storage/usecases/turns.py:1 imports telegram: storage/ may not import telegram"),
    ("storage.db", "def f():\n    from telegram.ext import Application\n",
     "storage/db.py:2 imports telegram.ext (Application): storage/ may not import telegram"),
    ("storage.usecases.turns", "from ...bot import texts\n",
     "storage/usecases/turns.py:1 imports bot (texts): storage/ may not import bot"),
    ("rendering.board", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from storage.results import Seat\n",
     "rendering/board.py:3 imports storage.results (Seat): rendering/ may not import storage"),
    ("rendering.board", "import sqlalchemy as sa\n",
     "rendering/board.py:1 imports sqlalchemy: rendering/ may not import sqlalchemy"),
    ("computer.aio", "import importlib\nm = importlib.import_module('bot.app')\n",
     "computer/aio.py:2 imports bot.app: computer/ may not import bot"),
    ("computer.players", "from rendering import render\n",
     "computer/players.py:1 imports rendering (render): computer/ may not import rendering"),
    ("rules.position", "from . import notation\nfrom storage import db\n",
     "rules/position.py:2 imports storage (db): rules/ may not import storage"),
    ("bench.instances", "from tests.bot.test_instances import live_boards\n",
     "bench/instances.py:1 imports tests.bot.test_instances (live_boards): "
     "bench/ may not import tests"),
    ("bot.app", "from standin import StandIn\n",
     "bot/app.py:1 imports standin (StandIn): bot/ may not import standin"),
])
def test_a_floor_crossing_is_named(module: str, text: str, expected: str) -> None:
    floor = module.split(".")[0]
    assert floor_violations(floor, [_source(module, text)]) == [expected]


@pytest.mark.parametrize(("module", "text"), [
    ("storage.db", "import sqlalchemy\nfrom rules.match import Match\nfrom . import models\n"),
    ("rendering.board", "from PIL import Image\nfrom rules import Position\n"),
    ("computer.players", "import gnubg_nn\nfrom .search import best\n"),
])
def test_allowed_imports_pass(module: str, text: str) -> None:
    assert floor_violations(module.split(".")[0], [_source(module, text)]) == []


KNOWN = {"rules", "rules.position", "rules.games", "storage", "storage.usecases",
         "storage.usecases._kernel", "storage.usecases.turns", "storage.replay"}


@pytest.mark.parametrize(("module", "text", "expected"), [
    ("rules.games",
     "from rules.position import (\n    Play,\n    _apply,\n    _moves,\n)\n",
     ["rules/games.py:1 imports rules.position._apply",
      "rules/games.py:1 imports rules.position._moves"]),
    ("rules.games", "from .position import _single_moves as moves\n",
     ["rules/games.py:1 imports rules.position._single_moves"]),
    ("storage.replay", "import rules.position\nx = rules.position._apply(1, 2)\n",
     ["storage/replay.py:2 uses rules.position._apply (as rules.position._apply)"]),
    ("storage.replay", "import rules.position as p\ndef f():\n    return p._apply\n",
     ["storage/replay.py:3 uses rules.position._apply (as p._apply)"]),
    ("storage.replay", "from rules import position\nposition._apply.__name__\n",
     ["storage/replay.py:2 uses rules.position._apply (as position._apply)"]),
    ("rules.games", "from rules.position import Position\nPosition._trusted(b)\n",
     ["rules/games.py:2 uses rules.position.Position._trusted (as Position._trusted)"]),
    ("storage.replay", "from storage.usecases import _kernel\n",
     ["storage/replay.py:1 imports storage.usecases._kernel"]),
    ("storage.replay", "from storage.usecases._kernel import Kernel\n",
     ["storage/replay.py:1 imports storage.usecases._kernel"]),
])
def test_a_private_name_from_elsewhere_is_named(module: str, text: str,
                                                expected: list[str]) -> None:
    assert private_uses(_source(module, text), KNOWN) == expected


@pytest.mark.parametrize(("module", "text", "is_package"), [
    ("storage.usecases.turns", "from ._kernel import Kernel\nfrom . import _kernel\n"
                               "_kernel.Kernel\n", False),
    ("storage.usecases", "from ._kernel import Kernel\n", True),
    ("rules.games", "from rules.position import Play\nPlay.__name__\nPlay.moves\n",
     False),
    ("bot.app", "from __future__ import annotations\nimport os\nos._exit(0)\n", False),
])
def test_public_names_and_a_packages_own_private_modules_pass(module: str, text: str,
                                                              is_package: bool) -> None:
    assert private_uses(_source(module, text, is_package), KNOWN) == []


# ---- Telegram facts and cycles ------------------------------------------------------------

def _names_a_chat_id(node: ast.expr) -> bool:
    """``chat_id``, ``row.chat_id``, ``match["chat_id"]``, ``old_chat_id``...: a chat's id."""
    if isinstance(node, ast.Name):
        return "chat_id" in node.id
    if isinstance(node, ast.Attribute):
        return "chat_id" in node.attr
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and isinstance(key.value, str) and (
            "chat_id" in key.value)
    return False


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def chat_sign_tests(source: Source) -> list[str]:
    """Where a module tells a chat's kind by the sign of its id (``chat_id < 0`` and the like),
    a Telegram convention storage must be told instead."""
    out = []
    for node in source_trees.nodes(source.text, source.file):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for (left, right), op in zip(itertools.pairwise(sides), node.ops, strict=True):
            ordered = isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
            if ordered and ((_names_a_chat_id(left) and _is_zero(right))
                            or (_is_zero(left) and _names_a_chat_id(right))):
                out.append(f"{source.file}:{node.lineno} tells a chat's kind by its id's sign")
    return out


def test_storage_never_tells_a_chat_kind_by_the_sign_of_its_id() -> None:
    found = [line for s in sources("storage") for line in chat_sign_tests(s)]
    assert not found, "\n".join(found)


# Beside our packages, the harness and the tooling: the stand-in, the rules' references, the
# benchmarks, the docs' picture tools.
TOOLING = ("standin", "oracles", "bench", "tools")


def _type_checking_lines(source: Source) -> set[int]:
    """The lines of the imports under ``if TYPE_CHECKING:`` (for annotations only: never run)."""
    lines = set()
    for node in source_trees.nodes(source.text, source.file):
        if isinstance(node, ast.If) and _called(node.test) == "TYPE_CHECKING":
            lines.update(n.lineno for stmt in node.body for n in ast.walk(stmt)
                         if isinstance(n, (ast.Import, ast.ImportFrom)))
    return lines


def import_graph(modules: list[Source]) -> dict[str, set[str]]:
    """Module -> the modules of ``modules`` it imports when it runs (anywhere in it, inside
    functions too; not under ``if TYPE_CHECKING:``); ``from package import name`` counts the
    submodule ``name`` when there is one."""
    known = {s.module for s in modules}
    graph: dict[str, set[str]] = {}
    for source in modules:
        edges = graph.setdefault(source.module, set())
        annotations_only = _type_checking_lines(source)
        for imp in (i for i in imports(source) if i.line not in annotations_only):
            targets = [f"{imp.module}.{name}" for name in imp.names]
            found = [t for t in targets if t in known]
            if imp.module in known and (not imp.is_from or len(found) < len(targets)):
                found.append(imp.module)
            edges.update(t for t in found if t != source.module)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected set of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def test_no_import_cycle_anywhere() -> None:
    modules = [s for package in (*OURS, *TOOLING) for s in sources(package)]
    cycles = import_cycles(import_graph(modules))
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize(("text", "found"), [
    ("def f(chat_id):\n    return chat_id < 0\n", 2),
    ("def f(row):\n    return 0 > row.chat_id\n", 2),
    ("def f(m):\n    return m['chat_id'] <= 0\n", 2),
    ("def f(old_chat_id):\n    return old_chat_id is not None and old_chat_id < 0\n", 2),
    ("def f(chat_id):\n    return chat_id == 0 or chat_id < 5\n", None),
    ("def f(player_id):\n    return player_id < 0\n", None),
])
def test_a_chat_kind_read_off_the_sign_is_named(text: str, found: int | None) -> None:
    named = chat_sign_tests(_source("storage.usecases.turns", text))
    assert named == ([f"storage/usecases/turns.py:{found} tells a chat's kind by its id's sign"]
                     if found else [])


def test_an_import_cycle_is_found_inside_functions_and_through_packages() -> None:
    modules = [
        _source("storage.ratings", "def main():\n    from storage.usecases import rating_write\n"),
        _source("storage.usecases", "", is_package=True),
        _source("storage.usecases.rating_write", "from storage.ratings import rate\n"),
        _source("storage.usecases.kernel", "from storage.usecases.rating_write import x\n"),
        _source("bench.a", "import bench.b\n"),
        _source("bench.b", "from bench import a\n"),
        _source("standin.sim", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                               "    from .server import StandIn\n"),
        _source("standin.server", "from .sim import Chat\n"),
    ]
    assert import_cycles(import_graph(modules)) == [
        ["bench.a", "bench.b"], ["storage.ratings", "storage.usecases.rating_write"]]


def test_no_test_module_imports_another() -> None:
    """Helpers and fixtures shared by test modules live in ``helpers`` modules and
    ``conftest.py``; a test module read alone says everything it depends on."""
    root = Path(__file__).resolve().parent
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in source_trees.file_nodes(path):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(root)}:{node.lineno} imports {name}" for name in names
                      if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")]
    assert found == []
