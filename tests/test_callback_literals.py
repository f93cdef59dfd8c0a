"""The tests build our callback data with :func:`bot.views.callbacks.encode` and read it with
:func:`bot.views.callbacks.decode`, never by hand: a literal such as ``"lb:0:0:p"`` or
``f"t:{comp.id}:1:j"`` says less than ``encode(Action.TOP_GAME, ...)`` and goes stale
silently when the format changes, and so does a prefix check such as ``startswith("f:")``.

Every string literal of tests/, standin/ and bench/ is read with :mod:`ast`: one that decodes as
our data (an f-string with each placeholder taken as ``1``), or that is an action's prefix
(``"f:"``), is hand-written data. Data that encode refuses to build (a wrong shape, an unknown
action, a personal card's button without its owner...) stays hand-written, on a line whose
comment says ``malformed on purpose``. tests/bot/test_callbacks.py tests the codec itself and
is not read.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

from bot.views.callbacks import Action, decode
from tests import source_trees

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("tests", "standin", "bench")
CODEC_TESTS = Path("tests/bot/test_callbacks.py")
MARK = "malformed on purpose"
PREFIXES = frozenset(f"{action.value}:" for action in Action)


def marked_lines(source: str) -> set[int]:
    """The lines whose comment says the data on them is malformed on purpose."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0] for t in tokens if t.type == tokenize.COMMENT and MARK in t.string}


def as_data(node: ast.expr) -> str | None:
    """The text of a string literal as callback data would carry it (an f-string with each
    placeholder taken as ``1``), or ``None`` for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "1" for v in node.values)
    return None


def literals(path: Path) -> list[tuple[int, str]]:
    """Where ``path`` writes our callback data by hand, outside the lines marked malformed:
    the line and the literal as written."""
    source = source_trees.text(path)
    every = source_trees.nodes(source, str(path))
    marked = marked_lines(source)
    # an f-string's pieces are read as the whole f-string, not on their own
    pieces = {id(v) for node in every if isinstance(node, ast.JoinedStr)
              for v in node.values}
    found = []
    for node in every:
        if not isinstance(node, ast.expr) or id(node) in pieces:
            continue
        text = as_data(node)
        if text is None or not (decode(text) is not None or text in PREFIXES):
            continue
        if not marked.intersection(range(node.lineno, (node.end_lineno or node.lineno) + 1)):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def hand_written(root: Path) -> list[str]:
    """``file:line: literal`` for each piece of callback data written by hand under ``root``."""
    found = []
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root)
            if rel == CODEC_TESTS:
                continue
            found += [f"{rel}:{line}: {written}" for line, written in literals(path)]
    return found


def test_callback_data_is_built_with_encode_not_by_hand() -> None:
    found = hand_written(ROOT)
    assert not found, ("callback data written by hand: build it with "
                       "bot.views.callbacks.encode (or read it with decode), or mark data "
                       f"encode refuses with a '# {MARK}' comment:\n" + "\n".join(found))


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    source = (
        'a = "lb:0:0:p"\n'
        'b = f"t:{comp.id}:1:j"\n'
        'c = data.startswith("f:")\n'
        'd = "lb:0:0:k"  # malformed on purpose: no owner\n'
        'e = "lb:0:0:k\\n"\n'  # not our data's shape at all: nothing to say
        'f = encode(Action.TOP_GAME, 0, 0, "p", owner=1)\n'
        'g = f"{Action.FROM}:"\n'
        'h = "Opponent found: Bob"\n'
    )
    path = tmp_path / "sample.py"
    path.write_text(source)
    assert literals(path) == [(1, "'lb:0:0:p'"), (2, "f't:{comp.id}:1:j'"), (3, "'f:'")]
