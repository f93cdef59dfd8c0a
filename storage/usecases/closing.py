"""Matches that cannot go on where they are: a stored state that cannot be read (either player
may close the match: it counts for nobody), a group the bot was removed from (its matches
move to the players' private chats, once), and a player the bot cannot reach anywhere (the
match is cancelled: it counts for nobody)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from storage.delivery.notices import (
    CANCELLED,
    CLOSED,
    MOVED,
    STRANDED,
    notice_rows,
    reach_of,
    retire_rows,
)
from storage.models import BoardMessageRow, DeliveryRow, MatchRow
from storage.results import ActionResult, MatchStatus, MatchSummary, MatchView, Outcome
from storage.usecases.kernel import Feature, log, off_loop
from storage.usecases.reading import readable, summaries
from storage.usecases.rows import DELETE_PENDING_TIMERS, STALE_MESSAGE, refused

UNREADABLE = "unreadable"
"""The ``end_reason`` of a match closed because its stored state could not be read."""
UNREACHABLE = "unreachable"
"""The ``end_reason`` of a match cancelled because the bot cannot reach one of its players
anywhere (its group removed the bot, and they never started it)."""


class ClosingCases(Feature):
    """Ending or moving matches that cannot go on where they are."""

    @off_loop
    def close_unreadable(
        self, match_id: int, user_id: int, version: int | None = None
    ) -> MatchSummary | ActionResult:
        """A player closes their active match whose stored state cannot be read: it becomes
        ``cancelled`` (reason ``unreadable``), counted as won or lost by nobody, and its timers
        go; the opponent who started the bot is told (a notice, see
        :mod:`storage.delivery.notices`). Returns the closed match's line seen from this
        player (with the opponent, whose chat to kick),
        or why not (NOT_FOUND, REFUSED ``not_a_player`` / ``game_over`` / ``readable``, STALE)."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return ActionResult(Outcome.NOT_FOUND, code="not_found", message="No such match.")
            if user_id not in (row.player0_id, row.player1_id):
                return refused("not_a_player", "You are not playing in this match.")
            if row.status != MatchStatus.ACTIVE:
                return refused("game_over", "The match is over.")
            if readable(row.state):
                return refused("readable", "This match can be read: play, resign or cancel it.")
            if version is not None and row.version != version:
                return ActionResult(Outcome.STALE, code="stale", message=STALE_MESSAGE)
            if not cancel(session, row, UNREADABLE, k.clock()):
                return ActionResult(Outcome.STALE, code="stale", message=STALE_MESSAGE)
            seat = 0 if row.player0_id == user_id else 1
            reached, _unreached = reach_of(session, row)
            notice_rows(session, k, match_id, [(pid, CLOSED, other, {"by": user_id})
                                               for other, pid in reached if other != seat])
            session.commit()
            session.refresh(row)
            log.warning("match %s closed as unreadable by player %s", match_id, user_id)
            return summaries(k, session, [row], lambda _r: seat)[0]

    @off_loop
    def cancel_unreachable(self, match_id: int) -> MatchView | None:
        """An active match none of whose boards can reach one of its players (its group
        removed the bot, and they never started it) is cancelled: reason ``unreachable``,
        counted as won or lost by nobody, its timers gone; its live boards are taken down
        (notices, see :data:`storage.delivery.notices.RETIRE`). Returns it as it ends, or
        ``None`` when it is not active any more."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            row = session.get(MatchRow, match_id)
            if row is None or row.status != MatchStatus.ACTIVE:
                return None
            if not cancel(session, row, UNREACHABLE, k.clock()):
                return None
            reached, unreached = reach_of(session, row)
            notice_rows(session, k, match_id, [(pid, CANCELLED, seat, {"unreached": unreached})
                                               for seat, pid in reached])
            retire_rows(session, k, match_id, live_boards_of(session, match_id))
            session.commit()
            loaded = k.load(session, match_id)
            log.warning("match %s cancelled: a player cannot be reached", match_id)
            return None if isinstance(loaded, ActionResult) else k.loaded_view(loaded)

    @off_loop
    def move_to_private(self, chat_id: int) -> list[MatchView]:
        """The bot was removed from the group ``chat_id``: its active matches go on in the
        players' private chats (their group boards are forgotten, their version bumped so the
        group's buttons are stale). Returns the matches moved by this call: called again (a
        second removal notice, another instance, a board that could not be posted), it moves
        nothing, so the players are told once. Matches whose state cannot be read move too
        but are not returned."""
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
            ids = list(session.scalars(
                select(MatchRow.id)
                .where(MatchRow.chat_id == chat_id, MatchRow.status == MatchStatus.ACTIVE)
                .order_by(MatchRow.id)
            ))
            moved = [i for i in ids if self._move(session, i, chat_id)]
            session.commit()
            out = []
            for match_id in moved:
                loaded = k.load(session, match_id)
                if not isinstance(loaded, ActionResult):
                    out.append(k.loaded_view(loaded))
            return out

    def _tell_moved(self, session: Session, match_id: int, chat_id: int) -> None:
        """The notices of a match moved out of its group (see :mod:`storage.delivery.notices`):
        each player who started the bot is told; when one never did, the group is asked
        first (the others are told once it was, see :meth:`NoticeCases.stranded_told`)."""
        row = session.get(MatchRow, match_id)
        if row is None:
            return
        reached, unreached = reach_of(session, row)
        if unreached:
            notice_rows(session, self.kernel, match_id,
                        [(chat_id, STRANDED, None, {"unreached": unreached})])
        else:
            notice_rows(session, self.kernel, match_id,
                        [(pid, MOVED, seat, {}) for seat, pid in reached])

    def _move(self, session: Session, match_id: int, chat_id: int) -> bool:
        """Move one match out of ``chat_id`` unless another writer just did."""
        now = self.kernel.clock()
        moved = session.execute(
            update(MatchRow)
            .where(MatchRow.id == match_id, MatchRow.chat_id == chat_id,
                   MatchRow.status == MatchStatus.ACTIVE)
            .values(chat_id=None, thread_id=None, in_group=False, version=MatchRow.version + 1,
                    updated_at=now)
            .execution_options(synchronize_session=False)
        )
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            return False
        stale = live_boards_of(session, match_id, chat_id)  # their buttons act no more
        for table, column in ((BoardMessageRow, BoardMessageRow.chat_id),
                              (DeliveryRow, DeliveryRow.chat_id)):
            # the group's boards are gone with it, and nothing is to be delivered there any more
            session.execute(
                delete(table)
                .where(table.match_id == match_id, column == chat_id)
                .execution_options(synchronize_session=False)
            )
        retire_rows(session, self.kernel, match_id, stale)
        self._tell_moved(session, match_id, chat_id)
        return True


def live_boards_of(session: Session, match_id: int,
                   chat_id: int | None = None) -> list[BoardMessageRow]:
    """A match's live boards (in ``chat_id`` only, when given)."""
    where = [BoardMessageRow.match_id == match_id, BoardMessageRow.live.is_(True)]
    if chat_id is not None:
        where.append(BoardMessageRow.chat_id == chat_id)
    return list(session.scalars(select(BoardMessageRow).where(*where)
                                .order_by(BoardMessageRow.id)))


def cancel(session: Session, row: MatchRow, reason: str, now: datetime) -> bool:
    """Cancel an active match for ``reason`` (won or lost by nobody, its timers gone), if it
    is still at the version read; ``False`` (rolled back): another write came first."""
    closed = session.execute(
        update(MatchRow)
        .where(MatchRow.id == row.id, MatchRow.version == row.version)
        .values(status=MatchStatus.CANCELLED.value, end_reason=reason,
                version=row.version + 1, to_act=None, turn_deadline=None,
                finished_at=now, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if closed.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        return False
    session.execute(DELETE_PENDING_TIMERS, {"b_id": row.id})
    return True
