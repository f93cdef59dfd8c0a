"""The accuracy figures' queries: the matches still to judge, each player's last figures in a
game, and the figures of two players' matches against each other (see
:mod:`computer.accuracy` for what a figure is; the rows: :class:`storage.models.AccuracyRow`).

A figure is kept as its parts (decisions, equity lost in points); the views give the error rate
in thousandths of a point per decision and the performance rating (500 x equity lost /
decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, text

LAST = 10
"""/stats averages the figures of the player's last this many judged matches."""

_TO_JUDGE = text(
    "SELECT m.id FROM matches m WHERE m.status IN ('finished', 'abandoned') "
    "AND m.winner IS NOT NULL AND m.computer_level IS NULL AND m.player0_id IS NOT NULL "
    "AND m.player1_id IS NOT NULL "
    "AND NOT EXISTS (SELECT 1 FROM match_accuracy a WHERE a.match_id = m.id) "
    "ORDER BY m.finished_at DESC, m.id DESC LIMIT :n")


@dataclass(frozen=True)
class Figure:
    """A player's figure over one match or an average over several."""

    decisions: int
    equity_lost: float
    evaluator: str = ""
    match_id: int | None = None

    @property
    def error_rate(self) -> float:
        """Thousandths of a point lost per decision."""
        return 1000.0 * self.equity_lost / self.decisions if self.decisions else 0.0

    @property
    def performance_rating(self) -> float:
        """500 x equity lost / decisions."""
        return 500.0 * self.equity_lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class AccuracySummary:
    """/stats: the last :data:`LAST` judged matches of a player in a game."""

    matches: int
    average: Figure | None
    """Over those matches' decisions together (``None``: no judged match)."""
    best: Figure | None
    """The match with the lowest error rate among them."""


def to_judge(conn: Connection, limit: int) -> list[int]:
    """Finished matches between people without a figure yet, newest first."""
    return [int(r[0]) for r in conn.execute(_TO_JUDGE, {"n": limit})]


def _figures(rows: Sequence[Sequence[object]]) -> list[Figure]:
    return [Figure(int(str(r[0])), float(str(r[1])), str(r[2]), int(str(r[3]))) for r in rows]


def of_match(conn: Connection, match_id: int) -> tuple[Figure, Figure] | None:
    rows = conn.execute(text(
        "SELECT decisions, equity_lost, evaluator, match_id FROM match_accuracy "
        "WHERE match_id = :m ORDER BY seat"), {"m": match_id}).all()
    if len(rows) != 2:
        return None
    first, second = _figures(rows)
    return first, second


def summary(conn: Connection, player: int, game: str, other: int | None = None) -> AccuracySummary:
    """A player's last judged matches in ``game`` (with ``other``: those against them)."""
    against = ("AND EXISTS (SELECT 1 FROM match_accuracy b WHERE b.match_id = a.match_id "
               "AND b.player_id = :o AND b.seat <> a.seat) " if other is not None else "")
    rows = conn.execute(text(
        "SELECT a.decisions, a.equity_lost, a.evaluator, a.match_id FROM match_accuracy a "
        f"WHERE a.player_id = :p AND a.game = :g {against}"
        "ORDER BY a.finished_at DESC, a.match_id DESC LIMIT :n"),
        {"p": player, "g": game, "o": other, "n": LAST}).all()
    figures = [f for f in _figures(rows) if f.decisions]
    if not figures:
        return AccuracySummary(0, None, None)
    decisions = sum(f.decisions for f in figures)
    lost = sum(f.equity_lost for f in figures)
    best = min(figures, key=lambda f: (f.error_rate, -f.decisions))
    return AccuracySummary(len(figures), Figure(decisions, lost), best)
