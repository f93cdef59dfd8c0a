"""The score of a match given up (issue 27): a match resigned, or lost on time, is won with the
points still missing to reach its length (``Match.resign_match``); until now the score stayed
where the games had left it, so "Alice wins the match 0–0" was shown, and /stats counted such a
win as 0 points for. The matches that ended so keep their games and their results; their score
(the ``score0``/``score1`` columns and the stored state's ``score``) becomes the one the rule
gives, as for a match given up from now on.

Downgrading gives them back the score their games made (the sum of the games' points), which is
what the older code kept.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 08:00:00.000000
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GIVEN_UP = sa.text(
    "SELECT id, length, winner, score0, score1, state FROM matches "
    "WHERE status IN ('finished', 'abandoned') AND end_reason IN ('resigned', 'timeout') "
    "AND winner IN (0, 1) ORDER BY id")
RESCORE = sa.text("UPDATE matches SET score0 = :s0, score1 = :s1, state = :state WHERE id = :id")

Score = tuple[int, int]


def _rescore(score_of: Callable[[int, int, Score, dict[str, Any]], Score]) -> None:
    """Give every match given up the score ``score_of`` says, in its columns and its state (the
    state's JSON written as the rules core writes it: sorted keys, no spaces)."""
    bind = op.get_bind()
    for match_id, length, winner, score0, score1, state in bind.execute(GIVEN_UP).fetchall():
        try:
            data = json.loads(state)
        except ValueError:
            continue  # a state that cannot be read is not touched (/games closes such a match)
        if not isinstance(data, dict):
            continue
        new = score_of(length, winner, (score0, score1), data)
        if new == (score0, score1) and data.get("score") == list(new):
            continue
        data["score"] = list(new)
        bind.execute(RESCORE, {"id": match_id, "s0": new[0], "s1": new[1],
                               "state": json.dumps(data, separators=(",", ":"), sort_keys=True)})


def _won_to_length(length: int, winner: int, score: Score, _data: dict[str, Any]) -> Score:
    out = list(score)
    out[winner] = max(out[winner], length)
    return out[0], out[1]


def _games_made(_length: int, _winner: int, _score: Score, data: dict[str, Any]) -> Score:
    """The score the games made: each result is ``[game, winner, kind, points, resigned, ...]``;
    a drawn game (no winner) scores nothing."""
    out = [0, 0]
    for result in data.get("results") or []:
        if result[1] in (0, 1):
            out[result[1]] += int(result[3])
    return out[0], out[1]


def upgrade() -> None:
    _rescore(_won_to_length)


def downgrade() -> None:
    _rescore(_games_made)
