"""Delivery: the use cases of the worker that makes every chat show what the database says.

The kernel writes one outbox row per place an action changes (:mod:`storage.delivery.outbox`).
A worker claims due rows with a compare-and-swap on ``claimed_until`` (like timers), so two
instances never work on the same place at once, each claim fenced by a token
(:mod:`storage.delivery.claims`); it reads the latest match, calls Telegram, and
records what it posted (:meth:`DeliveryWorkCases.record_sent`), then completes the row, or
reschedules it with a back-off, or gives it up (the chat is unreachable). Reconciling compares,
for every active match, what each place should show with what it shows, and queues only the
places that differ.

The worker's updates of a row read it ``FOR UPDATE`` (PostgreSQL): an action committing at the
same moment raises the row's ``version`` and sets it pending, and without the lock a completion
that read the row before would write ``pending = false`` over it (a lost update: the new state
never shown). SQLite serialises every writer anyway.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from storage.delivery.claims import DeliveryWork, due, fenced, live_boards, locked
from storage.delivery.notices import move_notices
from storage.delivery.outbox import Where, outbox_row, places, upsert
from storage.models import (
    BoardMessageRow,
    CompetitionRow,
    DeliveryChatRow,
    DeliveryRow,
    MatchRow,
)
from storage.results import ENDED_STATUSES, BoardMessageView, MatchStatus
from storage.usecases.kernel import Feature, Kernel, off_loop
from storage.usecases.rows import board_view

__all__ = [
    "DeliveryWork",
    "DeliveryWorkCases",
    "match_places",
    "move_chat_deliveries",
    "queue_places",
]

# Delivery runs on the wall clock (the kernel's ``wall``), not the use cases' clock (which tests
# move to fire reminders): a lease or a back-off is real time whatever the game's clock says.
PROBE_TTL = timedelta(minutes=2)
"""How long an unknown send's orphan is looked for."""
PROBE_AGAIN = timedelta(seconds=2)
PROBE_TRIES = 4
"""Looks for one orphan (after 2, 4, 8 and 16 s): a send answered later than that is rare."""
Recorded = tuple[list[BoardMessageView], list[dict[str, Any]], int]
"""What :meth:`DeliveryWorkCases.record_sent` returns: the older boards to retire, the unknown
sends to look for, and the chat's newest message id."""


def _release(row: DeliveryRow) -> None:
    row.claimed_by = None
    row.claimed_until = None


def _raise_top(session: Session, insert: Any, chat_id: int, message_id: int,
               now: datetime) -> None:
    """The chat's highest message id the bot got back moves up to ``message_id``: an insert
    that yields to another instance's (both may post in a chat new to them at once) and a
    conditional update, so the mark only ever rises."""
    session.execute(insert(DeliveryChatRow).values(
        chat_id=chat_id, last_message_id=0, updated_at=now).on_conflict_do_nothing(
        index_elements=[DeliveryChatRow.chat_id]))
    session.execute(update(DeliveryChatRow).where(
        DeliveryChatRow.chat_id == chat_id, DeliveryChatRow.last_message_id < message_id)
        .values(last_message_id=message_id, updated_at=now)
        .execution_options(synchronize_session=False))


def _has_work(row: DeliveryRow) -> bool:
    return (row.shown < row.version or row.repost_version is not None
            or row.notify_version is not None or bool(row.probes) or row.keyboard_asked)


def _lines_changed(row: DeliveryRow, version: int,
                   drawn: Sequence[Mapping[str, Any]] | None) -> bool:
    """Whether the place's caption lines for ``version`` are other than those its board was
    drawn with (``None``: not known, taken as the same)."""
    if drawn is None or row.notes_version != version or row.version != version:
        return False
    return list(row.notes or []) != [dict(n) for n in drawn]


