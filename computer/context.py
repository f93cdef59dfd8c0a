"""The match situation a decision is made in."""

from __future__ import annotations

from dataclasses import dataclass

MATCH_LENGTHS = (1, 3, 5, 7)


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Who needs how many points, seen from the side to move.

    ``match_length`` 0 means a single game scored on its own (1, 2 or 3 points, "money" play, as
    the benchmark uses); otherwise the scores are the points each side already has
    (both below ``match_length``). ``no_triple``: a backgammon scores 2 like a gammon.
    """

    match_length: int = 0
    mover_score: int = 0
    opponent_score: int = 0
    no_triple: bool = False

    def __post_init__(self) -> None:
        if self.match_length < 0:
            raise ValueError("match_length must be 0 (single game) or positive")
        if self.match_length == 0:
            if self.mover_score or self.opponent_score:
                raise ValueError("a single game (match_length 0) has no score")
        elif not (
            0 <= self.mover_score < self.match_length
            and 0 <= self.opponent_score < self.match_length
        ):
            raise ValueError("scores must be below the match length")

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    @property
    def mover_away(self) -> int:
        """Points the side to move still needs (0 for a single game)."""
        return self.match_length - self.mover_score if self.is_match else 0

    @property
    def opponent_away(self) -> int:
        return self.match_length - self.opponent_score if self.is_match else 0

    def flipped(self) -> MatchContext:
        """The same situation seen from the other side."""
        return MatchContext(
            self.match_length, self.opponent_score, self.mover_score, self.no_triple
        )


MONEY = MatchContext()
"""A single game scored 1 / 2 / 3 (the default)."""
