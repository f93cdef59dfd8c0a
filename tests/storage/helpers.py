"""Helpers for the storage tests: players, challenges, and playing turns through the use cases."""

from __future__ import annotations

import random

from sqlalchemy import inspect, text

from storage.db import make_engine
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

