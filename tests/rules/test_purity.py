"""The rules core stays pure: standard library only, no I/O, no clock, no global randomness;
and its modules form layers: no import cycle, no reaching into another module's private names."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests import source_trees

RULES = Path(__file__).resolve().parents[2] / "rules"
IO_AND_CLOCK = {
    "os",
    "io",
    "time",
    "datetime",
    "socket",
    "sqlite3",
    "urllib",
    "http",
    "pathlib",
    "subprocess",
    "threading",
    "asyncio",
    "shutil",
    "tempfile",
    "logging",
    "select",
}
# The fair-dice verifier is also a tiny command line; only its main() may read arguments.
CLI_ONLY = {"argparse", "sys"}


def modules() -> list[Path]:
    files = sorted(RULES.rglob("*.py"))
    assert files
    return files


def dotted(path: Path) -> str:
    """``rules/portes/board.py`` -> ``rules.portes.board`` (a package's ``__init__``: its name)."""
    parts = path.relative_to(RULES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_rules_imports_only_the_standard_library_and_itself() -> None:
    for path in modules():
        for name in imported(source_trees.file_tree(path)):
            assert name == "rules" or name in sys.stdlib_module_names or name == "__future__", (
                f"{path.name} imports {name}"
            )


def test_rules_does_no_io_and_reads_no_clock() -> None:
    for path in modules():
        names = imported(source_trees.file_tree(path))
        assert not names & IO_AND_CLOCK, f"{path.name} imports {names & IO_AND_CLOCK}"
        if path.name != "fairdice.py":
            assert not names & CLI_ONLY, f"{path.name} imports {names & CLI_ONLY}"
            assert "print(" not in path.read_text(), path.name


def test_no_global_random_generator() -> None:
    for path in modules():
        for node in source_trees.file_nodes(path):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert all(a.name == "Random" for a in node.names), path.name


def rules_imports(path: Path) -> set[str]:
    """The rules modules ``path`` imports, at the top or inside a function alike."""
    targets: set[str] = set()
    for node in source_trees.file_nodes(path):
        if isinstance(node, ast.Import):
            targets |= {a.name for a in node.names if a.name.startswith("rules.")}
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the module's own package
                package = dotted(path).split(".")
                if path.name != "__init__.py":
                    package = package[:-1]
                base = ".".join(package[: len(package) - node.level + 1])
                module = base + ("." + module if module else "")
            if module == "rules":
                targets |= {f"rules.{a.name}" for a in node.names}
            elif module.startswith("rules."):
                targets.add(module)
    return targets


def test_no_import_cycle_inside_rules() -> None:
    graph = {dotted(p): rules_imports(p) for p in modules()}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            cycle = [*trail[trail.index(module) :], module]
            raise AssertionError(f"import cycle: {' -> '.join(cycle)}")
        if module in done or module not in graph:
            return
        for target in sorted(graph[module]):
            visit(target, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])

