"""Helpers for the storage tests: players, challenges, and playing turns through the use cases."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from sqlalchemy import inspect, text

from storage.db import Database, make_engine
from storage.results import COMPUTER, ActionResult, Actor, BoardMessageView, MatchView, Outcome
from storage.usecases import UseCases

ALICE, BOB, CAROL = 1001, 1002, 1003


async def players(uc: UseCases) -> None:
    await uc.upsert_player(ALICE, "Alice", username="alice", language="el")
    await uc.upsert_player(BOB, "Bob", username="bob", language="en")
    await uc.upsert_player(CAROL, "Carol", username="carol")


async def new_match(
    uc: UseCases, length: int = 1, mix: str = "cbq-4242", **kw: object
) -> ActionResult:
    """Alice challenges, Bob accepts; returns the accept result."""
    await players(uc)
    created = await uc.create_challenge(ALICE, length=length, chat_id=-100, group=True, **kw)  # type: ignore[arg-type]
    assert created.ok and created.challenge is not None
    accepted = await uc.accept_challenge(created.challenge.id, BOB, mix=mix)
    assert accepted.ok, accepted
    return accepted


async def posted(uc: UseCases, chat_key: str, message_id: int,
                 match_id: int | None = None) -> list[BoardMessageView]:
    """The delivery worker's steps for the place's due work (of ``match_id``, when the chat
    shows several): a board posted there as ``message_id``, the older ones it supersedes
    retired (deleted); returns those."""
    works = await uc.delivery.claim_deliveries("test", chat_key=chat_key)
    [work] = [w for w in works if match_id is None or w.match_id == match_id]
    token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption="board",
                                           markup=None)
    assert token is not None
    recorded = await uc.delivery.record_sent(work.id, token, claim=work.claim,
                                             message_id=message_id, version=work.version)
    assert recorded is not None
    for old in recorded[0]:
        await uc.forget_board_message(old.id)
    await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version)
    await uc.delivery.release_claims("test")
    return recorded[0]


def actor_of(view: MatchView, seat: int) -> Actor:
    player = view.seats[seat].player
    if player is None:
        return COMPUTER
    return player.id


async def play_random_turn(uc: UseCases, view: MatchView, rng: random.Random) -> ActionResult:
    """The player to act plays a random legal play (or accepts a pending resignation)."""
    seat = view.to_act
    assert seat is not None
    plays = view.state.legal_plays()
    result = await uc.play(view.id, actor_of(view, seat), view.version, rng.choice(plays))
    assert result.outcome == Outcome.OK, result
    return result


async def play_to_end(
    uc: UseCases, view: MatchView, seed: int = 7, max_turns: int = 5000
) -> MatchView:
    rng = random.Random(seed)
    for _ in range(max_turns):
        if view.to_act is None:
            return view
        result = await play_random_turn(uc, view, rng)
        assert result.match is not None
        view = result.match
    raise AssertionError("the match did not end")


def sql_rows(url: str, sql: str, **params: object) -> list[tuple[object, ...]]:
    """Run one statement on the database at ``url`` in its own transaction (the migration
    tests write rows an older revision knows, then read them back); the rows, if any."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(sql), params)
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


def table_columns(url: str, table: str) -> set[str]:
    """The column names ``table`` has at ``url`` now."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {c["name"] for c in inspect(conn).get_columns(table)}
    finally:
        engine.dispose()


def barrier_checkpoint(parties: int) -> Callable[[str], Awaitable[None]]:
    barrier = asyncio.Barrier(parties)

    async def checkpoint(name: str) -> None:
        if name == "read":
            await asyncio.wait_for(barrier.wait(), timeout=20)

    return checkpoint


def ratings(db: Database, game: str = "portes") -> dict[tuple[int, int], tuple[float, int, int]]:
    """The ratings of one game: (player, scope) -> (rating, experience, matches)."""
    with db.engine.connect() as conn:
        rows = conn.execute(text("SELECT player_id, scope, rating, experience, matches "
                                 "FROM ratings WHERE game = :g"), {"g": game}).all()
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}


async def resigned(uc: UseCases, author: int, taker: int, chat: int, length: int,
                   loser: int, game: str = "portes") -> int:
    created = await uc.create_challenge(author, length=length, chat_id=chat, group=chat < 0,
                                        game_type=game)
    assert created.ok and created.challenge is not None
    accepted = await uc.accept_challenge(created.challenge.id, taker, mix="m")
    assert accepted.ok and accepted.match is not None
    ended = await uc.resign_match(accepted.match.id, loser)
    assert ended.ok
    return accepted.match.id


NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC).replace(tzinfo=None)


def fill_0007(url: str) -> None:
    """Two players, a finished 3-point match with a gammon, and its ratings."""
    for pid, name in ((7, "Alice"), (8, "Bob")):
        sql_rows(url, "INSERT INTO players (id, display_name, username, can_message, created_at, "
            "updated_at) VALUES (:p, :n, :u, true, :t, :t)", p=pid, n=name, u=name.lower(), t=NOW)
    sql_rows(url, "INSERT INTO matches (id, status, version, player0_id, player1_id, length, "
        "no_triple, score0, score1, winner, end_reason, chat_id, state, state_format, seed, "
        "commitment, dice_drawn, created_at, updated_at, finished_at) VALUES (1, 'finished', 9, "
        "7, 8, 3, false, 3, 1, 0, 'score', -100, '{}', 1, :seed, :c, 12, :t, :t, :t)",
        seed=bytes(32), c="0" * 64, t=NOW)
    for number, winner, kind, points in ((1, 1, "single", 1), (2, 0, "gammon", 2),
                                         (3, 0, "single", 1)):
        sql_rows(url, "INSERT INTO games (match_id, number, winner, kind, points, resigned, "
            "started_at, ended_at) VALUES (1, :n, :w, :k, :pts, false, :t, :t)",
            n=number, w=winner, k=kind, pts=points, t=NOW)
    for pid, scope, rating in ((7, 0, 1517.3), (8, 0, 1482.7), (7, -100, 1517.3),
                               (8, -100, 1482.7)):
        sql_rows(url, "INSERT INTO ratings (player_id, scope, rating, experience, matches, "
            "updated_at) VALUES (:p, :s, :r, 3, 1, :t)", p=pid, s=scope, r=rating, t=NOW)


def inspect_tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
