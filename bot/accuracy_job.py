"""The accuracy figure's background job: every so often, the finished matches between people
that have no figure yet are judged (:mod:`computer.accuracy`, in the engine's worker process)
and stored (:meth:`storage.usecases.accuracy.AccuracyCases.store_accuracy`, which asks the
match's end boards to show it, through the outbox). Idempotent: a figure is stored once, by
whichever instance gets there first; a match that cannot be judged here (the engine it needs
is not installed, its log does not replay) is left for another instance and not tried again by
this one."""

from __future__ import annotations

import logging

from bot.computer_player import decisions_from_record
from bot.state import Portes
from computer import aio
from computer.engine import EngineMissing

log = logging.getLogger("bot.accuracy")

BATCH = 2
"""Matches judged per run."""


class AccuracyJob:
    def __init__(self, portes: Portes) -> None:
        self.p = portes
        self.skipped: set[int] = set()

    async def run_once(self) -> int:
        """Judge up to :data:`BATCH` matches; returns how many figures were stored."""
        wanted = await self.p.uc.matches_to_judge(BATCH + len(self.skipped))
        stored = 0
        for match_id in [m for m in wanted if m not in self.skipped][:BATCH]:
            if await self.judge(match_id):
                stored += 1
        return stored

    async def judge(self, match_id: int) -> bool:
        record = await self.p.uc.match_record(match_id)
        if record is None:
            self.skipped.add(match_id)
            return False
        try:
            decisions = decisions_from_record(record)
            figure = await aio.match_accuracy_async(decisions, record.match.state.options)
        except EngineMissing:
            log.info("match %s: no accuracy figure here (the engine is not installed)",
                     match_id)
            self.skipped.add(match_id)
            return False
        except Exception:
            log.exception("match %s: the accuracy figure failed", match_id)
            self.skipped.add(match_id)
            return False
        keys = await self.p.uc.store_accuracy(
            match_id, [(a.decisions, a.equity_lost) for a in figure.players], figure.evaluator)
        if keys and self.p.delivery is not None:
            self.p.delivery.kick(*keys)
        return bool(keys)
