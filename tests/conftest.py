"""Tests marked ``alone`` run with the machine to themselves: under pytest-xdist the other
worker waits between its tests while one runs. The multi-instance test plays 50 matches out in
3 minutes on two cores; with another worker's tests beside it, it measures the neighbour."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _share_the_machine(request: pytest.FixtureRequest,
                       tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    run = tmp_path_factory.getbasetemp().parent  # shared by this run's workers
    alone = request.node.get_closest_marker("alone") is not None
    # the gate keeps new tests from slipping in while an ``alone`` test waits for the machine
    with open(run / "gate.lock", "a") as gate, open(run / "machine.lock", "a") as machine:
        fcntl.flock(gate, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        fcntl.flock(machine, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(machine, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)
