"""GNU Backgammon's Match ID: 66 bits of match state, base64 in 12 characters.

Bit layout, little-endian from bit 0 (as gnubg's ``MatchIDFromKey`` packs it):

====== ===== ===========================================
bits   width field
====== ===== ===========================================
0-3    4     log2 of the cube value (Portes: always 0)
4-5    2     cube owner: 0, 1, or 3 = centred (Portes: 3)
6      1     player on roll
7      1     Crawford game (Portes: never)
8-10   3     game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11     1     player whose turn it is to decide (differs from on roll while resigning)
12     1     double offered (Portes: never)
13-14  2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17  3     first die (0 when not rolled)
18-20  3     second die
21-35  15    match length (0 = money game)
36-50  15    player 0's score
51-65  15    player 1's score
66     1     Jacoby rule *off* (gnubg stores it inverted; Portes: 1, no Jacoby in a match)
====== ===== ===========================================

gnubg writes the larger die first; so do we. The fields are filled as gnubg fills them
(:meth:`rules.match.state.MatchState.match_id`): a pending resignation keeps the game state
"playing", a match ended by an accepted resignation is "resigned" with the roll still set, and
scores are never capped at the match length.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from rules.common.errors import InvalidNotation

GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4

_FIELDS: tuple[tuple[str, int], ...] = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


@dataclass(frozen=True)
class MatchId:
    """The fields of a Match ID. Defaults are what every Portes match has: no cube."""

    length: int
    score0: int
    score1: int
    on_roll: int
    turn: int
    die1: int = 0
    die2: int = 0
    game_state: int = GAME_PLAYING
    resigned: int = 0
    cube_log2: int = 0
    cube_owner: int = 3
    crawford: int = 0
    doubled: int = 0
    no_jacoby: int = 1

    def to_id(self) -> str:
        if self.die1 < self.die2:
            swapped = dict(self.__dict__, die1=self.die2, die2=self.die1)
            return MatchId(**swapped).to_id()
        key = 0
        bit = 0
        for name, width in _FIELDS:
            value = int(getattr(self, name))
            if not 0 <= value < 1 << width:
                raise ValueError(f"{name}={value} does not fit a Match ID")
            key |= value << bit
            bit += width
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def from_id(cls, match_id: str) -> MatchId:
        text = match_id.strip()
        if len(text) != 12:
            raise InvalidNotation(f"A Match ID has 12 characters, not {len(text)}: {text!r}")
        try:
            raw = base64.b64decode(text, validate=True)
        except (ValueError, TypeError) as exc:
            raise InvalidNotation(f"Not a Match ID: {text!r}") from exc
        key = int.from_bytes(raw, "little")
        values: dict[str, int] = {}
        bit = 0
        for name, width in _FIELDS:
            values[name] = key >> bit & ((1 << width) - 1)
            bit += width
        return cls(**values)