def _served(row: DeliveryRow, version: int, drawn: Sequence[Mapping[str, Any]] | None,
            requests: tuple[str, ...]) -> None:
    """The place shows ``version``, drawn with the lines ``drawn``: its ``requests`` up to that
    version are done, unless the board was asked for again meanwhile with other lines (a
    reminder, then the last warning, at one version): that one is still to deliver."""
    if _lines_changed(row, version, drawn):
        return
    for name in requests:
        asked = getattr(row, name)
        if asked is not None and asked <= version:
            setattr(row, name, None)


def _keyboard_done(row: DeliveryRow, drawn: tuple[int | None, int] | None) -> bool:
    """Whether the place's board shows the checker chosen on it: the board delivered was
    drawn (``drawn``: the choice and the version) with the choice the row holds now, or that
    choice belongs to another version than the row's (it means nothing any more)."""
    if row.selected_version != row.version:
        return True
    return drawn == (row.selected, row.version)


def queue_places(k: Kernel, session: Session, match_id: int, version: int,
                 found: list[Where], now: datetime) -> None:
    """Upsert outbox rows for ``found`` (outside an action: a board asked for again)."""
    if found:
        rows = [outbox_row(w, match_id, version, now, None) for w in found]
        session.execute(upsert(k.insert, k.db.engine.dialect.name), rows)


def match_places(k: Kernel, session: Session, row: MatchRow) -> list[Where]:
    """Every place showing the match as it is now (who started the bot read from the
    database)."""
    found = k.players(session, row.player0_id, row.player1_id)

    def started(player_id: int | None) -> bool:
        player = found.get(player_id) if player_id is not None else None
        return player is not None and player.can_message

    return places(status=row.status, chat_id=row.chat_id,
                  inline_message_id=row.inline_message_id, in_group=row.in_group,
                  players=(row.player0_id, row.player1_id), to_act=row.to_act,
                  turn_changed=True, private=(started(row.player0_id), started(row.player1_id)))


