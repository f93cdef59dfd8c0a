"""Pytest fixtures for the stand-in; import them into a conftest.py:

    from standin.fixtures import standin  # noqa: F401
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .server import StandIn


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """A running stand-in (token ``123:ABC``, bot ``@portes_test_bot``), stopped afterwards.
    Photos keep the bytes the bot sent as their largest size (Telegram recompresses them: a
    test that needs that makes its own ``StandIn(recompress_photos=True)``); that JPEG round
    was about a tenth of the suite's CPU."""
    with StandIn(recompress_photos=False) as server:
        yield server
