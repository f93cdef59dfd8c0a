"""Notices: the messages about a match that are not its boards, as outbox rows.

The end of a match reveals its dice seed (in the group, or to each player who started the
bot), tells each player who started the bot that a match was lost on time, and sends each
person the review of a match GNU Backgammon analyses. Each is a place of the match in the
outbox (``note:<chat id>:<what>``, a row of ``deliveries`` like a board's), written in the
transaction of the action that ends the match, so it has what a board has: claimed and fenced
between instances, retried with a back-off or Telegram's ``retry_after``, counted against the
chat's budget (the worker's per-chat task sends it), pruned once delivered with the match's
other rows. ``for_seat`` is the reader (none: the group), ``notes`` holds ``{"k": "notice",
"kind": ...}``; the text is rendered when it is sent, in the reader's language then, from the
match as the database has it (:mod:`bot.delivery.notices`).

A send of unknown outcome (a lost response, a crash) is remembered before it starts with its
exact text (:meth:`storage.delivery.work.DeliveryCases.mark_sending`); once a later send tells
the chat's newest message id, the ids in between are probed and a copy found is deleted, as
for boards. :meth:`storage.delivery.notice_work.NoticeCases.record_notice_sent` marks the
notice delivered (``shown``) and keeps its message id: a crash after it never sends it again,
and the probe skips it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

from rules.game import find_kind
from storage.delivery.outbox import Claimant, Where, outbox_row, upsert
from storage.models import BoardMessageRow, DeliveryRow, MatchRow, Player
from storage.results import ENDED_STATUSES, ChallengeView, MatchStatus, PlayerView

if TYPE_CHECKING:
    from storage.usecases.kernel import Kernel

NOTICE = "note:"
"""The prefix of a notice's place."""
REVEAL, TIMEOUT, REVIEW, EXPIRED = "reveal", "timeout", "review", "expired"
MOVED, STRANDED, CANCELLED = "moved", "stranded", "cancelled"
"""A group match moved to private chats (the bot removed from the group, or its board refused
there): each player who started the bot is told (``moved``); when one never did, the group
is asked first to start it (``stranded``), and if the group cannot be told either the match
is cancelled and the others are told why (``cancelled``)."""
SEED = "seed"
"""The whole seed reveal (every roll, the command to check them) sent to one reader's private
chat when they ask for it: the group's reveal is short, with a button that asks for it
(``seed<id>`` deep link), and a quiet group's is sent so to each player who started the bot.
``for_seat`` is the reader's seat, none for a spectator."""
CLOSED = "closed"
"""A match whose stored state cannot be read was closed by one player (``by``): the other is
told. Its match cannot be drawn, so this notice is rendered from the players alone."""
RETIRE = "retire"
"""An old board of a match taken down (deleted; edited to a stub when older than 48 h) because
the match cannot show it any more: its group's boards when it moves to private chats, its
private boards when it is cancelled. One row per message (``note:<chat>:retire:<message>``),
written in the transaction that makes the board stale; done twice it changes nothing (a
deleted message is "not found", a stub "not modified"), so a lost answer is tried again, and
that try is its probe."""
REVIEWED = (MatchStatus.FINISHED.value, MatchStatus.ABANDONED.value)
"""The matches that have a review: finished, or lost on time."""


def is_notice(place: str) -> bool:
    return place.startswith(NOTICE)


def notice_kind(notes: Any) -> str | None:
    """The kind of a notice row's ``notes`` (none: not a notice)."""
    if notes and isinstance(notes[0], dict) and notes[0].get("k") == "notice":
        return str(notes[0]["kind"])
    return None


def _where(chat_id: int, kind: str, seat: int | None) -> Where:
    return Where(f"{NOTICE}{chat_id}:{kind}", str(chat_id), chat_id, None, seat,
                 repost=False, media=False)