def _notes_again(session: Session, match_id: int, place: str, version: int,
                 notes: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The caption lines of a board posted again at ``version``: what the place's row says of
    the action of that version (without an earlier reminder), then ``notes``."""
    old = session.scalar(select(DeliveryRow).where(
        DeliveryRow.match_id == match_id, DeliveryRow.place == place))
    kept = (old.notes or []) if old is not None and old.notes_version == version else []
    return [n for n in kept if n.get("k") != "remind"] + list(notes or ())


class DeliveryWorkCases(Feature):
    """Claiming, completing, rescheduling and reconciling what chats show."""

    @off_loop
    def due_chats(self, *, limit: int = 100) -> list[str]:
        """The chats with delivery work due and unclaimed (for the periodic poll)."""
        now = self.kernel.wall_now()
        with self.kernel.sessions() as session:
            return list(session.scalars(
                select(DeliveryRow.chat_key).where(due(now)).distinct().limit(limit)))

    @off_loop
    def saw_messages(self, marks: Mapping[int, int]) -> None:
        """The highest message id an instance got back per chat (any send: a welcome, a
        command's answer): the chat's last message id moves up to it, so that no probe for a
        lost send looks at or below it (an edit there would rewrite that message)."""
        if not marks:
            return
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            for chat_id, message_id in sorted(marks.items()):  # (another instance's too)
                _raise_top(session, k.insert, chat_id, message_id, now)

    @off_loop
    def mark_sending(self, work_id: int, *, claim: int, caption: str, markup: Any,
                     lease: float = 10.0, seen: int = 0, photo: bool = False) -> str | None:
        """Before a send: remember it as of unknown outcome (the gap after the chat's last
        message id, or ``seen``, the highest this process got back there, when higher; the
        exact caption and keyboard), and renew the claim. Returns the token
        :meth:`record_sent` clears once the send's message id is known; ``None`` when the
        claim is no longer this worker's (``claim``: its fencing token): it must not send."""
        k = self.kernel
        token = uuid.uuid4().hex[:12]
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            row = fenced(session, work_id, claim)
            if row is None:
                return None
            after = 0
            if row.chat_id is not None:
                mark = session.get(DeliveryChatRow, row.chat_id)
                after = mark.last_message_id if mark else 0
            after = max(after, seen)
            probe = {"token": token, "after": after, "caption": caption, "markup": markup,
                     "at": now.isoformat()}
            if photo:  # a notice sent as a picture (a cup's bracket): probed by its caption
                probe["photo"] = True
            row.probes = [*(row.probes or []), probe]
            row.claimed_until = now + timedelta(seconds=lease)
        return token

    @off_loop
    def record_sent(self, work_id: int, token: str, *, claim: int, message_id: int,
                    version: int,
                    notes: Sequence[Mapping[str, Any]] | None = None) -> Recorded | None:
        """A board was posted: it is the place's live board (the older ones are returned, to
        retire), the send is no longer of unknown outcome, and the chat's highest message id
        moves up. Also returns the earlier unknown sends, to look for their orphans below
        ``message_id``, and that id. ``notes``: the caption lines the board was drawn with.

        ``None`` when the claim was taken over meanwhile (the send outlived the lease): the
        message is then nobody's board. It is not recorded (the place's claimant keeps its
        own); the send's unknown-outcome note now points at it exactly and is looked for
        again, so whoever holds the place next retires it if the stale worker, which deletes
        it at once, does not get to (it crashed)."""
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            row = locked(session, work_id)
            if row is None or row.chat_id is None:
                return None
            _raise_top(session, k.insert, row.chat_id, message_id, now)
            if row.claim_token != claim:
                row.probes = [{**p, "after": message_id - 1, "tries": 0, "at": now.isoformat()}
                              if p.get("token") == token else p for p in (row.probes or [])]
                soon = now + PROBE_AGAIN
                row.due_at = min(row.due_at, soon) if row.pending else soon
                row.pending = True
                return None
            session.add(BoardMessageRow(
                match_id=row.match_id, chat_id=row.chat_id, message_id=message_id,
                for_seat=row.for_seat, version=version, live=True, created_at=now))
            row.probes = [p for p in (row.probes or []) if p.get("token") != token]
            # asked for and done: a crash from here on must not post yet another board
            _served(row, version, notes, ("repost_version", "firm_version", "media_version"))
            session.flush()
            older = [board_view(b) for b in live_boards(session, row)
                     if b.message_id != message_id]
            return older, list(row.probes), message_id

    @off_loop
    def known_message_ids(self, chat_id: int) -> set[int]:
        """Every board message id recorded in a chat, and its competitions' cards (a cup's
        is a picture a board's probe could take for an orphan): never probed as orphans."""
        with self.kernel.sessions() as session:
            ids = set(session.scalars(select(BoardMessageRow.message_id).where(
                BoardMessageRow.chat_id == chat_id, BoardMessageRow.message_id.is_not(None))))
            ids |= set(session.scalars(select(CompetitionRow.card_message_id).where(
                CompetitionRow.chat_id == chat_id, CompetitionRow.card_message_id.is_not(None))))
            return {i for i in ids if i is not None}

    @off_loop
    def drop_probes(self, work_id: int, tokens: list[str]) -> None:
        """Unknown sends resolved (their orphan found and retired) or given up."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            row = locked(session, work_id)
            if row is not None:
                row.probes = [p for p in (row.probes or []) if p.get("token") not in tokens]

    @off_loop
    def complete_delivery(self, work_id: int, *, claim: int, version: int,
                          drawn: tuple[int | None, int] | None = None,
                          notes: Sequence[Mapping[str, Any]] | None = None) -> bool:
        """The place shows ``version``: requests up to it are done (newer ones stay), and the
        keyboard's choice when its board was drawn with it (``drawn``: the checker chosen and
        the version, see :attr:`DeliveryWork.choice`). ``notes``: the caption lines the board
        was drawn with (:attr:`DeliveryWork.notes`); when the place's lines for ``version``
        changed since (a reminder asked for the board again at the same version while this
        one was on its way), its requests stay: the board goes again with the new lines.
        Returns whether work is left (a newer action or choice meanwhile, a request at the
        same version with other lines, or an orphan still looked for); a stale claim
        (``claim`` is not the place's token any more) changes nothing."""
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            row = fenced(session, work_id, claim)
            if row is None:
                return False
            row.shown = max(row.shown, version)
            _served(row, version, notes, ("repost_version", "firm_version", "media_version",
                                          "notify_version"))
            if row.keyboard_asked and _keyboard_done(row, drawn):
                row.keyboard_asked = False
            # an orphan not found yet is looked for again a few times, further apart each
            # time (every look costs calls in the chat), then given up
            probes = [{**p, "tries": p.get("tries", 0) + 1} for p in (row.probes or [])
                      if datetime.fromisoformat(p["at"]) > now - PROBE_TTL]
            row.probes = [p for p in probes if p["tries"] <= PROBE_TRIES]
            row.pending = _has_work(row)
            row.attempts = 0
            row.last_error = None
            tries = min((p["tries"] for p in row.probes), default=1)
            again = PROBE_AGAIN * 2 ** (tries - 1)
            row.due_at = now + again if row.shown >= row.version and not row.keyboard_asked \
                and row.repost_version is None else now
            row.updated_at = now
            _release(row)
            return row.pending

    @off_loop
    def reschedule_delivery(self, work_id: int, *, claim: int, delay: float,
                            error: str) -> None:
        """Try this place again after ``delay`` seconds (a back-off, or Telegram's
        ``retry_after``); not when the claim is stale."""
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            row = fenced(session, work_id, claim)
            if row is not None:
                row.due_at = now + timedelta(seconds=delay)
                row.attempts += 1
                row.last_error = error[:200]
                row.updated_at = now
                _release(row)

    @off_loop
    def give_up_delivery(self, work_id: int, *, claim: int, error: str) -> None:
        """The chat cannot be reached (the bot was removed or blocked): no more retries for
        this place until a new action asks for it again; not when the claim is stale."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            row = fenced(session, work_id, claim)
            if row is not None:
                row.pending = False
                row.probes = []
                row.keyboard_asked = False
                row.last_error = error[:200]
                row.updated_at = k.wall_now()
                _release(row)

    @off_loop
    def redeliver(self, match_id: int, *, seat: int | None, shared: bool,
                  notes: list[dict[str, Any]] | None = None) -> list[str]:
        """Post the match's board again (``/games``, a deep link, a reminder): a new message
        at the group's shared board when ``shared``, and at ``seat``'s private board (a group
        match's private board only while it is that seat's turn). ``notes``: caption lines
        added to what the board says of the last action (a reminder's); an earlier
        reminder's line is not shown again. Returns the chats to kick (none: nothing to
        post)."""
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return []
            found = [Where(w.place, w.chat_key, w.chat_id, None, w.for_seat, repost=True,
                           media=True) for w in match_places(k, session, row)
                     if w.inline_message_id is None and not w.only_live
                     and (w.for_seat == seat if w.for_seat is not None else shared)]
            if found:
                rows = [outbox_row(w, match_id, row.version, now,
                                   _notes_again(session, match_id, w.place, row.version, notes))
                        for w in found]
                session.execute(upsert(k.insert, k.db.engine.dialect.name), rows)
            return [w.chat_key for w in found]

    @off_loop
    def reconcile_deliveries(self) -> list[str]:
        """Compare, for every active match, what each place should show with what it shows
        (its delivered version, its live boards), and queue the places that differ. Returns
        the chats that got work."""
        k = self.kernel
        now = k.wall_now()
        chats: set[str] = set()
        with k.db.write_lock(), k.sessions.begin() as session:
            matches = session.scalars(select(MatchRow).where(
                MatchRow.status == MatchStatus.ACTIVE.value))
            for match in matches:
                for where in match_places(k, session, match):
                    if self._reconcile_place(session, match, where, now):
                        chats.add(where.chat_key)
        return sorted(chats)

    def _reconcile_place(self, session: Session, match: MatchRow, where: Where,
                         now: datetime) -> bool:
        row = session.scalar(select(DeliveryRow).where(
            DeliveryRow.match_id == match.id, DeliveryRow.place == where.place))
        if row is None:
            return self._first_look(session, match, where, now)
        if row.pending:
            return False
        live = [] if row.chat_id is None else live_boards(session, row)
        behind = row.shown < row.version or (row.chat_id is not None and len(live) != 1)
        if not behind:
            return False
        if row.chat_id is not None and not live:
            row.repost_version = row.version
            row.media_version = row.version
        row.pending = True
        row.due_at = now
        return True

    def _first_look(self, session: Session, match: MatchRow, where: Where,
                    now: datetime) -> bool:
        """A place without an outbox row (a match from before revision 0005): a board
        already live at the match's version is taken as delivered; else it is queued."""
        live = list(session.scalars(select(BoardMessageRow).where(
            BoardMessageRow.match_id == match.id, BoardMessageRow.live.is_(True),
            BoardMessageRow.chat_id == where.chat_id,
            BoardMessageRow.for_seat.is_(None) if where.for_seat is None
            else BoardMessageRow.for_seat == where.for_seat)))
        shown = len(live) == 1 and live[0].version == match.version
        if where.inline_message_id is not None:
            shown = True  # an inline card is only a courtesy: edited with the next action
        place = Where(where.place, where.chat_key, where.chat_id, where.inline_message_id,
                      where.for_seat, repost=not live, media=True)
        queue_places(self.kernel, session, match.id, match.version, [place], now)
        if shown:
            session.execute(update(DeliveryRow).where(
                DeliveryRow.match_id == match.id, DeliveryRow.place == where.place)
                .values(shown=match.version, repost_version=None, firm_version=None,
                        media_version=None,
                        pending=False).execution_options(synchronize_session=False))
        return not shown

    @off_loop
    def prune_deliveries(self, *, older_than: timedelta = timedelta(days=1)) -> int:
        """Drop delivered rows of ended matches (nothing will change there any more)."""
        k = self.kernel
        cutoff = k.wall_now() - older_than
        ended = [s.value for s in ENDED_STATUSES]
        with k.db.write_lock(), k.sessions.begin() as session:
            done = select(MatchRow.id).where(MatchRow.status.in_(ended))
            result = session.execute(delete(DeliveryRow).where(
                DeliveryRow.pending.is_(False), DeliveryRow.updated_at < cutoff,
                DeliveryRow.match_id.in_(done)))
            return int(result.rowcount)  # type: ignore[attr-defined]


def move_chat_deliveries(k: Kernel, session: Session, old_chat_id: int,
                         new_chat_id: int) -> None:
    """A group became a supergroup: its boards stay behind in the old chat (no longer live:
    nothing can be edited or deleted there), and every active match there gets a new board
    in the new chat; a notice still to send there goes to the new chat
    (:func:`storage.delivery.notices.move_notices`)."""
    move_notices(session, old_chat_id, new_chat_id)
    session.execute(delete(DeliveryRow).where(DeliveryRow.chat_id == old_chat_id)
                    .execution_options(synchronize_session=False))
    session.execute(update(BoardMessageRow).where(BoardMessageRow.chat_id == old_chat_id)
                    .values(live=False).execution_options(synchronize_session=False))
    now = k.wall_now()
    matches = session.scalars(select(MatchRow).where(
        MatchRow.chat_id == new_chat_id, MatchRow.status == MatchStatus.ACTIVE.value))
    for match in matches:
        found = [Where(w.place, w.chat_key, w.chat_id, w.inline_message_id, w.for_seat,
                       repost=True, media=True) for w in match_places(k, session, match)
             if not w.only_live]
        queue_places(k, session, match.id, match.version, found, now)
