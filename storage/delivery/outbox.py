"""The outbox: which places show a match, and the rows an accepted action writes for them.

A place is where a board of the match lives: a group's shared board (``chat:<group>:g``), one
player's private board (``chat:<player>:<seat>``) or an inline card (``inline:<id>``). The rule
that picks them from the match row lives here, Telegram-free, so the kernel writes what each
place should show in the same transaction as the action (see :mod:`storage.delivery.work`
for the use cases the delivery worker calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, func, or_
from sqlalchemy.sql import Executable

from rules.match import (
    Event,
    GameDrawn,
    GameEnded,
    GameStarted,
    ResignationDeclined,
    TurnPlayed,
)
from storage.models import Base
from storage.results import ENDED_STATUSES, MatchStatus

DELIVERIES = Base.metadata.tables["deliveries"]


@dataclass(frozen=True)
class Where:
    """One place showing a match, and what an action asks of it."""

    place: str
    chat_key: str
    chat_id: int | None
    inline_message_id: str | None
    for_seat: int | None
    repost: bool
    """A new message is wanted (someone new must act: a new message notifies, an edit not)."""
    media: bool
    """The image changes (a turn ended, or the mover's moves so far changed), not only the
    caption and the keyboard."""
    only_live: bool = False
    """Edit the place's board if one is live; never post one (a group match's private board
    of a player whose turn it is not)."""
    edit_if_busy: bool = False
    """The new message asked for is a turn's new board in a group whose both players play on
    its board: when the group's minute is already half spent, the delivery worker edits the
    live board instead (one call, where a new board and the old one's deletion are two)."""


def places(
    *,
    status: str,
    chat_id: int | None,
    inline_message_id: str | None,
    in_group: bool,
    players: tuple[int | None, int | None],
    to_act: int | None,
    turn_changed: bool,
    private: tuple[bool, bool] = (False, False),
    moved: bool = False,
) -> list[Where]:
    """The places an action on a match changes. A group match: see :func:`group_places`.
    Other matches show a board in each player's private chat, and an inline card when the
    challenge was inline. When the turn changed (someone new must act, or the match ended) the
    one who must act gets a new message; a step inside a turn edits the mover's board only,
    its picture too when the moves so far changed (``moved``: a move made or taken back), so
    that the board shows them."""
    if status == MatchStatus.CHALLENGE:
        return []
    over = MatchStatus(status) in ENDED_STATUSES
    if in_group and chat_id is not None:
        return group_places(chat_id, players, to_act, over, turn_changed, private, moved)
    found: list[Where] = []
    for seat, player in enumerate(players):
        if player is None or (not turn_changed and to_act != seat):
            continue
        must_act = to_act == seat or over
        found.append(Where(f"chat:{player}:{seat}", str(player), player, None, seat,
                           repost=turn_changed and must_act, media=turn_changed or moved))
    if inline_message_id and turn_changed:
        key = f"inline:{inline_message_id}"
        found.append(Where(key, key, None, inline_message_id, None, repost=False, media=True))
    return found


def plays_privately(private: tuple[bool, bool], players: tuple[int | None, int | None],
                    seat: int | None, over: bool) -> bool:
    """Whether ``seat`` plays its turn of a group match on a private board: a player who
    started the bot (``private``) does, while the match goes on."""
    return not over and seat is not None and players[seat] is not None and private[seat]


def group_places(
    chat_id: int,
    players: tuple[int | None, int | None],
    to_act: int | None,
    over: bool,
    turn_changed: bool,
    private: tuple[bool, bool],
    moved: bool = False,
) -> list[Where]:
    """A group match shows one shared board in its group, and the group has a budget of
    about 20 calls a minute (sends, edits and deletions alike), so its board changes once per
    turn, not once per tap.

    A player who started the bot (``private``) plays their turns on a private board: posted
    anew when their turn comes (a new message notifies them: it is their "your turn"), edited
    by their taps, and left without buttons when the turn passes (edited if live, never
    posted). The group's board is then edited in place once per turn. A player who never
    started the bot plays on the group's board itself, and each of their taps edits it. When
    their turn comes after a turn played on a private board, the group's board (edited for
    that turn anyway) is edited in place: one call, where a new board and the old one's
    deletion were two. When both play on the group's board, each turn is a new board posted
    for the next mover, the old one retired (the delivery worker posts it silently: no
    notification to every member each turn), or, when the group's minute is already half
    spent (a busy group: a crowd's commands, fast play), the group's board edited in place:
    the next mover is not kept waiting behind the second call (``edit_if_busy``). The match's
    end is a new message in the group.
    A move made or taken back (``moved``) redraws the picture of the board the mover plays
    on, and only that one: the group's budget pays for no picture of another's private turn."""
    mover_private = plays_privately(private, players, to_act, over)
    after_private = to_act is not None and plays_privately(private, players, 1 - to_act, over)
    both_shared = not (mover_private or after_private)
    found: list[Where] = []
    if turn_changed or not mover_private:
        found.append(Where(f"chat:{chat_id}:g", str(chat_id), chat_id, None, None,
                           repost=turn_changed and (over or both_shared),
                           media=turn_changed or moved,
                           edit_if_busy=turn_changed and both_shared and not over))
    for seat, player in enumerate(players):
        if player is None or not private[seat]:
            continue
        acting = not over and to_act == seat
        if not turn_changed and not acting:
            continue
        found.append(Where(f"chat:{player}:{seat}", str(player), player, None, seat,
                           repost=turn_changed and acting, media=turn_changed or moved,
                           only_live=not acting))
    return found


def notes_of(events: Sequence[Event]) -> list[dict[str, Any]]:
    """What the caption says about an action's events, as plain values (stored with the
    outbox row, so a board posted later, or by another instance, says the same)."""
    notes: list[dict[str, Any]] = []
    for e in events:
        if isinstance(e, TurnPlayed):
            notes.append({"k": "turn", "player": e.player, "dice": str(e.dice), "text": e.text,
                          "forced": e.forced, "passed": e.passed})
        elif isinstance(e, GameEnded):
            notes.append({"k": "end", "winner": e.winner, "kind": e.kind.value,
                          "points": e.points, "resigned": e.resigned})
        elif isinstance(e, GameStarted):
            notes.append({"k": "start", "game": e.game})
        elif isinstance(e, GameDrawn):
            notes.append({"k": "draw", "game": e.game})
        elif isinstance(e, ResignationDeclined):
            notes.append({"k": "declined", "player": e.player})
    return notes


Claimant = tuple[str, datetime]
"""A delivery worker of the process that commits an action, and until when it holds the
places the action writes: it delivers them at once, without claiming them again."""


@dataclass(frozen=True)
class OwnClaim:
    """This process's delivery worker and its lease: the outbox rows of an action committed
    here are written already claimed by it (see
    :meth:`storage.delivery.claims.ClaimCases.deliver_own_actions`). The kernel knows no more
    of delivery's claims than this."""

    worker: str | None = None
    lease: float = 0.0

    def at(self, now: datetime) -> Claimant | None:
        """Who holds an action's rows written at ``now``, and until when (``None``: nobody;
        the worker claims them when it finds them due)."""
        if self.worker is None:
            return None
        return self.worker, now + timedelta(seconds=self.lease)


def outbox_row(where: Where, match_id: int, version: int, now: datetime,
               notes: list[dict[str, Any]] | None,
               claimant: Claimant | None = None) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "place": where.place,
        "chat_key": where.chat_key,
        "chat_id": where.chat_id,
        "inline_message_id": where.inline_message_id,
        "for_seat": where.for_seat,
        "version": version,
        "shown": 0,
        "repost_version": version if where.repost else None,
        "firm_version": version if where.repost and not where.edit_if_busy else None,
        "media_version": version if where.media else None,
        "notify_version": None,
        "notes": notes,
        "notes_version": version if notes is not None else None,
        "probes": None,
        "pending": True,
        "due_at": now,
        "attempts": 0,
        "claimed_by": claimant[0] if claimant else None,
        "claimed_until": claimant[1] if claimant else None,
        "claim_token": 0,
        "last_error": None,
        "updated_at": now,
    }