def match_end_notices(before: str, values: Mapping[str, Any],
                      players: Mapping[int, PlayerView]) -> list[Where]:
    """The notices of an action that ends a match (``before``: its status before;
    ``values``: the match row as the write leaves it): the seed revealed in the group of a
    group match, else to each player who started the bot; a timeout told privately to each
    player who started the bot; GNU Backgammon's review to each of them."""
    after = values["status"]
    if MatchStatus(after) not in ENDED_STATUSES or MatchStatus(before) in ENDED_STATUSES:
        return []
    reachable = [(seat, pid) for seat, pid in enumerate((values["player0_id"],
                                                         values["player1_id"]))
                 if pid is not None and (p := players.get(pid)) is not None and p.can_message]
    found: list[Where] = []
    chat_id = values["chat_id"]
    if values.get("in_group") and chat_id is not None:
        found.append(_where(chat_id, REVEAL, None))
    else:
        found += [_where(pid, REVEAL, seat) for seat, pid in reachable]
    if after == MatchStatus.ABANDONED.value and values.get("end_reason") == "timeout":
        found += [_where(pid, TIMEOUT, seat) for seat, pid in reachable]
    if after in REVIEWED and find_kind(values["game_type"]).reviews:
        found += [_where(pid, REVIEW, seat) for seat, pid in reachable]
    return found


def notice_step(insert: Any, dialect: str, before: str, values: Mapping[str, Any],
                players: Mapping[int, PlayerView], now: datetime,
                claimant: Claimant | None = None) -> tuple[Executable, list[dict[str, Any]]] | None:
    """The outbox rows of a match's end notices (see :func:`match_end_notices`), for the
    kernel's plan; written claimed by the committing process's worker, like the boards."""
    found = match_end_notices(before, values, players)
    if not found:
        return None
    rows = [outbox_row(w, values["id"], values["version"], now,
                       [{"k": "notice", "kind": w.place.rsplit(":", 1)[1]}], claimant)
            for w in found]
    return upsert(insert, dialect), rows


def expiry_step(insert: Any, dialect: str, match_id: int, version: int, *,
                chat_id: int | None, message_id: int | None, inline_message_id: str | None,
                now: datetime, claimant: Claimant | None = None,
                ) -> tuple[Executable, list[dict[str, Any]]] | None:
    """The outbox row of an expired challenge: its card (a message in ``chat_id``, or an
    inline message) is edited to say so, with a board's retries and claims; an edit done
    twice is "not modified", so a lost answer needs no probe."""
    if inline_message_id:
        key = f"inline:{inline_message_id}"
        where = Where(f"{NOTICE}{key}:{EXPIRED}", key, None, inline_message_id, None,
                      repost=False, media=False)
    elif chat_id is not None and message_id is not None:
        where = Where(f"{NOTICE}{chat_id}:{EXPIRED}:{message_id}", str(chat_id), chat_id, None,
                      None, repost=False, media=False)
    else:
        return None
    notes = [{"k": "notice", "kind": EXPIRED, "card": message_id}]
    return upsert(insert, dialect), [outbox_row(where, match_id, version, now, notes, claimant)]


def expiry_notice(kernel: Kernel, session: Session, cview: ChallengeView) -> tuple[str, ...]:
    """The outbox row that edits an expired challenge's card to say so; nothing while the
    card is not known yet (``set_challenge_card`` writes it then). Returns the chat to kick."""
    k = kernel
    version = session.scalar(select(MatchRow.version).where(MatchRow.id == cview.match_id))
    claimant = k.own_claim.at(k.wall_now())
    step = expiry_step(k.insert, k.db.engine.dialect.name, cview.match_id, version or 0,
                       chat_id=cview.card_chat_id, message_id=cview.card_message_id,
                       inline_message_id=cview.card_inline_message_id,
                       now=k.wall_now(), claimant=claimant)
    if step is None:
        return ()
    session.connection().execute(*step)
    return (f"inline:{cview.card_inline_message_id}" if cview.card_inline_message_id
            else str(cview.card_chat_id),)


