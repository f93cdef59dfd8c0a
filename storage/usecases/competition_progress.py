"""A running competition moves on: results recorded, a cup's rounds advanced, deadlines kept.

Everything here is derived from the database and idempotent, so it is a follow-up any
instance's timer tick runs (:meth:`ProgressCases.competition_tick`): a pairing whose match
ended is recorded once (a compare-and-swap on ``decided_at``), in the transaction that writes
the standings card's outbox row; a crash between a match's end and its recording loses
nothing, the next tick records it. Each step is one short transaction.

Stalling and leaving: a match lost on time or resigned is a loss like any other; a player
who left the group (or blocked the bot) forfeits their active matches (``left``, through the
ordinary resignation, :meth:`ProgressCases.forfeit_left`) and the pairings still to come. A
league whose deadline passes ends with the standings as they are (unfinished matches count
for nobody); a cup round whose deadline passes is lost by the player to move in each match
still going (``deadline``). Either way the matches still going are stopped with no result
(``deadline``), their boards redrawn as ended through the outbox like any match's end.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.delivery.notices import notice_rows
from storage.models import (
    ChallengeRow,
    CompetitionEntryRow,
    CompetitionGameRow,
    CompetitionRow,
    GameRow,
    MatchRow,
)
from storage.results import ActionResult, ChallengeStatus, MatchStatus
from storage.usecases.challenges import close_challenge
from storage.usecases.closing import cancel
from storage.usecases.competition_cards import STANDINGS
from storage.usecases.competition_views import (
    CANCELLED,
    DEADLINE,
    FINISHED,
    RUNNING,
    SIGNUP,
    VOID,
    CompetitionTick,
    MatchToStart,
    locked,
    read_competition,
)
from storage.usecases.competitions import begin
from storage.usecases.kernel import Feature, log, off_loop

T = TypeVar("T")
CHAMPION = "champion"
"""The notices of a competition, in its group: the card edited in place (``standings``), and
the winner announced (``champion``); both are rows of the match whose end caused them."""
LEFT = "left"
"""The ``end_reason`` of a match forfeited by a player who left the competition's group."""
OVER = (MatchStatus.FINISHED.value, MatchStatus.ABANDONED.value,
        MatchStatus.CANCELLED.value, MatchStatus.EXPIRED.value)


def _deciding_points(session: Session, match: MatchRow) -> int:
    """How the game that decided a match ended (1, 2 or 3); 1 for a match given up."""
    if match.end_reason != "score":
        return 1
    points = session.scalar(select(GameRow.points).where(GameRow.match_id == match.id)
                            .order_by(GameRow.number.desc()).limit(1))
    return max(1, min(3, points or 1))


def _left(session: Session, comp_id: int) -> set[int]:
    return set(session.scalars(select(CompetitionEntryRow.player_id).where(
        CompetitionEntryRow.competition_id == comp_id,
        CompetitionEntryRow.left_at.is_not(None))))


def _decide(g: CompetitionGameRow, winner: int | None, reason: str, now: datetime,
            points: int = 1) -> None:
    g.winner_id, g.reason, g.points, g.decided_at = winner, reason, points, now


