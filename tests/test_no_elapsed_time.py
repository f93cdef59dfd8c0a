"""No test asserts how long something took: on a loaded machine every such bound fails sooner or
later, and a fast one proves nothing about the next machine. Where time must pass (leases,
back-offs, rate windows, reminders) a test moves an injected clock (the stand-in's
``ManualClock``, ``ChatLimiter(clock=..., sleep=...)``, ``UseCases(clock=..., wall=...)``);
speed is measured in ``bench/``. Hang guards stay: a generous ``timeout=`` on a wait, which
says what it waited for.

This file reads every module under tests/ and standin/ (the players and instances the tests
drive the bot with) and fails on an assertion (``assert``, or an ``if``
that asserts, raises ``AssertionError`` or calls ``pytest.fail``) that compares a clock reading
(``time.monotonic()``, ``time.perf_counter()``, ``time.time()``, ``loop.time()``), a value
computed from one, or a variable named like a duration (``took``, ``elapsed``, ``answered``,
``waited``, ...) with something; on a ``timeout=`` computed from a clock reading (what is left
of a deadline); and on any line the before-stop hook's grep matches.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests import source_trees

TESTS = Path(__file__).resolve().parent
SCANNED = (TESTS, TESTS.parent / "standin")
CLOCK_FUNCTIONS = frozenset({"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
                             "time", "time_ns", "process_time"})
BARE_CLOCKS = CLOCK_FUNCTIONS - {"time"}
"""Clock functions recognised when imported by name (``from time import monotonic``)."""
DURATION = re.compile(r"^_?(took|elapsed|answered|waited|duration|latency|spent)")
ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
HOOK_GREP = re.compile(r"assert .*(monotonic\(\)|perf_counter\(\)|time\.time\(\))"
                       r"|assert (took|elapsed|answered|waited)[a-z_]* *[<>]")
"""The grep of /work/shared/hooks/before-stop, line by line."""


def is_clock(node: ast.AST) -> bool:
    """A call that reads a clock: ``time.monotonic()``, ``monotonic()``, ``loop.time()``..."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in BARE_CLOCKS
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value
    if isinstance(owner, ast.Name) and owner.id == "time":
        return func.attr in CLOCK_FUNCTIONS
    if func.attr != "time":
        return False
    return ((isinstance(owner, ast.Name) and owner.id == "loop")
            or (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute | ast.Name)
                and getattr(owner.func, "attr", getattr(owner.func, "id", "")) in (
                    "get_running_loop", "get_event_loop")))


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def walk(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function, its nested functions included (they share its names); of a
    module, those outside its functions (each function is a scope of its own)."""
    if isinstance(scope, FUNCTIONS):
        yield from ast.walk(scope)
        return
    todo = [scope]
    while todo:
        node = todo.pop()
        yield node
        todo += [n for n in ast.iter_child_nodes(node) if not isinstance(n, FUNCTIONS)]


def timed_names(scope: ast.AST) -> set[str]:
    """Names bound in ``scope`` to a clock reading or to something computed from one."""
    bindings: list[tuple[set[str], ast.AST]] = []
    for node in walk(scope):
        if isinstance(node, ast.Assign):
            targets = set().union(*(names_in(t) for t in node.targets))
            bindings.append((targets, node.value))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
            bindings.append((names_in(node.target), node.value))
        elif isinstance(node, ast.NamedExpr):
            bindings.append(({node.target.id}, node.value))
    timed: set[str] = set()
    changed = True
    while changed:
        changed = False
        for targets, value in bindings:
            if targets <= timed:
                continue
            if any(is_clock(n) for n in ast.walk(value)) or names_in(value) & timed:
                timed |= targets
                changed = True
    return timed


def watches_the_clock(test: ast.AST, timed: set[str]) -> bool:
    """``test`` compares a clock reading, a value timed from one, or a duration."""
    for node in ast.walk(test):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for side in sides:
            if any(is_clock(n) for n in ast.walk(side)) or names_in(side) & timed:
                return True
        if any(isinstance(op, ORDER) for op in node.ops) and any(
                isinstance(side, ast.Name) and DURATION.match(side.id) for side in sides):
            return True
    return False


def fails(body: list[ast.stmt]) -> bool:
    """The block asserts, raises ``AssertionError`` or calls ``pytest.fail``."""
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "AssertionError":
                return True
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "fail"):
            return True
    return False


def clock_assertions(source: str) -> Iterator[int]:
    """The line numbers of the assertions on elapsed time in ``source``."""
    tree = source_trees.tree(source)
    scopes = [tree, *(n for n in source_trees.nodes(source) if isinstance(n, FUNCTIONS))]
    found: set[int] = set()
    for scope in scopes:
        timed = timed_names(scope)
        for node in walk(scope):
            if isinstance(node, ast.Assert | ast.If) and watches_the_clock(node.test, timed) and (
                    isinstance(node, ast.Assert) or fails(node.body)):
                found.add(node.lineno)
            elif isinstance(node, ast.keyword) and node.arg == "timeout" and (
                    any(is_clock(n) for n in ast.walk(node.value))
                    or names_in(node.value) & timed):
                found.add(node.value.lineno)  # a wait bounded by what is left of a deadline
    yield from sorted(found)


def test_no_test_asserts_how_long_something_took() -> None:
    offences = []
    for path in sorted(p for folder in SCANNED for p in folder.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(TESTS.parent)
        lines = source.splitlines()
        offences += [f"{where}:{n}: {lines[n - 1].strip()}" for n in clock_assertions(source)]
        offences += [f"{where}:{n}: {line.strip()} (the hook's grep)"
                     for n, line in enumerate(lines, 1) if HOOK_GREP.search(line)]
    assert offences == [], "\n".join(offences)


A = "assert"  # the examples below spell it so, or the hook's grep would find this very file


def test_the_scan_finds_each_shape_of_a_timing_assertion() -> None:
    shapes = [
        f"import time\nt0 = time.perf_counter()\nwork()\ntook = time.perf_counter() - t0\n"
        f"{A} took >= 4.0\n",
        f"def f():\n    began = time.monotonic()\n    {A} time.monotonic() - began < 1.5\n",
        f"{A} abs(at - time.time()) < 1\n",
        f"from time import monotonic\ndef f(died):\n    {A} monotonic() - died >= 2.5, 'held'\n",
        f"async def f():\n    loop = asyncio.get_running_loop()\n    start = loop.time()\n"
        f"    await x()\n    spent = loop.time() - start\n    {A} spent < 2\n",
        f"def f(answered):\n    {A} answered < 1.5, answered\n",
        "def f(t0):\n    if time.monotonic() - t0 > 180:\n"
        "        raise AssertionError('not over in time')\n",
        f"def f(deadline):\n    while True:\n        {A} time.monotonic() < deadline, 'a turn'\n",
        f"def f(died, mv):\n    if time.monotonic() - died < 2.5:\n        {A} mv.version == 3\n",
        "async def f(began):\n    await asyncio.wait_for(playing, "
        "timeout=180 - (time.monotonic() - began))\n",
    ]
    for source in shapes:
        assert list(clock_assertions(source)), source


def test_the_scan_leaves_hang_guards_and_the_stand_ins_clock_alone() -> None:
    fine = [
        # a hang guard: a wait with a timeout, which says what it waited for
        "async def f(standin):\n    await standin.wait_for(ready, timeout=30, what='a board')\n",
        "def f(deadline):\n    while time.monotonic() < deadline:\n        poll()\n"
        "    raise AssertionError('never listened')\n",
        # times Telegram recorded, on the stand-in's (manual) clock: what the user saw
        f"def f(calls):\n    times = sorted(c.time for c in calls)\n"
        f"    {A} max(b - a for a, b in zip(times, times[1:])) <= 60\n",
        # a clock the test moves
        f"def f(wall, taken):\n    wall.advance(2.05)\n    {A} taken == [wall()]\n",
        f"def f(answer):\n    {A} answer is not None\n",
    ]
    for source in fine:
        assert list(clock_assertions(source)) == [], source
