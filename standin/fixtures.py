"""Pytest fixtures for the stand-in; import them into a conftest.py:

    from standin.fixtures import standin  # noqa: F401
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .server import StandIn


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """A running stand-in (token ``123:ABC``, bot ``@portes_test_bot``), stopped afterwards."""
    with StandIn() as server:
        yield server
