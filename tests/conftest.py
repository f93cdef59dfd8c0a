"""The run's order: the tests that take many seconds (marked ``long``) come first, so that the
pytest-xdist workers end together. With ``--dist worksteal`` (pyproject.toml's addopts) each of
the ``n`` workers starts on its own contiguous ``n``-th of the collection and an idle worker
takes tests from the end of another's; every share begins with its part of the long tests
(dealt round-robin), the short ones fill in behind them, and no long test is left to start when
the rest is done.

Order only: nothing here changes what a test does or how long it may take.

And bytecode: the run keeps the compiled modules it makes (``__pycache__``, ignored by git) even
where ``PYTHONDONTWRITEBYTECODE`` is set, for itself and the processes it starts. Without them
each of the hundred-odd bot processes, engine workers and pytest workers of a run compiled the
whole bot again, and each worker rewrote every test module's asserts: 2.3 CPU s to start a bot
process against 1.7 with them, 7.4 s to collect the suite against 3.0 (measured on 2 cores)."""

from __future__ import annotations

import gc
import os
import sys

import pytest

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


def workers() -> int:
    """How many pytest-xdist workers share the run (1 without xdist)."""
    try:
        return max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    except ValueError:
        return 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long tests first in each worker's share, the rest in their usual order behind them.

    Last of the hooks: after ``-m 'not full'`` deselected the whole sets. Before it, the
    shares were cut on the collection with them, and the removal of the long ``[full]``
    tests moved the cuts: two workers began on short tests, one reaching its long ones only
    at two thirds of the run, and the run ended on it with the other core idle."""
    long = [item for item in items if item.get_closest_marker("long") is not None]
    if not long:
        return
    rest = [item for item in items if item.get_closest_marker("long") is None]
    n = workers()
    ordered: list[pytest.Item] = []
    for k in range(n):
        # worksteal's split: worker k gets (what is left) // (workers left) of the collection
        share = (len(items) - len(ordered)) // (n - k)
        heads = long[k::n]
        room = max(0, share - len(heads))
        ordered += heads + rest[:room]
        del rest[:room]
    items[:] = ordered + rest


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (every module, test and parameter: some 300,000 objects) lives as
    long as the run: frozen out of the garbage collector's way, each full collection of a
    worker scans only what the tests made since (gc.freeze, as a pre-fork server does)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


GC_THRESHOLDS = (5000, 20, 50)
"""The collector's thresholds in a test process, after collection: a young collection every
5,000 new objects, not 700 (more of them are freed by their counts before any scan), and a
full one every thousand of those, not every hundred. A test process makes and drops bots,
databases and stand-ins all run long; measured over a whole run (six workers), its time went
from about 21 to 15 CPU s, the full collections' from about 11 to 2. The bot as shipped keeps
Python's own thresholds: these are the test processes' only."""