_UPSERTS: dict[str, Executable] = {}


def upsert(insert: Any, dialect: str) -> Executable:
    """Insert a place's row, or coalesce into the pending one: the newest version wins, and a
    request of an older action (a new message, a new image, a notice) is kept until the worker
    has delivered a version at least as new."""
    stmt = _UPSERTS.get(dialect)
    if stmt is None:
        ins = insert(DELIVERIES)
        old, new = DELIVERIES.c, ins.excluded
        free = or_(old.claimed_until.is_(None), old.claimed_until < new.updated_at,
                   old.claimed_by == new.claimed_by)
        stmt = ins.on_conflict_do_update(
            index_elements=[old.match_id, old.place],
            set_={
                "version": new.version,
                "repost_version": func.coalesce(new.repost_version, old.repost_version),
                "firm_version": func.coalesce(new.firm_version, old.firm_version),
                "media_version": func.coalesce(new.media_version, old.media_version),
                "notify_version": func.coalesce(new.notify_version, old.notify_version),
                "notes": case((new.notes_version.is_not(None), new.notes), else_=old.notes),
                "notes_version": func.coalesce(new.notes_version, old.notes_version),
                "pending": True,
                # the committing process's worker takes the place unless another holds it
                "claimed_by": case((free, new.claimed_by), else_=old.claimed_by),
                "claimed_until": case((free, new.claimed_until), else_=old.claimed_until),
                # a claim taken from another worker (whose lease ran out) or from nobody is a
                # new claim: the token fences off the one before; the same worker keeps its own
                "claim_token": case((and_(free, new.claimed_by.is_not(None), or_(
                    old.claimed_by.is_(None), old.claimed_by != new.claimed_by)),
                    old.claim_token + 1), else_=old.claim_token),
                "due_at": new.due_at,
                "attempts": 0,
                "last_error": None,
                "updated_at": new.updated_at,
            },
        )
        _UPSERTS[dialect] = stmt
    return stmt


def outbox_step(
    insert: Any, dialect: str, values: dict[str, Any], events: Sequence[Event], now: datetime,
    claimant: Claimant | None = None, *, moved: bool = False,
) -> tuple[Executable, list[dict[str, Any]]] | None:
    """The outbox rows of one accepted action (``values``: the match row after the write,
    with ``private``: which seats' players started the bot; ``moved``: the mover's moves so
    far changed)."""
    turn_changed = bool(events)
    found = places(
        status=values["status"],
        chat_id=values["chat_id"],
        inline_message_id=values["inline_message_id"],
        in_group=values["in_group"],
        players=(values["player0_id"], values["player1_id"]),
        to_act=values["to_act"],
        turn_changed=turn_changed,
        private=values["private"],
        moved=moved,
    )
    if not found:
        return None
    notes = notes_of(events) if turn_changed else None
    rows = [outbox_row(w, values["id"], values["version"], now, notes, claimant)
            for w in found]
    return upsert(insert, dialect), rows
