"""Resigning and cancelling: offering to resign a game, answering the offer, giving up the whole
match, cancelling a match nobody has moved in. Each is one
:meth:`~storage.usecases.kernel.Kernel.act`."""

from __future__ import annotations

from rules.common.dice import DiceSource
from rules.match import Event, Match
from storage.results import ActionResult, Actor
from storage.usecases.kernel import Feature, off_loop

BLOCKED = "blocked"
"""The ``end_reason`` of a match lost by a player who blocked the bot (status abandoned)."""


class ResigningCases(Feature):
    """Ending a game or the match before it is played out."""

    @off_loop
    def offer_resignation(
        self, match_id: int, actor: Actor, version: int, points: int
    ) -> ActionResult:
        """On their turn, a player offers to resign the game for 1, 2 or 3 points."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, _d: m.offer_resignation(seat, points)
        )

    @off_loop
    def answer_resignation(
        self, match_id: int, actor: Actor, version: int, *, accept: bool
    ) -> ActionResult:
        """The opponent accepts (the game ends; the next game starts or the match ends) or
        declines (play goes on) a resignation offer."""

        def decide(m: Match, seat: int, d: DiceSource) -> tuple[Match, list[Event]]:
            if accept:
                return m.accept_resignation(seat, d)
            return m.decline_resignation(seat)

        return self.kernel.act(match_id, actor, version, decide, auto=accept)

    @off_loop
    def resign_match(
        self, match_id: int, actor: Actor, version: int | None = None
    ) -> ActionResult:
        """A player gives up the whole match at any time; the opponent wins it.
        ``version=None`` skips the version check (a typed command rather than a button)."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, _d: m.resign_match(seat)
        )

    @off_loop
    def forfeit_blocked(self, match_id: int, player_id: int) -> ActionResult:
        """A player blocked the bot in a match played in private chats: their boards cannot
        reach them any more, so they lose the match, as on time (reason ``blocked``)."""
        return self.kernel.act(
            match_id, player_id, None,
            lambda m, seat, _d: m.resign_match(seat, reason=BLOCKED))

    @off_loop
    def cancel_match(
        self, match_id: int, actor: Actor, version: int | None = None
    ) -> ActionResult:
        """Either player cancels a match nobody has moved in yet and no game has ended in (no
        result; ``Match.can_cancel``)."""
        return self.kernel.act(match_id, actor, version, lambda m, seat, _d: m.cancel(seat))