class ProgressCases(Feature):
    """Recording results and keeping deadlines (see the module's docstring)."""

    @off_loop
    def competition_tick(self) -> CompetitionTick:
        """One pass: sign-ups due (started, or cancelled with too few), matches ended
        (recorded), pairings of players who left (forfeited), deadlines passed, then the
        pairings whose matches are still to open."""
        now = self.kernel.clock()
        keys: list[str] = []
        changed: list[int] = []
        with self.kernel.sessions() as session:
            due = list(session.scalars(select(CompetitionRow.id).where(
                CompetitionRow.status == SIGNUP, CompetitionRow.due_at <= now)))
            ended = list(session.scalars(
                select(CompetitionGameRow.id)
                .join(MatchRow, MatchRow.id == CompetitionGameRow.match_id)
                .join(CompetitionRow, CompetitionRow.id == CompetitionGameRow.competition_id)
                .where(CompetitionGameRow.decided_at.is_(None), MatchRow.status.in_(OVER),
                       CompetitionRow.status == RUNNING)))
            late = list(session.scalars(select(CompetitionRow.id).where(
                CompetitionRow.status == RUNNING, CompetitionRow.due_at <= now)))
            leaving = list(session.scalars(
                select(CompetitionRow.id).distinct()
                .join(CompetitionEntryRow,
                      CompetitionEntryRow.competition_id == CompetitionRow.id)
                .where(CompetitionRow.status == RUNNING,
                       CompetitionEntryRow.left_at.is_not(None))))
        for cid in due:
            if self._guarded(self._signup_due, cid, now):
                changed.append(cid)
        for gid in ended:
            keys += self._guarded(self._record_result, gid, now) or []
        for cid in leaving:
            keys += self._guarded(self._forfeits, cid, now) or []
        for cid in late:
            keys += self._guarded(self._deadline, cid, now) or []
        return CompetitionTick(tuple(dict.fromkeys(keys)), tuple(self._to_start()),
                               tuple(changed))

    @staticmethod
    def _guarded(step: Callable[..., T], *args: Any) -> T | None:
        """One step; a failure is logged and retried by the next tick."""
        try:
            return step(*args)
        except Exception:
            log.exception("competition step %s%r failed", step.__name__, args)
            return None

    def _signup_due(self, comp_id: int, now: datetime) -> bool:
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            row = locked(session, k, comp_id)
            if row is None or row.status != SIGNUP or row.due_at > now:
                return False
            if begin(session, row, now) is not None:  # too few signed up
                row.status, row.finished_at = CANCELLED, now
                row.version += 1
        return True

    def _record_result(self, game_id: int, now: datetime) -> list[str]:
        """Record the result of a pairing whose match ended, and what follows from it."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            comp_id = session.scalar(select(CompetitionGameRow.competition_id).where(
                CompetitionGameRow.id == game_id))
            row = locked(session, k, comp_id) if comp_id is not None else None
            g = session.get(CompetitionGameRow, game_id, populate_existing=True)
            if row is None or g is None or g.decided_at is not None or g.match_id is None:
                return []
            match = session.get(MatchRow, g.match_id, populate_existing=True)
            if match is None or match.status not in OVER:
                return []
            if match.winner in (0, 1) and match.status in OVER[:2]:
                winner = match.player0_id if match.winner == 0 else match.player1_id
                _decide(g, winner, (match.end_reason or "score")[:16], now,
                        _deciding_points(session, match))
            else:  # cancelled or expired: a league's counts for nobody, a cup's goes on
                _decide(g, None if row.kind == "league" else g.player0_id, VOID, now)
            session.flush()
            self._follow(session, row, now)
            keys = self._tell(session, row, match.id)
            session.commit()
        return keys

    def _follow(self, session: Session, row: CompetitionRow, now: datetime) -> None:
        """After a decision: a cup's winner carried into the next round, a round complete
        opens the next (forfeits of those who left decided at once), the end."""
        row.version += 1
        games = list(session.scalars(select(CompetitionGameRow).where(
            CompetitionGameRow.competition_id == row.id)
            .order_by(CompetitionGameRow.round, CompetitionGameRow.slot)))
        left = _left(session, row.id)
        if row.kind == "league":
            self._forfeit_pending(session, games, left, now)
            if all(g.decided_at is not None for g in games):
                self._finish(session, row, now)
            return
        last = max(g.round for g in games)
        while True:
            current = [g for g in games if g.round == row.round]
            self._forfeit_pending(session, current, left, now)
            for g in current:
                if g.decided_at is not None and g.winner_id is not None and g.round < last:
                    nxt = next(n for n in games if n.round == g.round + 1 and n.slot == g.slot // 2)
                    if g.slot % 2 == 0:
                        nxt.player0_id = g.winner_id
                    else:
                        nxt.player1_id = g.winner_id
            if any(g.decided_at is None for g in current):
                return
            if row.round == last:
                self._finish(session, row, now)
                return
            row.round += 1
            row.due_at = now + timedelta(seconds=row.round_seconds)

    def _forfeit_pending(self, session: Session, games: list[CompetitionGameRow],
                         left: set[int], now: datetime) -> bool:
        """The pairings of a player who left that have no match in play (none yet, or its
        challenge still open): forfeited to the other (both left: the first named)."""
        done = False
        for g in games:
            if g.decided_at is not None or g.player0_id is None or g.player1_id is None:
                continue
            if not {g.player0_id, g.player1_id} & left:
                continue
            match = session.get(MatchRow, g.match_id) if g.match_id is not None else None
            if match is not None and match.status != MatchStatus.CHALLENGE.value:
                continue  # in play: forfeited through its match (forfeit_left)
            if match is not None:
                self._close_challenge(session, match.id)
            stays = g.player1_id if g.player0_id in left else g.player0_id
            _decide(g, stays, LEFT, now)
            done = True
        return done

    def _forfeits(self, comp_id: int, now: datetime) -> list[str]:
        """The forfeits of those who left, for pairings without a match in play."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            row = locked(session, k, comp_id)
            if row is None or row.status != RUNNING:
                return []
            games = list(session.scalars(select(CompetitionGameRow).where(
                CompetitionGameRow.competition_id == row.id,
                *(() if row.kind == "league" else (CompetitionGameRow.round == row.round,)))))
            if not self._forfeit_pending(session, games, _left(session, row.id), now):
                return []
            session.flush()
            self._follow(session, row, now)
            any_match = session.scalar(
                select(CompetitionGameRow.match_id).where(
                    CompetitionGameRow.competition_id == row.id,
                    CompetitionGameRow.match_id.is_not(None))
                .order_by(CompetitionGameRow.id.desc()).limit(1))
            keys = self._tell(session, row, any_match) if any_match is not None else []
            session.commit()
        return keys

    def _finish(self, session: Session, row: CompetitionRow, now: datetime) -> None:
        session.flush()
        view = read_competition(self.kernel, session, row.id)
        assert view is not None
        if view.is_league:
            table = view.table()
            row.winner_id = table[0].player if table and table[0].points > 0 else None
        else:
            row.winner_id = view.bracket().champion
        row.status, row.finished_at = FINISHED, now

    def _tell(self, session: Session, row: CompetitionRow, match_id: int) -> list[str]:
        """The card's outbox row (and the winner's announcement once it is over), on the
        match that caused them."""
        session.flush()
        # a notice's place is unique per match: these name the competition's version (and
        # the competition), so a step told on a match already used for one is written too
        notices: list[tuple[int, str, int | None, dict[str, Any]]] = [
            (row.chat_id, f"{STANDINGS}-{row.id}-{row.version}", None,
             {"kind": STANDINGS, "comp": row.id, "v": row.version})]
        if row.status == FINISHED:
            notices.append((row.chat_id, f"{CHAMPION}-{row.id}", None,
                            {"kind": CHAMPION, "comp": row.id}))
        return notice_rows(session, self.kernel, match_id, notices)

    def _deadline(self, comp_id: int, now: datetime) -> list[str]:
        """A league's end, or a cup round's: unfinished matches stopped (a league's count for
        nobody; in a cup the player to move loses)."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            row = locked(session, k, comp_id)
            if row is None or row.status != RUNNING or row.due_at > now:
                return []
            games = list(session.scalars(select(CompetitionGameRow).where(
                CompetitionGameRow.competition_id == row.id,
                CompetitionGameRow.decided_at.is_(None),
                *(() if row.kind == "league" else (CompetitionGameRow.round == row.round,)))))
            self._forfeit_pending(session, games, _left(session, row.id), now)
            last_match: int | None = None
            keys: list[str] = []
            for g in games:
                if g.decided_at is not None:
                    continue
                if g.player0_id is None or g.player1_id is None:
                    continue
                match = session.get(MatchRow, g.match_id) if g.match_id is not None else None
                winner: int | None = None if row.kind == "league" else g.player0_id
                if match is not None and match.status == MatchStatus.ACTIVE.value:
                    last_match = match.id
                    if match.to_act in (0, 1) and row.kind != "league":
                        winner = match.player1_id if match.to_act == 0 else match.player0_id
                    stopped = self._stop(session, match, now)
                    if stopped is None:
                        return []  # a move came first: the next tick looks again
                    keys += stopped
                elif match is not None and match.status == MatchStatus.CHALLENGE.value:
                    self._close_challenge(session, match.id)
                _decide(g, winner, DEADLINE if row.kind != "league" else VOID, now)
            session.flush()
            if row.kind == "league":
                self._finish(session, row, now)
                row.version += 1
            else:
                self._follow(session, row, now)
            any_match = last_match or session.scalar(
                select(CompetitionGameRow.match_id).where(
                    CompetitionGameRow.competition_id == row.id,
                    CompetitionGameRow.match_id.is_not(None))
                .order_by(CompetitionGameRow.id.desc()).limit(1))
            if any_match is not None:
                keys += self._tell(session, row, any_match)
            session.commit()
        return keys

    def _stop(self, session: Session, match: MatchRow, now: datetime) -> list[str] | None:
        """A match still going at its competition's deadline is stopped, with no result
        (``deadline``), written as every action is (:meth:`Kernel.plan`): its boards are
        redrawn as ended through the outbox, its end's notices written, its timers gone.
        ``None`` (rolled back): a move came first. A match whose state cannot be read is
        only cancelled (it cannot be drawn). Returns the chats to kick."""
        k = self.kernel
        loaded = k.load(session, match.id)
        if isinstance(loaded, ActionResult):
            return [] if cancel(session, match, DEADLINE, now) else None
        if loaded.row.version != match.version:
            session.rollback()
            return None
        state, events = loaded.state.stop(DEADLINE)
        plan = k.plan(loaded.row, loaded.state, state, events, now, players=loaded.players)
        if not k.apply(session, plan):
            session.rollback()
            return None
        session.expire(match)  # written beside the ORM: read again when next used
        return list(plan.chat_keys)

    def _close_challenge(self, session: Session, match_id: int) -> None:
        ch = session.scalar(select(ChallengeRow).where(ChallengeRow.match_id == match_id))
        if ch is not None and ch.status == ChallengeStatus.OPEN:
            close_challenge(self.kernel, session, ch, ChallengeStatus.CANCELLED)

    def _to_start(self) -> list[MatchToStart]:
        """The pairings of the rounds in play whose match must still be opened or started."""
        with self.kernel.sessions() as session:
            rows = session.execute(
                select(CompetitionGameRow, CompetitionRow, MatchRow.status, ChallengeRow.id)
                .join(CompetitionRow, CompetitionRow.id == CompetitionGameRow.competition_id)
                .outerjoin(MatchRow, MatchRow.id == CompetitionGameRow.match_id)
                .outerjoin(ChallengeRow, ChallengeRow.match_id == CompetitionGameRow.match_id)
                .where(CompetitionRow.status == RUNNING,
                       CompetitionGameRow.decided_at.is_(None),
                       CompetitionGameRow.player0_id.is_not(None),
                       CompetitionGameRow.player1_id.is_not(None),
                       (CompetitionRow.kind == "league")
                       | (CompetitionGameRow.round == CompetitionRow.round))
                .order_by(CompetitionGameRow.id)).all()
            found = []
            for g, comp, status, challenge_id in rows:
                if status not in (None, MatchStatus.CHALLENGE.value):
                    continue
                left = _left(session, comp.id)
                if {g.player0_id, g.player1_id} & left:
                    continue  # forfeited by the next result's pass, or the deadline
                assert g.player0_id is not None and g.player1_id is not None
                found.append(MatchToStart(
                    g.id, comp.id, g.player0_id, g.player1_id, comp.chat_id, comp.thread_id,
                    comp.length, comp.move_seconds, comp.game_type, g.match_id, challenge_id))
            return found

    @off_loop
    def forfeit_left(self, match_id: int, player_id: int) -> ActionResult:
        """A player who left the competition's group gives up this match (``left``): the
        ordinary resignation of the whole match, rated as one."""
        return self.kernel.act(match_id, player_id, None,
                               lambda m, seat, _d: m.resign_match(seat, reason=LEFT))
