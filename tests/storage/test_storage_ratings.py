"""Ratings written in the transaction that ends a match, and rebuilt from the history."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from storage.cli import main as storage_cli
from storage.db import Database
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, CAROL, players, ratings, resigned


def every_rating(db: Database) -> tuple[set[tuple[object, ...]], list[tuple[object, ...]]]:
    """Both tables whole: the ratings and the changes in the order written."""
    with db.engine.connect() as conn:
        table = {tuple(r) for r in conn.execute(text(
            "SELECT player_id, game, scope, rating, experience, matches FROM ratings"))}
        changes = [tuple(r) for r in conn.execute(text(
            "SELECT match_id, player_id, game, scope, before, after FROM rating_changes "
            "ORDER BY id"))]
    return table, changes




async def test_two_groups_rated_by_hand_then_rebuilt(uc: UseCases, db: Database,
                                                     db_url: str) -> None:
    await players(uc)
    # -100, 1 point: Alice beats Bob, newcomers of equal rating: 4 * 5 * 1 * 0.5 = 10
    await resigned(uc, ALICE, BOB, -100, 1, BOB)
    # -200, 3 points: Carol (1500, exp 0) beats Alice (global 1510, exp 1).
    # Global: D = 10, P_upset = 1 / (10 ** (10 * sqrt 3 / 2000) + 1) = 0.495015; the underdog
    # wins, P = 0.504985, 4 * sqrt 3 * P = 3.498640; Carol K = 5: +17.49320, Alice K = 4.99:
    # -17.45821. In -200 both are new: 4 * sqrt 3 * 0.5 = 3.464102, times 5 = 17.32051.
    await resigned(uc, CAROL, ALICE, -200, 3, ALICE)
    got = ratings(db)
    assert set(got) == {(ALICE, 0), (BOB, 0), (CAROL, 0), (ALICE, -100), (BOB, -100),
                        (ALICE, -200), (CAROL, -200)}
    assert got[(BOB, 0)] == (1490.0, 1, 1) and got[(BOB, -100)] == (1490.0, 1, 1)
    assert got[(ALICE, -100)] == (1510.0, 1, 1)
    assert got[(ALICE, 0)][0] == pytest.approx(1492.54179, abs=1e-4)
    assert got[(ALICE, 0)][1:] == (4, 2)
    assert got[(CAROL, 0)][0] == pytest.approx(1517.49320, abs=1e-4)
    assert got[(CAROL, -200)][0] == pytest.approx(1517.32051, abs=1e-4)
    assert got[(ALICE, -200)][0] == pytest.approx(1482.67949, abs=1e-4)

    storage_cli(["ratings", "rebuild", "--database-url", db_url])
    assert ratings(db) == got  # exactly the same numbers


async def test_a_cancelled_match_is_not_rated(uc: UseCases, db: Database) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1, chat_id=-100, group=True)
    assert created.ok and created.challenge is not None
    accepted = await uc.accept_challenge(created.challenge.id, BOB, mix="m")
    assert accepted.match is not None
    assert (await uc.cancel_match(accepted.match.id, BOB)).ok
    assert ratings(db) == {}


async def test_each_game_has_its_own_ratings_and_the_rebuild_keeps_them_apart(
        uc: UseCases, db: Database, db_url: str) -> None:
    await players(uc)
    # Portes: Alice beats Bob (1 point, newcomers): +-10 -> 1510 / 1490
    portes = await resigned(uc, ALICE, BOB, -100, 1, BOB)
    # Plakoto, the same two: Bob beats Alice; a new game, so both start again at 1500 with
    # experience 0: +-10 -> Bob 1510, Alice 1490 (in Portes they stay 1510 / 1490)
    plakoto = await resigned(uc, BOB, ALICE, -100, 1, ALICE, game="plakoto")
    # a tavli match (the rotation) rates as the game "tavli", 3 points: 4 * 5 * sqrt 3 * 0.5
    tavli = await resigned(uc, ALICE, CAROL, -200, 3, ALICE, game="tavli")
    # Fevga in private: only the global scope
    await resigned(uc, CAROL, BOB, 0, 1, BOB, game="fevga")
    assert ratings(db) == {(ALICE, 0): (1510.0, 1, 1), (BOB, 0): (1490.0, 1, 1),
                           (ALICE, -100): (1510.0, 1, 1), (BOB, -100): (1490.0, 1, 1)}
    assert ratings(db, "plakoto") == {(BOB, 0): (1510.0, 1, 1), (ALICE, 0): (1490.0, 1, 1),
                                      (BOB, -100): (1510.0, 1, 1), (ALICE, -100): (1490.0, 1, 1)}
    got = ratings(db, "tavli")
    assert set(got) == {(ALICE, 0), (CAROL, 0), (ALICE, -200), (CAROL, -200)}
    assert got[(CAROL, 0)][0] == pytest.approx(1500 + 10 * 3 ** 0.5) and got[(CAROL, 0)][1] == 3
    assert ratings(db, "fevga") == {(CAROL, 0): (1510.0, 1, 1), (BOB, 0): (1490.0, 1, 1)}
    with db.engine.connect() as conn:
        logged = conn.execute(text("SELECT DISTINCT match_id, game FROM rating_changes "
                                   "ORDER BY match_id")).all()
    assert [tuple(r) for r in logged][:3] == [(portes, "portes"), (plakoto, "plakoto"),
                                             (tavli, "tavli")]

    before = every_rating(db)
    storage_cli(["ratings", "rebuild", "--database-url", db_url])
    assert every_rating(db) == before  # every game, every scope, every change: the same
