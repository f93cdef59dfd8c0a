"""The turn: single moves tap by tap (step, steps, undo, reset), confirming them, or a whole
play at once; and a tap on the turn's keyboard, given as the player's intent (:meth:`tap`).
Each is one :meth:`~storage.usecases.kernel.Kernel.act`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.common.dice import DiceSource
from rules.common.errors import IllegalPlay
from rules.match import Event, Match
from rules.match.offers import destinations, offered_plays
from rules.position import Move, Play
from storage.delivery.claims import ask_keyboard
from storage.models import BoardMessageRow
from storage.results import ActionResult, Actor, MatchStatus, Outcome
from storage.usecases.kernel import Feature, Unchanged, off_loop
from storage.usecases.rows import STALE_MESSAGE, Loaded, refused, seat_of


@dataclass(frozen=True)
class Checker:
    """The checker on this point (25: the bar): moved when it has one destination, else its
    destinations are offered on the board's keyboard."""

    point: int


@dataclass(frozen=True)
class MoveTo:
    """The checker on ``from_point`` to ``to_point`` (by ``route``, when two routes there end
    in different positions, see :class:`rules.match.offers.Destination`)."""

    from_point: int
    to_point: int
    route: int = 0


@dataclass(frozen=True)
class OfferedPlay:
    """The ``index``-th of the whole plays offered at once (at most ``limit`` are, see
    :func:`rules.match.offers.offered_plays`)."""

    index: int
    limit: int


@dataclass(frozen=True)
class BackToList:
    """Back from a checker's destinations to the checkers (the keyboard only)."""


@dataclass(frozen=True)
class Undo:
    """Take back the last single move."""


@dataclass(frozen=True)
class Confirm:
    """End the turn with the moves chosen; with ``last``, that move first (a move that
    completes the play and ends the turn in one tap: a group's board, where each tap is a
    call in the group's budget)."""

    last: MoveTo | None = None


Intent = Checker | MoveTo | OfferedPlay | BackToList | Undo | Confirm
"""What a player's tap on the turn's keyboard asks for."""


@dataclass(frozen=True)
class TappedBoard:
    """The message a tap came from: its chat and id (or the inline message), and the match its
    board buttons belong to when the message shows them (``None``: not known from the message,
    looked up among the match's boards)."""

    chat_id: int | None = None
    message_id: int | None = None
    inline_message_id: str | None = None
    shows: int | None = None


def tap_refusal(session: Session, loaded: Loaded, actor: Actor, version: int,
                board: TappedBoard) -> ActionResult | None:
    """Why a tap on the turn's keyboard changes nothing, checked once on the match as read:
    ``not_a_player``, ``stale``, ``game_over`` or ``not_your_turn``, then ``not_this_board`` (a
    button of this match sent from another message: the edit that follows would rewrite it)."""
    row = loaded.row
    seat = seat_of(row, actor)
    if seat is None:
        return refused("not_a_player", "You are not playing in this match.")
    if row.version != version:
        return ActionResult(Outcome.STALE, code="stale", message=STALE_MESSAGE)
    if row.to_act != seat:
        if MatchStatus(row.status).is_over:
            return refused("game_over", "The match is over.")
        return refused("not_your_turn", "It is not your turn.")
    if not from_its_board(session, loaded, board):
        return refused("not_this_board", "This button is not from a board of this match.")
    return None


def from_its_board(session: Session, loaded: Loaded, board: TappedBoard) -> bool:
    """Whether the tapped message is a board of this match: its buttons say so, else one of
    its live boards is that message, else one of its older boards was."""
    match_id = loaded.row.id
    if board.shows is not None:
        return board.shows == match_id
    if board.inline_message_id is not None:
        same = BoardMessageRow.inline_message_id == board.inline_message_id
        if any(b.inline_message_id == board.inline_message_id for b in loaded.boards):
            return True
    elif board.chat_id is not None and board.message_id is not None:
        if any((b.chat_id, b.message_id) == (board.chat_id, board.message_id)
               for b in loaded.boards):
            return True
        same = ((BoardMessageRow.chat_id == board.chat_id)
                & (BoardMessageRow.message_id == board.message_id))
    else:
        return False
    return session.scalar(select(BoardMessageRow.id).where(
        BoardMessageRow.match_id == match_id, same).limit(1)) is not None


