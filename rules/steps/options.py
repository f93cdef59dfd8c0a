"""The named options of Plakoto, Fevga and Long Nardy, where the sources differ.

Each game has a frozen dataclass; the defaults are the spec's (``tavli-rules.md``): the most
common Greek rule, and for Long Nardy the common Russian rules. Field names are the spec's option
names. :class:`RuleOptions` bundles the three for a match (the tavli rotation plays two of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from rules.common.errors import InvalidAction

PrimeCheck = Literal["step", "end"]


@dataclass(frozen=True)
class PlakotoOptions:
    plakoto_pinned_blocks_bearoff: bool = False
    """No bearing off while one of your checkers is pinned in your home board (Ludii)."""
    plakoto_mother_ends_turn: bool = False
    """A pinned mother that decides the game ends the play at once (unplayed dice lapse); by
    default the whole play is made and the result judged after it."""


@dataclass(frozen=True)
class FevgaOptions:
    fevga_first_until: int = 12
    """The first checker must reach this point (12: the opponent's starting quarter, Greek
    sources; 11: pass the opponent's start) before a second checker may leave the start."""
    fevga_start_quarter: bool = True
    """Nobody may hold all six points 19-24 of his own starting quarter at once."""
    fevga_unblock: bool = True
    """A six-point block right in front of all the opponent's checkers (all on one point) must be
    opened when a play can."""
    fevga_prime: Literal["none", "nardy"] = "none"
    """``"nardy"``: also no six points in a row unless an opposing checker is ahead of them."""
    prime_check: PrimeCheck = "step"
    """Whether the starting-quarter and ``nardy`` prime rules hold after every single move
    (``step``) or only for the final position of a play (``end``)."""

    def __post_init__(self) -> None:
        if self.fevga_first_until not in (11, 12):
            raise InvalidAction("fevga_first_until is 12 or 11")
        if self.fevga_prime not in ("none", "nardy") or self.prime_check not in ("step", "end"):
            raise InvalidAction("Unknown Fevga prime option")


@dataclass(frozen=True)
class NardyOptions:
    nardy_head_doubles: tuple[int, ...] = (6, 4, 3)
    """Doubles with which two checkers may leave the head on a player's first turn."""
    nardy_prime: bool = True
    """No six points in a row unless an opposing checker is ahead of them."""
    prime_check: PrimeCheck = "step"
    """The block rule after every single move (``step``) or for the final position (``end``)."""

    def __post_init__(self) -> None:
        if any(d not in range(1, 7) for d in self.nardy_head_doubles):
            raise InvalidAction("nardy_head_doubles are dice 1-6")
        if self.prime_check not in ("step", "end"):
            raise InvalidAction("prime_check is step or end")


GameOptions = PlakotoOptions | FevgaOptions | NardyOptions


@dataclass(frozen=True)
class RuleOptions:
    """The options of every game, as a match keeps them."""

    plakoto: PlakotoOptions = field(default_factory=PlakotoOptions)
    fevga: FevgaOptions = field(default_factory=FevgaOptions)
    nardy: NardyOptions = field(default_factory=NardyOptions)

    def to_dict(self) -> dict[str, Any]:
        """Only what differs from the defaults (an empty dict for the defaults)."""
        out: dict[str, Any] = {}
        for part in (self.plakoto, self.fevga, self.nardy):
            default = type(part)()
            for f in fields(part):
                value = getattr(part, f.name)
                if value != getattr(default, f.name):
                    out[f"{_game(part)}.{f.name}"] = list(value) if isinstance(value, tuple) \
                        else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleOptions:
        parts: dict[str, dict[str, Any]] = {"plakoto": {}, "fevga": {}, "nardy": {}}
        for key, value in data.items():
            game, _, name = key.partition(".")
            if game not in parts:
                raise InvalidAction(f"Unknown option {key!r}")
            parts[game][name] = tuple(value) if isinstance(value, list) else value
        try:
            return cls(
                PlakotoOptions(**parts["plakoto"]),
                FevgaOptions(**parts["fevga"]),
                NardyOptions(**parts["nardy"]),
            )
        except TypeError as exc:
            raise InvalidAction(f"Unknown option: {exc}") from exc


def _game(part: GameOptions) -> str:
    if isinstance(part, PlakotoOptions):
        return "plakoto"
    return "fevga" if isinstance(part, FevgaOptions) else "nardy"
