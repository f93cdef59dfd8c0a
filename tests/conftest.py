"""The run's order: the tests that take many seconds (marked ``long``) come first, so that the
two pytest-xdist workers end together. With ``--dist worksteal`` (pyproject.toml's addopts)
each worker starts on its half of the collection and an idle worker takes tests from the end
of the other's; the long tests at the front are then shared out while the short ones fill
in behind them, and no long test is left to start when the rest is done.

Order only: nothing here changes what a test does or how long it may take."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long tests first, alternating between the two halves of the collection (a worker's
    first half holds every other long test), the rest in their usual order behind them."""
    long = [item for item in items if item.get_closest_marker("long") is not None]
    if not long:
        return
    rest = [item for item in items if item.get_closest_marker("long") is None]
    half = len(items) // 2
    first, second = long[0::2], long[1::2]
    head = first + rest[: max(0, half - len(first))]
    tail = rest[max(0, half - len(first)):]
    items[:] = head + second + tail
