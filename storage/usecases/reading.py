"""Reading matches: one match to draw, a player's active and finished matches, the computer's
pending turns, a match's full record (games and move log) and its dice for verification."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, UnaryExpression, and_, or_, select
from sqlalchemy.orm import Session

from rules.errors import CorruptState
from rules.fairdice import FairDice
from rules.match import Match
from rules.position import Dice, Move
from storage.models import GameRow, MatchRow, TurnRow
from storage.results import (
    ENDED_STATUSES,
    ActionResult,
    Fairness,
    GameRecord,
    LoggedTurn,
    MatchRecord,
    MatchStatus,
    MatchSummary,
    Outcome,
    Place,
)
from storage.usecases.kernel import Feature, Kernel, off_loop
from storage.usecases.rows import SELECT_LAST_TYPED, player_view, storable_id

REVIEWABLE = (MatchStatus.FINISHED.value, MatchStatus.ABANDONED.value)
"""The statuses of matches a player can review afterwards."""


def readable(state: str) -> bool:
    """Whether a stored match state can be read by the rules core."""
    try:
        Match.from_json(state)
    except CorruptState:
        return False
    return True


def summaries(
    kernel: Kernel, session: Session, rows: Sequence[MatchRow], seat_of: Callable[[MatchRow], int]
) -> list[MatchSummary]:
    """One line per match, seen from the seat ``seat_of`` gives (its players read at once)."""
    ids = {r.player0_id for r in rows} | {r.player1_id for r in rows if r.player1_id}
    players = kernel.players(session, *ids)
    out = []
    for r in rows:
        seat = seat_of(r)
        # only an active match is read again: an ended one is never played
        ok = r.status != MatchStatus.ACTIVE or readable(r.state)
        other_id = r.player1_id if seat == 0 else r.player0_id
        out.append(
            MatchSummary(
                id=r.id,
                version=r.version,
                status=MatchStatus(r.status),
                length=r.length,
                no_triple=r.no_triple,
                score=(r.score0, r.score1),
                my_seat=seat,
                opponent=player_view(players.get(other_id)) if other_id else None,
                computer_level=r.computer_level,
                my_turn=ok and r.to_act == seat,
                place=Place(r.chat_id, r.thread_id, r.inline_message_id),
                turn_deadline=r.turn_deadline,
                updated_at=r.updated_at,
                readable=ok,
                game_type=r.game_type,
            )
        )
    return out


def game_record(g: GameRow) -> GameRecord:
    return GameRecord(
        number=g.number,
        opening=(g.opening0, g.opening1)
        if g.opening0 is not None and g.opening1 is not None
        else None,
        winner=g.winner,
        kind=g.kind,
        points=g.points,
        resigned=g.resigned,
        started_at=g.started_at,
        ended_at=g.ended_at,
    )


def logged_turn(t: TurnRow) -> LoggedTurn:
    """A ``turns`` row as the turn it logs (single moves stored as [from, to, die, hit])."""
    return LoggedTurn(
        game=t.game,
        turn=t.turn,
        player=t.player,
        dice=Dice(t.die1, t.die2),
        moves=tuple(Move(a, b, c, bool(h)) for a, b, c, h in t.steps),
        text=t.text,
        gnubg_id=t.gnubg_id,
        forced=t.forced,
        at=t.created_at,
    )


class ReadingCases(Feature):
    """Read-only use cases: matches, listings, records, fairness."""

    @off_loop
    def load_match(self, match_id: int) -> ActionResult:
        """Everything needed to draw the match: OK with ``result.match``, NOT_FOUND, or CORRUPT
        (a stored state that cannot be read: a clear error for that match only)."""
        with self.kernel.sessions() as session:
            loaded = self.kernel.load(session, match_id)
        if isinstance(loaded, ActionResult):
            return loaded
        return ActionResult(Outcome.OK, match=self.kernel.loaded_view(loaded))

    @off_loop
    def list_active_matches(self, user_id: int) -> list[MatchSummary]:
        """The player's active matches (open challenges are not included), those waiting for
        this player first, then the most recently updated."""
        with self.kernel.sessions() as session:
            return self._active(session, user_id)

    def _active(self, session: Session, user_id: int) -> list[MatchSummary]:
        out = self._player_summaries(
            session, user_id, MatchRow.status == MatchStatus.ACTIVE,
            (MatchRow.updated_at.desc(), MatchRow.id.desc()),
        )
        out.sort(key=lambda s: not s.my_turn)
        return out

    @off_loop
    def typed_play_context(self, user_id: int) -> tuple[list[MatchSummary], int | None]:
        """For a play the player typed: their active matches (as :meth:`list_active_matches`)
        and, read after them, their ``last_typed`` (see :meth:`PlayerCases.last_typed`), in one
        transaction. Read in this order, a copy whose original is committed meanwhile is seen
        either still waiting (and the play's own check refuses it) or as played."""
        with self.kernel.sessions() as session:
            mine = self._active(session, user_id)
            last = session.connection().execute(SELECT_LAST_TYPED, {"b_id": user_id}).scalar()
        return mine, last

    @off_loop
    def finished_matches(self, user_id: int, limit: int = 10, *,
                         game_type: str | None = None) -> list[MatchSummary]:
        """The player's finished (or abandoned) matches, the most recently ended first; with
        ``game_type``, those of that game only (``"portes"``: the ones a review can read)."""
        ended: ColumnElement[bool] = MatchRow.status.in_(REVIEWABLE)
        if game_type is not None:
            ended = and_(ended, MatchRow.game_type == game_type)
        with self.kernel.sessions() as session:
            return self._player_summaries(
                session, user_id, ended, (MatchRow.finished_at.desc(), MatchRow.id.desc()),
                limit,
            )

    def _player_summaries(
        self, session: Session, user_id: int, status: ColumnElement[bool],
        order: tuple[UnaryExpression[Any], ...], limit: int | None = None,
    ) -> list[MatchSummary]:
        """Summaries of the player's matches whose status passes ``status``, in ``order``."""
        rows = list(
            session.scalars(
                select(MatchRow)
                .where(status, or_(MatchRow.player0_id == user_id, MatchRow.player1_id == user_id))
                .order_by(*order)
                .limit(limit)
            )
        )
        return summaries(self.kernel, session, rows, lambda r: 0 if r.player0_id == user_id else 1)

    @off_loop
    def pending_computer_turns(self) -> list[MatchSummary]:
        """Active matches where the computer must act (for a worker to resume after restart).
        ``my_seat`` is the computer's seat."""
        with self.kernel.sessions() as session:
            rows = list(
                session.scalars(
                    select(MatchRow)
                    .where(
                        MatchRow.status == MatchStatus.ACTIVE,
                        MatchRow.computer_level.is_not(None),
                        MatchRow.to_act == 1,
                    )
                    .order_by(MatchRow.updated_at)
                )
            )
            return summaries(self.kernel, session, rows, lambda _r: 1)

    @off_loop
    def game_turns(self, match_id: int, game: int) -> tuple[LoggedTurn, ...]:
        """The turns logged so far in game ``game`` of the match (a board's story of the turns
        played for a player before their first decision)."""
        with self.kernel.sessions() as session:
            rows = session.scalars(select(TurnRow).where(
                TurnRow.match_id == match_id, TurnRow.game == game).order_by(TurnRow.turn))
            return tuple(logged_turn(t) for t in rows)

    @off_loop
    def match_record(self, match_id: int) -> MatchRecord | None:
        """The match with its games and its full move log (for .mat export and replay).
        ``None`` when there is no such match or its state cannot be read."""
        with self.kernel.sessions() as session:
            loaded = self.kernel.load(session, match_id)
            if isinstance(loaded, ActionResult):
                return None
            games = session.scalars(
                select(GameRow).where(GameRow.match_id == match_id).order_by(GameRow.number)
            )
            turns = session.scalars(
                select(TurnRow)
                .where(TurnRow.match_id == match_id)
                .order_by(TurnRow.game, TurnRow.turn)
            )
            return MatchRecord(
                match=self.kernel.loaded_view(loaded),
                games=tuple(game_record(g) for g in games),
                turns=tuple(logged_turn(t) for t in turns),
            )

    @off_loop
    def fairness(self, match_id: int) -> Fairness | None:
        """The dice commitment, and once the match has ended (finished, abandoned, expired or
        cancelled) the seed and every die drawn, with a command to verify them."""
        if not storable_id(match_id):
            return None
        with self.kernel.sessions() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            ended = MatchStatus(row.status) in ENDED_STATUSES
            dice: tuple[int, ...] | None = None
            if ended:
                dice = tuple(FairDice(row.seed, row.mix).dice(row.dice_drawn)) if row.mix else ()
            return Fairness(
                match_id=row.id,
                commitment=row.commitment,
                mix=row.mix,
                dice_drawn=row.dice_drawn,
                seed_hex=row.seed.hex() if ended else None,
                dice=dice,
            )