def notice_rows(session: Session, kernel: Kernel, match_id: int,
                notices: list[tuple[int, str, int | None, dict[str, Any]]]) -> list[str]:
    """Write notices of one match, each ``(chat id, kind, reader's seat or none for a group,
    what else it says)``, once: a notice already written stays as it is (a second removal
    notice, another instance). Claimed by this process's worker, like an action's boards.
    Returns the chats to kick."""
    if not notices:
        return []
    k = kernel
    now = k.wall_now()
    version = session.scalar(select(MatchRow.version).where(MatchRow.id == match_id)) or 0
    claimant = k.own_claim.at(now)
    rows = [outbox_row(_where(chat_id, kind, seat), match_id, version, now,
                       [{"k": "notice", "kind": kind, **args}], claimant)
            for chat_id, kind, seat, args in notices]
    stmt = k.insert(DeliveryRow).on_conflict_do_nothing(
        index_elements=[DeliveryRow.match_id, DeliveryRow.place])
    session.connection().execute(stmt, rows)
    return sorted({str(chat_id) for chat_id, _, _, _ in notices})


def retire_rows(session: Session, kernel: Kernel, match_id: int,
                boards: Sequence[BoardMessageRow]) -> list[str]:
    """Take down these boards of one match (see :data:`RETIRE`): they are no longer live, and
    each message is a notice row, claimed by this process's worker like an action's boards.
    An inline card has nothing to take down: it is only forgotten. Returns the chats to kick."""
    k = kernel
    now = k.wall_now()
    version = session.scalar(select(MatchRow.version).where(MatchRow.id == match_id)) or 0
    claimant = k.own_claim.at(now)
    rows = []
    session.execute(update(BoardMessageRow)
                    .where(BoardMessageRow.id.in_([b.id for b in boards]))
                    .values(live=False).execution_options(synchronize_session=False))
    for board in boards:
        if board.chat_id is None or board.message_id is None:
            continue
        where = Where(f"{NOTICE}{board.chat_id}:{RETIRE}:{board.message_id}", str(board.chat_id),
                      board.chat_id, None, board.for_seat, repost=False, media=False)
        rows.append(outbox_row(where, match_id, version, now,
                               [{"k": "notice", "kind": RETIRE, "message": board.message_id}],
                               claimant))
    if rows:
        stmt = k.insert(DeliveryRow).on_conflict_do_nothing(
            index_elements=[DeliveryRow.match_id, DeliveryRow.place])
        session.connection().execute(stmt, rows)
    return sorted({str(r["chat_id"]) for r in rows})


def reach_of(session: Session, match: MatchRow) -> tuple[list[tuple[int, int]], list[int]]:
    """A match's players the bot can write to privately, ``(seat, player id)``, and the seats
    of those it cannot (who never started the bot, or blocked it)."""
    reached: list[tuple[int, int]] = []
    unreached: list[int] = []
    for seat, pid in enumerate((match.player0_id, match.player1_id)):
        if pid is None:
            continue
        player = session.get(Player, pid)
        if player is not None and player.can_message:
            reached.append((seat, pid))
        else:
            unreached.append(seat)
    return reached, unreached


def move_notices(session: Session, old_chat_id: int, new_chat_id: int) -> None:
    """A group became a supergroup: its notices still to send go to the new chat (sent ones
    stay behind, with the old chat's messages)."""
    rows = session.scalars(select(DeliveryRow).where(
        DeliveryRow.chat_id == old_chat_id, DeliveryRow.place.like(f"{NOTICE}%"),
        # a board to take down stays with its message, in the old chat
        DeliveryRow.place.not_like(f"{NOTICE}%:{RETIRE}:%"),
        DeliveryRow.pending.is_(True), DeliveryRow.shown < DeliveryRow.version))
    for row in rows:
        row.place = row.place.replace(f"{NOTICE}{old_chat_id}:", f"{NOTICE}{new_chat_id}:", 1)
        row.chat_id, row.chat_key, row.probes = new_chat_id, str(new_chat_id), None
    session.flush()


def sent_message_id(notes: Any) -> int | None:
    """The message id a notice was delivered as (see
    :meth:`storage.delivery.notice_work.NoticeCases.record_notice_sent`)."""
    if notes and isinstance(notes[0], dict) and notes[0].get("message_id") is not None:
        return int(notes[0]["message_id"])
    return None
