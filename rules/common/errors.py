"""The rules core's error family.

Every error carries a short ``code`` (stable, for translations and tests) and a message fit to
show a player. Handlers catch :class:`PortesError` and answer with an alert; anything else is a
bug and goes to the log.
"""

from __future__ import annotations


class PortesError(Exception):
    """Base of every error the rules core raises on purpose."""

    code = "error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def __str__(self) -> str:
        return self.message


class InvalidNotation(PortesError):
    """Text that is not a move, a Position ID or a Match ID we can read."""

    code = "invalid_notation"


class AmbiguousPlay(InvalidNotation):
    """Move text that reads as more than one legal play with different results."""

    code = "ambiguous_play"

    def __init__(self, message: str, readings: tuple[str, ...]) -> None:
        super().__init__(message, readings=readings)
        self.readings = readings


class PlayTooLong(InvalidNotation):
    """Move text longer than any legal play written in full
    (``rules.portes.notation.MAX_PLAY_TEXT``)."""

    code = "play_too_long"


class IllegalPlay(PortesError):
    """A move or play the rules do not allow in this position with these dice."""

    code = "illegal_play"


class UnreadablePlay(IllegalPlay):
    """Move text no legal play reads as, though its moves are not shown illegal: it may name a
    legal play in a way the reader does not follow, so the message says it could not be read."""

    code = "unreadable_play"


class NotYourTurn(PortesError):
    """The player asked to act while it is the other player's turn (or not theirs to act)."""

    code = "not_your_turn"


class GameOver(PortesError):
    """The game (or the whole match) is already over: nothing more can be played."""

    code = "game_over"


class InvalidAction(PortesError):
    """An action that the match's current phase does not allow (e.g. cancelling after a play)."""

    code = "invalid_action"


class CorruptState(PortesError):
    """A serialised match state that cannot be read back (malformed, truncated, wrong version)."""

    code = "corrupt_state"


class WrongGame(TypeError):
    """A position of one game handed to another game's rules (a programming error, not a
    player's: it is not a :class:`PortesError`). Ask :func:`rules.game.game_of` for the
    position's own game."""
