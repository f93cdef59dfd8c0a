"""The project's sources as the static tests read them, parsed once per test process.

The tests on the code (layers, private names, callback literals, clock assertions, the texts
shown in alerts and on buttons, the rules' purity) each walk hundreds of modules; parsing a
module again for every check was most of their CPU. The first of them in a process parses every
module of the project at once (about 0.7 CPU s for 500 modules) and the trees are kept to the
end; then the collector is told they stay (``gc.freeze``, after a full collection so that no
garbage is frozen with them): otherwise each of its full passes scanned the half a million
nodes again (measured: 3.2 s of collections against 0.2 s in the static tests alone). The trees
are shared: a test reads them and never changes them. A file outside the project (a test's own
temporary module) or a snippet a test wrote is parsed when asked, and not kept.
"""

from __future__ import annotations

import ast
import functools
import gc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Module:
    text: str
    tree: ast.Module
    nodes: tuple[ast.AST, ...]
    """Every node of :attr:`tree`, in :func:`ast.walk`'s order."""


def _read(text: str, filename: str) -> Module:
    tree = ast.parse(text, filename)
    return Module(text, tree, tuple(ast.walk(tree)))


def _project_files() -> list[Path]:
    return sorted(path for folder in ROOT.iterdir()
                  if folder.is_dir() and not folder.name.startswith(".")
                  and not folder.name.endswith(".egg-info")
                  for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


@functools.cache
def _project() -> tuple[dict[Path, Module], dict[str, Module]]:
    gc.collect()
    gc.disable()
    try:
        by_path = {path: _read(path.read_text(encoding="utf-8"), str(path))
                   for path in _project_files()}
    finally:
        gc.enable()
    gc.freeze()
    by_text = {m.text: m for m in by_path.values()}
    return by_path, by_text


def module(path: Path) -> Module:
    """The module at ``path``."""
    found = _project()[0].get(path.resolve())
    return found if found is not None else _read(path.read_text(encoding="utf-8"), str(path))


def text(path: Path) -> str:
    return module(path).text


def file_tree(path: Path) -> ast.Module:
    return module(path).tree


def file_nodes(path: Path) -> tuple[ast.AST, ...]:
    return module(path).nodes


def _of_text(source: str, filename: str) -> Module:
    found = _project()[1].get(source)
    return found if found is not None else _read(source, filename)


def tree(source: str, filename: str = "<unknown>") -> ast.Module:
    """``source`` parsed: a project module's text, or a snippet a test wrote (``filename``
    names it in a syntax error)."""
    return _of_text(source, filename).tree


def nodes(source: str, filename: str = "<unknown>") -> tuple[ast.AST, ...]:
    """Every node of :func:`tree`."""
    return _of_text(source, filename).nodes