class TurnCases(Feature):
    """Entering and playing a turn."""

    @off_loop
    def step(self, match_id: int, actor: Actor, version: int, move: Move) -> ActionResult:
        """Add one single move to the turn being entered (one tap). Choose ``move`` from
        ``match.state.next_moves()``. Nothing is sent to the opponent until :meth:`confirm`."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, _d: (m.step(seat, move), [])
        )

    @off_loop
    def steps(
        self, match_id: int, actor: Actor, version: int, moves: Sequence[Move]
    ) -> ActionResult:
        """Add several single moves to the turn at once (one tap that moves a checker with
        both dice, e.g. 24/13 with 6-5), in order, as one accepted step: one transaction, one
        version bump. All or nothing: if any move is refused, nothing is written and the
        result is REFUSED (the refusal of the first move that failed). :meth:`undo` still takes
        back one single move at a time."""
        chosen = tuple(moves)
        if not chosen:
            raise ValueError("steps needs at least one move")

        def decide(m: Match, seat: int, _d: DiceSource) -> tuple[Match, list[Event]]:
            for move in chosen:
                m = m.step(seat, move)
            return m, []

        return self.kernel.act(match_id, actor, version, decide)

    @off_loop
    def undo(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back the last single move chosen this turn."""
        return self.kernel.act(match_id, actor, version, lambda m, seat, _d: (m.undo(seat), []))

    @off_loop
    def reset_turn(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back every single move chosen this turn."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, _d: (m.reset_turn(seat), [])
        )

    @off_loop
    def confirm(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """End the turn with the moves chosen (they must make a whole legal play). The
        opponent's dice are rolled; forced plays and passes follow automatically."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, d: m.confirm(seat, d), auto=True
        )

    @off_loop
    def play(
        self, match_id: int, actor: Actor, version: int, play: Play | str,
        *, typed: int | None = None,
    ) -> ActionResult:
        """Play a whole turn at once: a :class:`~rules.position.Play` from
        ``match.state.legal_plays()`` (the computer) or move text such as ``"24/18 13/11"``
        (a player typing). Any moves chosen tap by tap are replaced. ``typed``: the message id
        of a play typed in the private chat; a copy of one already played is refused with
        ``already_played`` (see :meth:`~storage.usecases.kernel.Kernel.act`)."""

        def decide(m: Match, seat: int, d: DiceSource) -> tuple[Match, list[Event]]:
            if m.chosen:
                m = m.reset_turn(seat)
            return m.play(seat, play, d)

        return self.kernel.act(match_id, actor, version, decide, auto=True, typed=typed)

    @off_loop
    def tap(self, match_id: int, actor: Actor, version: int, intent: Intent,
            board: TappedBoard) -> ActionResult:
        """A tap on the turn's keyboard, as the player's intent: checked once (the tapper,
        the version, the turn, the board it came from: :func:`tap_refusal`), decided once
        through the rules and committed; a tap that changes only the keyboard (a checker with
        several destinations, back to the list) asks the tapped board's place to show it
        (:func:`storage.delivery.claims.ask_keyboard`: ``result.keyboard``). OK results carry
        the chats written to (``chat_keys``). Refusals: those of :func:`tap_refusal`,
        ``illegal_play`` (no such checker or destination), ``stale`` (a whole play no longer
        offered), and the rules' own."""
        selected: list[int | None] = []

        def decide(m: Match, seat: int, d: DiceSource) -> tuple[Match, list[Event]]:
            if isinstance(intent, MoveTo):
                return move_to(m, seat, intent), []
            if isinstance(intent, Checker):
                dests = destinations(m, intent.point)
                if not dests:
                    raise IllegalPlay("That checker cannot move there.")
                if len(dests) > 1:
                    selected.append(intent.point)
                    raise Unchanged
                return move_to(m, seat, MoveTo(intent.point, dests[0].to_point,
                                               dests[0].route)), []
            if isinstance(intent, Confirm) and intent.last is not None:
                m = move_to(m, seat, intent.last)
            if isinstance(intent, BackToList):
                selected.append(None)
                raise Unchanged
            if isinstance(intent, Undo):
                return m.undo(seat), []
            if isinstance(intent, OfferedPlay):
                plays = offered_plays(m, intent.limit)
                if intent.index >= len(plays):
                    raise _NotOffered
                return m.play(seat, plays[intent.index], d)
            return m.confirm(seat, d)

        def guard(session: Session, loaded: Loaded) -> ActionResult | None:
            found = tap_refusal(session, loaded, actor, version, board)
            if found is None:
                return None
            return ActionResult(found.outcome, match=self.kernel.loaded_view(loaded),
                                code=found.code, message=found.message)

        try:
            res = self.kernel.act(match_id, actor, version, decide, guard=guard,
                                  auto=isinstance(intent, OfferedPlay | Confirm))
        except _NotOffered:
            return ActionResult(Outcome.STALE, code="stale", message=STALE_MESSAGE)
        if not selected or not res.ok:
            return res
        return self._keyboard(res, version, board, selected[0])

    def _keyboard(self, res: ActionResult, version: int, board: TappedBoard,
                  selected: int | None) -> ActionResult:
        """A keyboard-only tap, admitted: the tapped board's place is asked to show it."""
        stale = ActionResult(Outcome.STALE, match=res.match, code="stale", message=STALE_MESSAGE)
        if board.chat_id is None or res.match is None:
            return stale
        asked = ask_keyboard(self.kernel, res.match.id, version=version, chat_id=board.chat_id,
                             selected=selected)
        if asked is None:
            return ActionResult(Outcome.STALE, code="stale", message=STALE_MESSAGE)
        return ActionResult(Outcome.OK, match=res.match, keyboard=asked,
                            chat_keys=(asked.chat_key,))


def move_to(m: Match, seat: int, move: MoveTo) -> Match:
    """``m`` with the checker on ``move.from_point`` taken to ``move.to_point`` by its route
    (refused as an illegal play when it cannot go there)."""
    found = [x for x in destinations(m, move.from_point)
             if (x.to_point, x.route) == (move.to_point, move.route)]
    if not found:
        raise IllegalPlay("That checker cannot move there.")
    for single in found[0].moves:
        m = m.step(seat, single)
    return m


class _NotOffered(Exception):
    """A whole play tapped that is no longer offered (the keyboard was older)."""
