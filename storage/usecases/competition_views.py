"""What the competition use cases return, and how they read a competition into it.

A :class:`CompetitionView` is the whole competition as the database has it: its settings, its
entrants with their reliability figures, its pairings with their matches' states. The
standings and the bracket are computed from it by :mod:`rules.competition` (pure), so the card
drawn after a crash is the one drawn before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session

from rules.competition import Bracket, BracketGame, Result, Row, standings
from storage.models import (
    CompetitionEntryRow,
    CompetitionGameRow,
    CompetitionRow,
    MatchRow,
)
from storage.results import ENDED_STATUSES, Outcome, PlayerView
from storage.usecases.kernel import Kernel
from storage.usecases.rows import storable_id

LEAGUE, CUP = "league", "cup"
SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
FORFEITS = ("left", "blocked")
"""The reasons a pairing is a forfeit: the loser left the group or blocked the bot."""
VOID = "void"
BYE = "bye"
DEADLINE = "deadline"


@dataclass(frozen=True)
class Entrant:
    """A player signed up: ``finished`` of their rated matches (anywhere), ``timed_out`` of
    them lost on time: the reliability figure shown beside their name."""

    player: PlayerView
    seq: int
    seed: int | None
    left: bool
    finished: int = 0
    timed_out: int = 0


@dataclass(frozen=True)
class Pairing:
    """One pairing: its players (``player1`` none: a bye, or still to come in a cup), its
    match and that match's status, its result once recorded."""

    id: int
    round: int
    slot: int
    player0: int | None
    player1: int | None
    match_id: int | None
    match_status: str | None
    winner: int | None
    points: int
    reason: str | None
    decided: bool


@dataclass(frozen=True)
class CompetitionView:
    id: int
    kind: str
    status: str
    version: int
    chat_id: int
    thread_id: int | None
    organiser_id: int
    game_type: str
    length: int
    move_seconds: int | None
    double: bool
    gammons: bool
    round_seconds: int
    due_at: datetime
    round: int
    card_message_id: int | None
    winner_id: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    entrants: tuple[Entrant, ...] = ()
    pairings: tuple[Pairing, ...] = ()

    @property
    def is_league(self) -> bool:
        return self.kind == LEAGUE

    @property
    def open(self) -> bool:
        return self.status == SIGNUP

    def entrant(self, player_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.player.id == player_id), None)

    def name(self, player_id: int | None) -> str:
        found = self.entrant(player_id) if player_id is not None else None
        return found.player.display_name if found else "?"

    def results(self) -> list[Result]:
        """The decided pairings with a winner, as :mod:`rules.competition` takes them."""
        return [Result(p.player0, p.player1, p.winner, p.points, p.reason in FORFEITS)
                for p in self.pairings
                if p.decided and p.winner is not None and p.player0 is not None
                and p.player1 is not None]

    def table(self) -> list[Row]:
        """A league's standings (see :func:`rules.competition.standings`)."""
        return standings([e.player.id for e in self.entrants], self.results(),
                         gammons=self.gammons)

    def bracket(self) -> Bracket:
        """A cup's bracket as stored (each round's pairings, winners carried)."""
        rounds: dict[int, list[BracketGame]] = {}
        for p in sorted(self.pairings, key=lambda p: (p.round, p.slot)):
            rounds.setdefault(p.round, []).append(BracketGame(
                p.round, p.slot, p.player0, p.player1, p.winner if p.decided else None,
                bye=p.reason == BYE))
        return Bracket(tuple(tuple(games) for _, games in sorted(rounds.items())))

    def matches_left(self) -> int:
        return sum(1 for p in self.pairings if not p.decided and p.player1 is not None)


@dataclass(frozen=True)
class CompetitionResult:
    """A competition use case's outcome; refusals carry a stable ``code`` and an English
    ``message``; ``chat_keys``: the chats whose outbox rows it wrote (kick them)."""

    outcome: Outcome
    competition: CompetitionView | None = None
    code: str | None = None
    message: str | None = None
    chat_keys: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK


