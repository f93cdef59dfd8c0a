"""Competitions in a group: opening a league or a cup, its sign-up (join, leave, the
organiser's settings, start early, cancel), a member who left, and what a player's history
and titles show. Each is one short transaction; the card's buttons carry the competition's
version, so a stale tap changes nothing. What happens once it runs (results recorded,
rounds advanced, deadlines) is :mod:`storage.usecases.competition_progress`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from rules.competition import LEAGUE_MAX, LEAGUE_MIN, Bracket, round_robin
from rules.competition.cup import CUP_MAX, CUP_MIN
from rules.game import DEFAULT_KIND, KINDS
from storage.models import (
    CompetitionEntryRow,
    CompetitionGameRow,
    CompetitionRow,
    MatchRow,
    RatingRow,
)
from storage.ratings import START_RATING
from storage.results import MatchStatus, Outcome
from storage.usecases.competition_cards import bracket_pending
from storage.usecases.competition_views import (
    BYE,
    CANCELLED,
    CUP,
    LEAGUE,
    RUNNING,
    SIGNUP,
    CompetitionResult,
    CompetitionView,
    locked,
    read_competition,
    refusal,
)
from storage.usecases.kernel import Feature, off_loop
from storage.usecases.rows import storable_id
from storage.vacation import register_vacation_guard

CAPS = {LEAGUE: LEAGUE_MAX, CUP: CUP_MAX}
MINIMUM = {LEAGUE: LEAGUE_MIN, CUP: CUP_MIN}
SETTINGS = ("kind", "game_type", "length", "move_seconds", "double", "gammons",
            "signup_seconds", "round_seconds")
"""What the organiser may change on the card until the start."""
CLOSED = "The sign-up of this competition is closed."
Change = Callable[[Session, CompetitionRow, datetime], "tuple[str, str] | None"]


def _valid_settings(changes: dict[str, Any]) -> str | None:
    """Why these settings cannot be, or ``None``."""
    if "kind" in changes and changes["kind"] not in (LEAGUE, CUP):
        return "bad_setting"
    if "game_type" in changes and changes["game_type"] not in KINDS:
        return "bad_setting"
    if "length" in changes and changes["length"] not in (1, 3, 5, 7):
        return "bad_setting"
    for key in ("move_seconds", "signup_seconds", "round_seconds"):
        value = changes.get(key)
        if value is not None and (not isinstance(value, int) or value <= 0):
            return "bad_setting"
    return None


def seeded_order(session: Session, row: CompetitionRow, players: list[int]) -> list[int]:
    """``players`` best first by their rating in the group, in the competition's game (the
    unrated at the starting rating); ties by sign-up order (the order given)."""
    ratings = dict(session.execute(
        select(RatingRow.player_id, RatingRow.rating).where(
            RatingRow.player_id.in_(players), RatingRow.game == row.game_type,
            RatingRow.scope == row.chat_id)).all())
    return sorted(players, key=lambda p: (-ratings.get(p, START_RATING), players.index(p)))


def begin(session: Session, row: CompetitionRow, now: datetime) -> str | None:
    """Start a competition in sign-up: its pairings written (a league's every match, a
    cup's whole bracket with its byes decided), its deadline set. A refusal code, or ``None``."""
    entries = list(session.scalars(
        select(CompetitionEntryRow).where(CompetitionEntryRow.competition_id == row.id,
                                          CompetitionEntryRow.left_at.is_(None))
        .order_by(CompetitionEntryRow.seq)))
    players = [e.player_id for e in entries]
    if len(players) < MINIMUM[row.kind]:
        return "too_few"
    games: list[CompetitionGameRow] = []
    if row.kind == LEAGUE:
        for pairs in round_robin(players, double=row.double):
            games += [CompetitionGameRow(competition_id=row.id, round=p.round, slot=i,
                                         player0_id=p.home, player1_id=p.away, points=1)
                      for i, p in enumerate(pairs)]
    else:
        order = seeded_order(session, row, players)
        for e in entries:
            e.seed = order.index(e.player_id) + 1
        for rnd in Bracket.seeded(order).rounds:
            games += [CompetitionGameRow(
                competition_id=row.id, round=g.round, slot=g.slot, player0_id=g.a,
                player1_id=g.b, points=1, winner_id=g.winner,
                reason=BYE if g.bye else None, decided_at=now if g.bye else None)
                for g in rnd]
    session.add_all(games)
    row.status, row.started_at, row.round = RUNNING, now, 0
    row.due_at = now + timedelta(seconds=row.round_seconds)
    row.version += 1
    return None


class CompetitionCases(Feature):
    """A group's competitions before they run, and what players see of them afterwards."""

    @off_loop
    def create_competition(
        self, organiser_id: int, chat_id: int, *, kind: str = LEAGUE, thread_id: int | None = None,
        game_type: str = DEFAULT_KIND, length: int = 3, move_seconds: int | None = None,
        double: bool = False, gammons: bool = False, signup_seconds: int = 86_400,
        round_seconds: int = 7 * 86_400,
    ) -> CompetitionResult:
        """Open a competition's sign-up in a group (its organiser signed up first). Refusals:
        ``bad_setting``; ``one_open_here`` (the group has one in sign-up or running)."""
        settings = {"kind": kind, "game_type": game_type, "length": length,
                    "move_seconds": move_seconds, "signup_seconds": signup_seconds,
                    "round_seconds": round_seconds}
        code = _valid_settings(settings)
        if code is not None:
            return refusal(code, "That setting is not possible.")
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            busy = session.scalar(select(CompetitionRow.id).where(
                CompetitionRow.chat_id == chat_id,
                CompetitionRow.status.in_((SIGNUP, RUNNING))).limit(1))
            if busy is not None:
                return refusal("one_open_here", "This group already has a competition.",
                               read_competition(k, session, busy))
            k.ensure_player(session, organiser_id)
            now = k.clock()
            row = CompetitionRow(
                kind=kind, status=SIGNUP, version=1, chat_id=chat_id, thread_id=thread_id,
                organiser_id=organiser_id, game_type=game_type, length=length,
                move_seconds=move_seconds, double=double, gammons=gammons,
                round_seconds=round_seconds, due_at=now + timedelta(seconds=signup_seconds),
                round=0, created_at=now)
            session.add(row)
            session.flush()
            session.add(CompetitionEntryRow(competition_id=row.id, player_id=organiser_id,
                                            seq=1, joined_at=now))
            session.flush()
            view = read_competition(k, session, row.id)
        return CompetitionResult(Outcome.OK, view)

    @off_loop
    def get_competition(self, comp_id: int) -> CompetitionView | None:
        if not storable_id(comp_id):
            return None
        with self.kernel.sessions() as session:
            return read_competition(self.kernel, session, comp_id)

    @off_loop
    def set_competition_card(self, comp_id: int, message_id: int) -> None:
        """Remember the card's message in the group (edited in place from then on)."""
        with self.kernel.sessions.begin() as session:
            session.execute(update(CompetitionRow).where(CompetitionRow.id == comp_id)
                            .values(card_message_id=message_id))

    @off_loop
    def bracket_pending(self, comp_id: int, chat_id: int) -> bool:
        """Whether a cup's bracket picture is still to be posted (see
        :mod:`storage.usecases.competition_cards`)."""
        with self.kernel.sessions() as session:
            return bracket_pending(session, chat_id, comp_id)

    def _signup_change(self, comp_id: int, version: int | None, change: Change,
                       ) -> CompetitionResult:
        """Run ``change(session, row, now)`` (a refusal code and message, or ``None``) on a
        competition in sign-up at ``version``, in one transaction."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            row = locked(session, k, comp_id)
            if row is None:
                return CompetitionResult(Outcome.NOT_FOUND, code="not_found",
                                         message="No such competition.")
            if row.status != SIGNUP:
                return refusal("signup_closed", CLOSED, read_competition(k, session, row.id))
            if version is not None and version != row.version:
                return CompetitionResult(Outcome.STALE, read_competition(k, session, row.id),
                                         "stale", "This card has changed; look again.")
            why = change(session, row, k.clock())
            if why is not None:
                session.rollback()
                return refusal(why[0], why[1], read_competition(k, session, row.id))
            row.version += 1
            session.flush()
            view = read_competition(k, session, row.id)
            session.commit()
        return CompetitionResult(Outcome.OK, view)

    @off_loop
    def join_competition(self, comp_id: int, player_id: int,
                         version: int | None = None) -> CompetitionResult:
        """Sign up. Refusals: ``signup_closed`` (started, finished or cancelled),
        ``already_joined``, ``competition_full`` (12 in a league, 64 in a cup)."""

        def join(session: Session, row: CompetitionRow, now: datetime) -> tuple[str, str] | None:
            if session.get(CompetitionEntryRow, (row.id, player_id)) is not None:
                return "already_joined", "You are already signed up."
            count = session.scalar(select(func.count()).where(
                CompetitionEntryRow.competition_id == row.id)) or 0
            if count >= CAPS[row.kind]:
                return "competition_full", "The competition is full."
            last = session.scalar(select(func.max(CompetitionEntryRow.seq)).where(
                CompetitionEntryRow.competition_id == row.id)) or 0
            self.kernel.ensure_player(session, player_id)
            session.add(CompetitionEntryRow(competition_id=row.id, player_id=player_id,
                                            seq=last + 1, joined_at=now))
            return None

        return self._signup_change(comp_id, None if version is None else version, join)

    @off_loop
    def leave_competition(self, comp_id: int, player_id: int) -> CompetitionResult:
        """Withdraw before the start. Refusals: ``signup_closed``, ``not_joined``,
        ``organiser_stays`` (the organiser cancels instead)."""

        def leave(session: Session, row: CompetitionRow, now: datetime) -> tuple[str, str] | None:
            entry = session.get(CompetitionEntryRow, (row.id, player_id))
            if entry is None:
                return "not_joined", "You are not signed up."
            if player_id == row.organiser_id:
                return "organiser_stays", "The organiser cancels the competition instead."
            session.delete(entry)
            return None

        return self._signup_change(comp_id, None, leave)

    @off_loop
    def configure_competition(self, comp_id: int, actor: int, version: int,
                              changes: dict[str, Any]) -> CompetitionResult:
        """The organiser changes settings before the start (:data:`SETTINGS`). Refusals:
        ``not_organiser``, ``bad_setting``, ``competition_full`` (a cup turned league with
        more than 12 signed up), ``signup_closed``; STALE for an older card."""

        def configure(session: Session, row: CompetitionRow,
                      now: datetime) -> tuple[str, str] | None:
            if actor != row.organiser_id:
                return "not_organiser", "Only the organiser can do that."
            if set(changes) - set(SETTINGS) or _valid_settings(changes):
                return "bad_setting", "That setting is not possible."
            kind = changes.get("kind", row.kind)
            count = session.scalar(select(func.count()).where(
                CompetitionEntryRow.competition_id == row.id)) or 0
            if count > CAPS[kind]:
                return "competition_full", "The competition is full."
            for key, value in changes.items():
                if key == "signup_seconds":
                    row.due_at = row.created_at + timedelta(seconds=value)
                else:
                    setattr(row, key, value)
            return None

        return self._signup_change(comp_id, version, configure)

    @off_loop
    def start_competition(self, comp_id: int, actor: int, version: int | None = None,
                          ) -> CompetitionResult:
        """The organiser starts it before the sign-up's end. Refusals: ``not_organiser``,
        ``too_few`` (a league needs 3, a cup 2), ``signup_closed``."""

        def start(session: Session, row: CompetitionRow, now: datetime) -> tuple[str, str] | None:
            if actor != row.organiser_id:
                return "not_organiser", "Only the organiser can do that."
            code = begin(session, row, now)
            if code is not None:
                return code, "Too few players have signed up."
            row.version -= 1  # _signup_change adds the one of this change
            return None

        return self._signup_change(comp_id, version, start)

    @off_loop
    def cancel_competition(self, comp_id: int, actor: int) -> CompetitionResult:
        """The organiser cancels it before the start. Refusals: ``not_organiser``,
        ``signup_closed``."""

        def cancel(session: Session, row: CompetitionRow, now: datetime) -> tuple[str, str] | None:
            if actor != row.organiser_id:
                return "not_organiser", "Only the organiser can do that."
            row.status, row.finished_at = CANCELLED, now
            return None

        return self._signup_change(comp_id, None, cancel)

    @off_loop
    def open_competition(self, chat_id: int) -> CompetitionView | None:
        """The group's competition in sign-up or running, if any."""
        with self.kernel.sessions() as session:
            found = session.scalar(select(CompetitionRow.id).where(
                CompetitionRow.chat_id == chat_id,
                CompetitionRow.status.in_((SIGNUP, RUNNING))).limit(1))
            return None if found is None else read_competition(self.kernel, session, found)

    @off_loop
    def competitions_of(self, player_id: int, limit: int = 10) -> list[CompetitionView]:
        """The competitions a player signed up to, newest first (for ``/history``)."""
        with self.kernel.sessions() as session:
            ids = list(session.scalars(
                select(CompetitionRow.id).join(
                    CompetitionEntryRow, CompetitionEntryRow.competition_id == CompetitionRow.id)
                .where(CompetitionEntryRow.player_id == player_id)
                .order_by(CompetitionRow.id.desc()).limit(limit)))
            return [v for i in ids if (v := read_competition(self.kernel, session, i))]

    @off_loop
    def titles_of(self, player_id: int) -> dict[str, int]:
        """How many leagues and cups a player won (for ``/stats``)."""
        with self.kernel.sessions() as session:
            rows = session.execute(
                select(CompetitionRow.kind, func.count()).where(
                    CompetitionRow.winner_id == player_id).group_by(CompetitionRow.kind))
            return {kind: int(n) for kind, n in rows}

    @off_loop
    def member_left(self, chat_id: int | None, player_id: int) -> list[tuple[int, int]]:
        """A member left the group (``None``: they blocked the bot, every group): withdrawn
        from a sign-up; in a running competition marked as left, so that the pairings still to
        come are forfeits. Returns the active competition matches to forfeit,
        ``(match id, version)``: the caller ends each through
        :meth:`~storage.usecases.competition_progress.ProgressCases.forfeit_left`."""
        k = self.kernel
        found: list[tuple[int, int]] = []
        with k.db.write_lock(), k.sessions.begin() as session:
            rows = session.execute(
                select(CompetitionRow, CompetitionEntryRow)
                .join(CompetitionEntryRow,
                      CompetitionEntryRow.competition_id == CompetitionRow.id)
                .where(CompetitionEntryRow.player_id == player_id,
                       CompetitionEntryRow.left_at.is_(None),
                       CompetitionRow.status.in_((SIGNUP, RUNNING)),
                       *(() if chat_id is None else (CompetitionRow.chat_id == chat_id,)))).all()
            for found_row, entry in rows:
                row = locked(session, k, found_row.id) or found_row
                row.version += 1
                if row.status == SIGNUP and player_id != row.organiser_id:
                    session.delete(entry)
                    continue
                entry.left_at = k.clock()
                matches = [(int(m), int(v)) for m, v in session.execute(
                    select(MatchRow.id, MatchRow.version)
                    .join(CompetitionGameRow, CompetitionGameRow.match_id == MatchRow.id)
                    .where(CompetitionGameRow.competition_id == row.id,
                           MatchRow.status.in_((MatchStatus.ACTIVE.value,
                                                MatchStatus.CHALLENGE.value)),
                           (MatchRow.player0_id == player_id)
                           | (MatchRow.player1_id == player_id)))]
                found += matches
        return found


@register_vacation_guard
def no_vacation_in_a_cup_round(session: Session, player_id: int, now: datetime) -> str | None:
    """A cup's rounds have deadlines that a paused clock would outlast: a player still in a
    running cup (signed up, not gone, not knocked out) may not go on vacation. Leagues allow
    it: their one deadline is the whole league's."""
    cups = (select(CompetitionEntryRow.competition_id)
            .join(CompetitionRow, CompetitionRow.id == CompetitionEntryRow.competition_id)
            .where(CompetitionRow.kind == "cup", CompetitionRow.status == "running",
                   CompetitionEntryRow.player_id == player_id,
                   CompetitionEntryRow.left_at.is_(None)))
    for cid in session.scalars(cups):
        knocked_out = session.scalar(
            select(CompetitionGameRow.id).where(
                CompetitionGameRow.competition_id == cid,
                CompetitionGameRow.winner_id.is_not(None),
                CompetitionGameRow.winner_id != player_id,
                (CompetitionGameRow.player0_id == player_id)
                | (CompetitionGameRow.player1_id == player_id)).limit(1))
        if knocked_out is None:
            return "cup_round"
    return None
