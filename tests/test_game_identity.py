"""No game identity outside the games: bot/, storage/, rendering/ and computer/ ask the registry
(:mod:`rules.game`) and the capabilities, never which game a position or a match is.

Flagged in every module of those packages: ``isinstance(..., StepsPosition)``, a ``Variant``
member (``Variant.PORTES``), and a game's or match kind's key as a literal (``== "portes"``,
``in ("portes", "tavli")``, ``game: str = "portes"``). Allowed:

* the computer's engines of one family of games, which are that game's player (their choice
  goes through :mod:`computer.decide`);
* in the games' texts module (:data:`TEXTS`), keys as dict keys: the texts the bot has per
  game (rule sheets), which adding a game extends;
* "portes" as the project's name, not a game's: the bot's ``bot_data`` slot and the gettext
  domain.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.game import GAMES, KINDS
from tests import source_trees

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "storage", "rendering", "computer")
ENGINES = frozenset({"computer/steps_easy.py", "computer/steps_eval.py", "computer/steps_medium.py",
                     "computer/steps/easy.py", "computer/steps/evaluation.py",
                     "computer/steps/medium.py", "computer/steps_features.py",
                     "computer/steps_net.py", "computer/train.py"})
"""The step-engine games' computer players: each knows the games it plays."""
TEXTS = frozenset({"bot/views/games.py"})
"""The games' texts."""
PROJECT_NAME = {"bot/views/i18n.py": "DOMAIN"}
KEYS = frozenset(GAMES) | frozenset(KINDS)


def modules() -> Iterator[tuple[str, ast.Module, list[str]]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in ENGINES:
                text = source_trees.text(path)
                yield name, source_trees.tree(text, str(path)), text.splitlines()


def dict_keys(tree: ast.AST) -> set[int]:
    return {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict)
            for k in node.keys if k is not None}


def docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            out.add(id(node.value))
    return out


def asks_type(node: ast.AST) -> bool:
    """``isinstance(x, StepsPosition)`` (or a tuple naming it)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance" and len(node.args) == 2
            and "StepsPosition" in ast.dump(node.args[1]))


def names_variant(node: ast.AST) -> bool:
    """``Variant.PORTES`` and the like."""
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "Variant")


def identity_tests(name: str, tree: ast.Module, lines: list[str]) -> list[str]:
    found = []
    keys = dict_keys(tree) if name in TEXTS else set()
    skip = docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        where = f"{name}:{line}: {lines[line - 1].strip() if line else ''}"
        if asks_type(node) or names_variant(node):
            found.append(where)
        elif (isinstance(node, ast.Constant) and node.value in KEYS and id(node) not in keys
              and id(node) not in skip):
            text = lines[line - 1]
            if "bot_data" in text or PROJECT_NAME.get(name, "\0") in text:
                continue
            found.append(where)
    return found


def test_no_module_outside_the_games_asks_which_game_it_is() -> None:
    found = [hit for name, tree, lines in modules() for hit in identity_tests(name, tree, lines)]
    assert not found, "ask rules.game's registry and capabilities instead:\n" + "\n".join(found)


@pytest.mark.parametrize("snippet", [
    'if state.game_type != "portes":\n    pass\n',
    'ok = game in ("portes", "tavli")\n',
    'def f(game: str = "nardy") -> None: ...\n',
    'flat = isinstance(position, StepsPosition)\n',
    'plakoto = position.variant == Variant.PLAKOTO\n',
])
def test_the_check_sees_each_kind_of_identity_test(snippet: str) -> None:
    assert identity_tests("bot/x.py", ast.parse(snippet), snippet.splitlines())


def test_the_check_leaves_the_registry_questions_alone() -> None:
    snippet = ('review = find_kind(mv.state.game_type).gnubg\n'
               'RULES = {"portes": 1}\n'
               'p = app.bot_data["portes"]\n')
    assert identity_tests("bot/x.py", ast.parse(snippet), snippet.splitlines()) == [
        'bot/x.py:2: RULES = {"portes": 1}']
    assert identity_tests("bot/views/games.py", ast.parse(snippet), snippet.splitlines()) == []
