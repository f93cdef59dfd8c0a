"""Players who type their plays: one update a turn, so the matches of the multi-instance
tests (tests/bot/test_instances.py, bench/instances.py) can be played to their end.

Each turn the player to move reads the position off the board (here: the match as the database
has it, which the board shows) and types the racing play in notation in their private chat;
every few turns they tap through the keyboard instead, so the keyboards are exercised too."""

from __future__ import annotations

import asyncio
import time

from rules.match import Match
from rules.notation import format_play
from standin import Chat, Message, User
from standin.cluster import (
    HANG,
    LOST_AFTER,
    MATCH_OVER,
    TRIES,
    Cluster,
    Seen,
    Tally,
    diagnose,
    match_id_of,
    pick,
    resign,
    take_turn,
    took_effect,
    until,
)
from standin.players import board_version, live_board


def racing_play(match: Match) -> str:
    """The play that brings the mover's checkers home fastest (fewest pips left), hitting
    nothing when it can (two racers passing each other: a one-point match in about 45 turns),
    in notation as a player types it."""
    plays = match.legal_plays()
    best = min(plays, key=lambda p: p.position.pips())
    assert match.dice is not None
    return format_play(match.position, match.dice, best.moves)


def over(chat: Chat) -> bool:
    board = live_board(chat)
    return board is not None and MATCH_OVER in (board.caption or "")


async def type_once(mover: User, chat: Chat, board: Message, play: str, tally: Tally) -> str:
    """Type ``play`` in the private chat for the turn on ``board`` (in ``chat``) and watch:
    ``"done"`` (the board moved on), ``"alert"`` (the bot answered with a refusal) or
    ``"lost"`` (nothing in ``LOST_AFTER`` s)."""
    began = time.monotonic()
    sent = mover.send(mover.private, play)
    tally.typed += 1
    version = board_version(board)

    def refusal() -> Message | None:
        return next((m for m in mover.private.bot_messages() if m.message_id > sent.message_id
                     and m.photo_bytes is None and m.text), None)

    await until(lambda: took_effect(chat, board, True, version) or refusal(), LOST_AFTER, 0.03)
    if refusal() is not None:  # or the match's end (its dice reveal), told before the board
        await until(lambda: took_effect(chat, board, True, version) or over(chat),
                    timeout=LOST_AFTER)
    if took_effect(chat, board, True, version) or over(chat):
        tally.latencies.append(time.monotonic() - began)
        return "done"
    said = refusal()
    if said is not None:
        tally.alerts[said.text or ""] = tally.alerts.get(said.text or "", 0) + 1
        return "alert"
    tally.retapped += 1
    return "lost"


async def to_move(cluster: Cluster, chat: Chat, players: list[User], tally: Tally,
                  timeout: float = HANG) -> tuple[User, Chat, Message, Seen] | None:
    """Wait until a player is to move and sees the turn's board (their private board, or the
    chat's): who, where, the board and the match; ``None`` once the players see it is over.
    ``timeout``: the hang guard."""
    found: tuple[User, Chat, Message, Seen] | None = None
    asked: dict[int, Seen] = {}

    def ready() -> bool:
        nonlocal found
        if over(chat):
            return True
        boards = [(where, board) for where in (chat, *(u.private for u in players))
                  if (board := live_board(where)) is not None and pick(board)]
        if not boards:
            return False
        where, board = max(boards, key=lambda x: board_version(x[1]))
        tally.match_id = tally.match_id or match_id_of(board)
        version = board_version(board)
        if version not in asked:  # the database once per board seen, not at every look
            asked[version] = cluster.match(tally.match_id)
        seen = asked[version]
        if seen.version != version or seen.to_act is None:
            return False
        mover = next((u for u in players if u.id == seen.players[seen.to_act]), None)
        if mover is None or where.id not in (chat.id, mover.private.id):
            return False
        found = (mover, where, board, seen)
        return True

    assert await until(ready, timeout=timeout, step=0.05), (
        f"no board to play on in {chat!r} in {timeout} s: {diagnose(chat)}")
    return None if over(chat) else found


async def play_out(cluster: Cluster, chat: Chat, players: list[User], tally: Tally, *,
                   tap_every: int = 5, turns: int = 10_000, timeout: float = HANG,
                   pace: float = 0.0) -> None:
    """Play the match in ``chat`` to its end (or ``turns`` turns, then the player to move
    resigns it): each turn the racing play typed in the private chat, every ``tap_every``-th
    turn of a player tapped through the keyboard instead. ``pace``: seconds a player looks
    before each tap or play (0: as fast as the boards come). A play refused or lost is made
    again, within :data:`~standin.cluster.TRIES` tries a turn; ``timeout`` is the hang
    guard of each wait for a board."""
    played = 0
    while played < turns:
        for _ in range(TRIES):
            found = await to_move(cluster, chat, players, tally, timeout)
            if found is None:
                tally.ended = True
                return
            mover, where, board, seen = found
            if (played + 1) % tap_every == 0 or where.id != mover.private.id:
                if await take_turn(where, [mover], tally, timeout=timeout, pace=pace):
                    break
                continue
            await asyncio.sleep(pace)
            outcome = await type_once(mover, where, board, racing_play(seen.state), tally)
            if outcome == "lost" and cluster.match(tally.match_id).version > seen.version:
                outcome = "done"  # played, its board late (the instance that played it died)
            if outcome == "done":
                tally.finals += 1
                break
            await asyncio.sleep(0.2)  # refused or lost: look at the match again
        else:
            raise AssertionError(f"a turn in {chat!r} was not played in {TRIES} tries: "
                                 f"{tally.alerts}, {diagnose(chat)}")
        played += 1
    found = await to_move(cluster, chat, players, tally, timeout)
    if found is not None:
        await resign(chat.standin, chat, found[0])
    tally.ended = True
