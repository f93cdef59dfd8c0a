"""Leaderboards, statistics, head to head, hiding and forgetting, on real databases."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from storage.cli import main as storage_cli
from storage.db import Database
from storage.results import COMPUTER
from storage.social import Forgotten, Ranked, named
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, CAROL, players, ratings, resigned


async def gammon_then_resign(uc: UseCases, chat: int) -> int:
    """A 3-point match between Alice and Bob: the player to move resigns the first game as a
    gammon (2 points to the other), then Alice resigns the match. Returns the match id."""
    created = await uc.create_challenge(ALICE, length=3, chat_id=chat, group=chat < 0)
    assert created.challenge is not None
    accepted = await uc.accept_challenge(created.challenge.id, BOB, mix="g")
    mv = accepted.match
    assert mv is not None and mv.to_act is not None
    mover = (ALICE, BOB)[mv.to_act]
    offered = await uc.offer_resignation(mv.id, mover, mv.version, 2)
    assert offered.ok and offered.match is not None
    answered = await uc.answer_resignation(mv.id, BOB if mover == ALICE else ALICE,
                                           offered.match.version, accept=True)
    assert answered.ok
    assert (await uc.resign_match(mv.id, ALICE)).ok
    return mv.id


async def test_stats_count_matches_points_gammons_streaks_and_ratings(
    uc: UseCases, db: Database
) -> None:
    await players(uc)
    match_id = await gammon_then_resign(uc, -100)  # Bob wins; someone won a gammon
    with db.engine.connect() as conn:
        gammon_winner = conn.execute(text(
            "SELECT winner FROM games WHERE match_id = :m AND kind = 'gammon'"),
            {"m": match_id}).scalar()
    assert gammon_winner in (0, 1)
    alice_gammon = gammon_winner == 0  # Alice is seat 0
    await resigned(uc, ALICE, BOB, -100, 1, BOB)  # Alice wins, 1 point
    await resigned(uc, ALICE, BOB, -200, 1, BOB)  # and again, elsewhere
    created = await uc.create_challenge(ALICE, length=1, computer_level=1)
    assert created.challenge is not None
    computer = await uc.accept_challenge(created.challenge.id, ALICE, mix="c")
    assert computer.match is not None
    assert (await uc.resign_match(computer.match.id, ALICE)).ok

    stats = await uc.player_stats(ALICE, -100)
    people = stats.people
    assert (stats.name, people.played, people.won, people.lost) == ("Alice", 3, 2, 1)
    # the match points: 2 from the gammon game for one of them, then Bob reaches the 3-point
    # match's length when Alice resigns it; each resigned 1-pointer gives its winner 1
    assert (people.points_for, people.points_against) == ((4, 3) if alice_gammon else (2, 3))
    assert (people.gammons_won, people.gammons_lost) == ((1, 0) if alice_gammon else (0, 1))
    assert (people.backgammons_won, people.backgammons_lost) == (0, 0)
    assert people.streak == 2
    assert (stats.computer.played, stats.computer.won, stats.computer.streak) == (1, 0, -1)
    assert stats.rating is not None and stats.rating.matches == 3
    assert stats.group_rating is not None and stats.group_rating.matches == 2
    got = ratings(db)
    assert stats.rating.rating == got[(ALICE, 0)][0]
    assert stats.group_rating.rating == got[(ALICE, -100)][0]
    assert len(stats.history) == 3 and stats.history[-1] == got[(ALICE, 0)][0]
    # the first, a 3-point match lost as a newcomer: 4 * K 5 * sqrt 3 * P 0.5 = 17.32051
    assert stats.history[0] == pytest.approx(1500 - 10 * math.sqrt(3))
    assert stats.last_changes[-1] == pytest.approx(-10 * math.sqrt(3))

    bob = await uc.player_stats(BOB)
    assert (bob.people.played, bob.people.won, bob.people.streak) == (3, 1, -2)
    assert bob.group_rating is None and bob.computer.played == 0

    h2h = await uc.head_to_head(BOB, ALICE)
    assert (h2h.first_name, h2h.second_name) == ("Bob", "Alice")
    assert (h2h.played, h2h.first_won, h2h.second_won) == (3, 1, 2)
    assert (h2h.first_points, h2h.second_points) == ((3, 4) if alice_gammon else (3, 2))
    assert (await uc.head_to_head(ALICE, CAROL)).played == 0
    assert await uc.find_username("@ALICE") == (ALICE, "Alice")
    assert await uc.find_username("bob") == (BOB, "Bob")
    assert await uc.find_username("@nobody") is None


async def test_the_leaderboard_lists_from_three_matches_and_leaves_hidden_players_out(
    uc: UseCases,
) -> None:
    await players(uc)
    for _ in range(3):
        await resigned(uc, ALICE, BOB, -100, 1, BOB)
    await resigned(uc, CAROL, ALICE, -200, 1, ALICE)
    board = await uc.leaderboard(-100, CAROL)
    assert [(r.rank, r.name, r.matches) for r in board.top] == [(1, "Alice", 3), (2, "Bob", 3)]
    assert board.top[0].rating > 1500 > board.top[1].rating and board.top[0].provisional
    assert board.mine is None and board.my_matches == 0 and not board.hidden
    assert (await uc.leaderboard(-200, CAROL)).top == ()  # one match each there
    assert [r.name for r in (await uc.leaderboard(0, ALICE)).top] == ["Alice", "Bob"]
    assert (await uc.leaderboard(0, CAROL)).my_matches == 1

    assert await uc.set_hidden(ALICE, True)
    board = await uc.leaderboard(-100, ALICE)
    assert [r.name for r in board.top] == ["Bob"] and board.hidden and board.mine is None
    assert [(r.rank, r.name) for r in (await uc.leaderboard(-100, BOB)).top] == [(1, "Bob")]
    assert await uc.set_hidden(ALICE, False)
    assert len((await uc.leaderboard(-100)).top) == 2
    assert not await uc.set_hidden(424242, True)  # never seen


async def test_the_callers_place_below_the_top_ten_and_shared_ranks(
    uc: UseCases, db: Database
) -> None:
    now = datetime(2026, 3, 25, tzinfo=UTC).replace(tzinfo=None)
    with db.engine.begin() as conn:
        for i in range(14):
            conn.execute(text(
                "INSERT INTO players (id, display_name, can_message, notices, hidden, "
                "created_at, updated_at) VALUES (:p, :n, false, true, false, :t, :t)"),
                {"p": 5000 + i, "n": f"P{i}", "t": now})
            # P0 and P1 share the best rating; P13 is last
            rating = 1700.0 if i < 2 else 1700.0 - 10 * i
            conn.execute(text(
                "INSERT INTO ratings (player_id, game, scope, rating, experience, matches, "
                "updated_at) VALUES (:p, 'portes', -7, :r, 30, :m, :t)"),
                {"p": 5000 + i, "r": rating, "m": 12 if i else 4, "t": now})
    board = await uc.leaderboard(-7, 5013)
    assert [r.rank for r in board.top] == [1, 1, 3, 4, 5, 6, 7, 8, 9, 10]
    assert board.top[0] == Ranked(1, 5000, "P0", 1700.0, 4) and board.top[0].provisional
    assert not board.top[1].provisional
    assert board.mine == Ranked(14, 5013, "P13", 1570.0, 12)
    assert (await uc.leaderboard(-7, 5003)).mine == board.top[3]


async def test_forgetting_a_player_keeps_their_matches_for_the_others(
    uc: UseCases, db: Database, db_url: str
) -> None:
    await players(uc)
    await resigned(uc, ALICE, BOB, -100, 1, BOB)
    await resigned(uc, BOB, ALICE, -100, 3, ALICE)
    await resigned(uc, ALICE, CAROL, -100, 1, CAROL)
    created = await uc.create_challenge(ALICE, length=1, chat_id=-100, group=True)
    assert created.challenge is not None
    assert await uc.forget_player(ALICE) == Forgotten.PLAYING  # her open challenge
    assert (await uc.cancel_challenge(created.challenge.id, ALICE)).ok
    before = ratings(db)
    bob_before = await uc.player_stats(BOB, -100)

    assert await uc.forget_player(ALICE) == Forgotten.DONE
    assert await uc.forget_player(ALICE) == Forgotten.UNKNOWN
    after = ratings(db)
    assert not any(p == ALICE for p, _ in after)
    assert after == {k: v for k, v in before.items() if k[0] != ALICE}
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rating_changes WHERE player_id = :p"),
                            {"p": ALICE}).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM players WHERE id = :p OR "
                                 "username = 'alice'"), {"p": ALICE}).scalar() == 0
        stand_in = conn.execute(text("SELECT id, display_name, hidden FROM players WHERE id < 0"
                                     )).all()
    assert len(stand_in) == 1 and stand_in[0][1] == "" and stand_in[0][2]
    # Bob's record is untouched; his head to head is with "a deleted player"
    assert await uc.player_stats(BOB, -100) == bob_before
    h2h = await uc.head_to_head(BOB, stand_in[0][0])
    assert (h2h.played, h2h.first_won, h2h.second_name) == (2, 1, "")
    assert [m.opponent.display_name for m in await uc.finished_matches(BOB)
            if m.opponent is not None] == ["", ""]
    # the rebuild rates her matches for the others, keeps nothing of her
    storage_cli(["ratings", "rebuild", "--database-url", db_url])
    assert ratings(db) == after
    # if she comes back, she starts afresh
    await uc.upsert_player(ALICE, "Alice", username="alice")
    fresh = await uc.player_stats(ALICE)
    assert fresh.people.played == 0 and fresh.rating is None and fresh.history == ()


async def test_a_player_with_an_active_match_is_not_forgotten(uc: UseCases) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1, chat_id=-100, group=True)
    assert created.challenge is not None
    accepted = await uc.accept_challenge(created.challenge.id, BOB, mix="x")
    assert accepted.ok
    assert await uc.forget_player(BOB) == Forgotten.PLAYING
    assert (await uc.get_player(BOB)) is not None
    assert COMPUTER  # the computer is never a player row: nothing to forget there


async def test_leaderboards_records_and_head_to_head_are_per_game(uc: UseCases) -> None:
    await players(uc)
    assert await uc.last_game(ALICE) is None  # nothing played: the bot shows Portes
    for _ in range(3):
        await resigned(uc, ALICE, BOB, -100, 1, BOB)  # Portes: Alice wins three
    for _ in range(3):
        await resigned(uc, BOB, ALICE, -100, 1, ALICE, game="plakoto")  # Plakoto: Bob
    await resigned(uc, CAROL, BOB, -200, 1, BOB, game="fevga")
    portes = await uc.leaderboard(-100, ALICE)
    plakoto = await uc.leaderboard(-100, ALICE, game="plakoto")
    assert (portes.game, plakoto.game) == ("portes", "plakoto")
    assert [(r.name, r.rating > 1500) for r in portes.top] == [("Alice", True), ("Bob", False)]
    assert [(r.name, r.rating > 1500) for r in plakoto.top] == [("Bob", True), ("Alice", False)]
    assert plakoto.mine is not None and plakoto.mine.rank == 2
    assert (await uc.leaderboard(0, CAROL, game="fevga")).my_matches == 1
    assert (await uc.leaderboard(0, ALICE, game="nardy")).top == ()

    stats = await uc.player_stats(ALICE, -100, game="plakoto")
    assert (stats.game, stats.people.played, stats.people.won, stats.people.streak) == (
        "plakoto", 3, 0, -3)
    assert stats.rating is not None and stats.rating.matches == 3 and stats.rating.rating < 1500
    assert len(stats.history) == 3 and all(c < 0 for c in stats.last_changes)
    portes_stats = await uc.player_stats(ALICE, -100)
    assert (portes_stats.people.played, portes_stats.people.won) == (3, 3)
    assert portes_stats.rating is not None and portes_stats.rating.rating > 1500
    assert (await uc.player_stats(ALICE, game="tavli")).people.played == 0

    h2h = await uc.head_to_head(ALICE, BOB, game="plakoto")
    assert (h2h.game, h2h.played, h2h.first_won) == ("plakoto", 3, 0)
    assert (await uc.head_to_head(ALICE, BOB)).first_won == 3
    assert (await uc.head_to_head(BOB, CAROL, game="plakoto")).played == 0

    # the game played last: Bob's is Fevga; with Alice, Plakoto
    assert await uc.last_game(ALICE) == "plakoto"
    assert await uc.last_game(BOB) == "fevga"
    assert await uc.last_game(BOB, ALICE) == "plakoto"
    assert await uc.last_game(ALICE, CAROL) is None


async def test_the_players_of_a_chat_are_found_by_name(uc: UseCases) -> None:
    await players(uc)
    await uc.upsert_player(2001, "Βασίλης Παππάς")
    await resigned(uc, ALICE, BOB, -100, 1, BOB)
    await resigned(uc, CAROL, 2001, -100, 1, CAROL)
    await resigned(uc, ALICE, CAROL, -200, 1, CAROL)  # another chat
    known = await uc.players_in_chat(-100)
    # who played in this chat, who played there last first
    assert [(p.id, p.name) for p in known] == [(CAROL, "Carol"), (2001, "Βασίλης Παππάς"),
                                               (ALICE, "Alice"), (BOB, "Bob")]
    assert [p.id for p in named(known, "βασιλης")] == [2001]  # any case, accents aside
    assert [p.id for p in named(known, "Παππάς Βασίλης")] == [2001]
    assert named(known, "Dave") == [] and named(known, "  ") == []
    assert {p.id for p in await uc.players_in_chat(-200)} == {CAROL, ALICE}
    assert await uc.players_in_chat(-300) == []
