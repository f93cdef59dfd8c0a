"""The big comparisons and strength checks: a fixed sample in the default run, the whole set
in CI.

A test (or fixture) parametrized with :func:`sample_or_full` runs twice: ``[sample]``, a
deterministic share (every n-th item of a seeded corpus, or its first few), in the default run;
and ``[full]``, the whole set, marked ``full``: the default run deselects it (``-m 'not full'``
in pyproject.toml's addopts) and ``.ci/run`` runs it after the README's test command
(``pytest -m full``)."""

from __future__ import annotations

from typing import Any

import pytest


def sample_or_full(sample: Any, full: Any) -> list[Any]:
    """The two parameters: ``sample`` (id ``sample``) and ``full`` (id ``full``, marked
    ``full``)."""
    return [pytest.param(sample, id="sample"),
            pytest.param(full, id="full", marks=pytest.mark.full)]