@dataclass(frozen=True)
class MatchToStart:
    """A pairing whose match must still be created (``match_id`` none) or started (its
    challenge is open): :meth:`~storage.usecases.competitions.CompetitionCases.competition_tick`
    returns them, the bot opens them through the ordinary challenge use cases."""

    pairing_id: int
    competition_id: int
    home: int
    away: int
    chat_id: int
    thread_id: int | None
    length: int
    move_seconds: int | None
    game_type: str
    match_id: int | None
    challenge_id: int | None = None


@dataclass(frozen=True)
class CompetitionTick:
    """What a tick did: the chats to kick, the matches to open, the competitions changed."""

    chat_keys: tuple[str, ...] = ()
    to_start: tuple[MatchToStart, ...] = ()
    changed: tuple[int, ...] = field(default_factory=tuple)


def refusal(code: str, message: str, view: CompetitionView | None = None) -> CompetitionResult:
    return CompetitionResult(Outcome.REFUSED, view, code, message)


def reliability(session: Session, player_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each player's ``(finished, timed out)``: their ended matches against a person, and those
    they lost on time."""
    if not player_ids:
        return {}
    ended = [s.value for s in ENDED_STATUSES]
    found: dict[int, tuple[int, int]] = {}
    for seat, col in ((0, MatchRow.player0_id), (1, MatchRow.player1_id)):
        lost_on_time = case((and_(MatchRow.end_reason == "timeout",
                                  MatchRow.winner == 1 - seat), 1), else_=0)
        rows = session.execute(
            select(col, func.count(), func.sum(lost_on_time))
            .where(col.in_(player_ids), MatchRow.status.in_(ended),
                   MatchRow.player1_id.is_not(None), MatchRow.computer_level.is_(None),
                   or_(MatchRow.winner == 0, MatchRow.winner == 1))
            .group_by(col))
        for pid, count, timed in rows:
            done, out = found.get(pid, (0, 0))
            found[pid] = (done + int(count), out + int(timed or 0))
    return found


def read_competition(kernel: Kernel, session: Session, comp_id: int) -> CompetitionView | None:
    """The competition ``comp_id`` as it is in this session."""
    row = session.get(CompetitionRow, comp_id, populate_existing=True)
    if row is None:
        return None
    entries = list(session.scalars(
        select(CompetitionEntryRow).where(CompetitionEntryRow.competition_id == comp_id)
        .order_by(CompetitionEntryRow.seq)))
    ids = [e.player_id for e in entries]
    players = kernel.players(session, *ids)
    figures = reliability(session, ids)
    entrants = tuple(
        Entrant(players[e.player_id], e.seq, e.seed, e.left_at is not None,
                *figures.get(e.player_id, (0, 0)))
        for e in entries if e.player_id in players)
    games = session.execute(
        select(CompetitionGameRow, MatchRow.status)
        .outerjoin(MatchRow, MatchRow.id == CompetitionGameRow.match_id)
        .where(CompetitionGameRow.competition_id == comp_id)
        .order_by(CompetitionGameRow.round, CompetitionGameRow.slot)).all()
    pairings = tuple(
        Pairing(g.id, g.round, g.slot, g.player0_id, g.player1_id, g.match_id, status,
                g.winner_id, g.points, g.reason, g.decided_at is not None)
        for g, status in games)
    return CompetitionView(
        id=row.id, kind=row.kind, status=row.status, version=row.version, chat_id=row.chat_id,
        thread_id=row.thread_id, organiser_id=row.organiser_id, game_type=row.game_type,
        length=row.length, move_seconds=row.move_seconds, double=row.double,
        gammons=row.gammons, round_seconds=row.round_seconds, due_at=row.due_at,
        round=row.round, card_message_id=row.card_message_id, winner_id=row.winner_id,
        created_at=row.created_at, started_at=row.started_at, finished_at=row.finished_at,
        entrants=entrants, pairings=pairings)


def locked(session: Session, kernel: Kernel, comp_id: int) -> CompetitionRow | None:
    """The competition row, locked for this transaction (PostgreSQL); SQLite serialises the
    writers with the database's write lock. Every write to a competition or its pairings
    takes this lock first, so instances racing on one competition take turns."""
    if not storable_id(comp_id):
        return None
    stmt = select(CompetitionRow).where(CompetitionRow.id == comp_id)
    if kernel.db.engine.dialect.name == "postgresql":
        stmt = stmt.with_for_update()
    return session.scalars(stmt.execution_options(populate_existing=True)).first()
