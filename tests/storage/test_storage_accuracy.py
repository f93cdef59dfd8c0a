"""The accuracy figures' storage: the matches to judge, one store per match (a second changes
nothing), the end boards asked to be edited, /stats' average and best, head to head."""

from __future__ import annotations

from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, new_match, sql_rows


async def resigned_match(uc: UseCases) -> int:
    accepted = await new_match(uc)
    assert accepted.match is not None
    assert (await uc.resign_match(accepted.match.id, ALICE)).ok
    return accepted.match.id


async def test_a_finished_match_is_judged_once(uc: UseCases, db_url: str) -> None:
    first = await resigned_match(uc)
    second = await resigned_match(uc)
    # Then both wait to be judged, the newest first
    assert await uc.matches_to_judge(10) == [second, first]
    # When the first's end board is shown, then its figures are stored, the board is asked
    # again: an edit of its caption, no new message, no new picture
    for work in await uc.delivery.claim_deliveries("test", chat_key="-100"):
        await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version)
    await uc.delivery.release_claims("test")
    keys = await uc.store_accuracy(first, [(20, 0.1), (10, 0.02)], "GNU Backgammon 1-ply")
    assert keys
    rows = sql_rows(db_url, "SELECT repost_version, media_version, pending FROM deliveries "
                    "WHERE match_id = :m AND place LIKE 'chat:%'", m=first)
    assert rows and all(r[0] is None and r[1] is None and r[2] for r in rows)
    # and a second store (another instance) changes nothing
    assert await uc.store_accuracy(first, [(1, 1.0), (1, 1.0)], "other") == []
    judged = await uc.match_accuracy(first)
    assert judged is not None
    alice, bob = judged
    assert (alice.decisions, alice.equity_lost, alice.evaluator) == (
        20, 0.1, "GNU Backgammon 1-ply")
    assert alice.error_rate == 5.0 and alice.performance_rating == 2.5
    assert bob.error_rate == 2.0
    assert await uc.matches_to_judge(10) == [second]
    # the match view carries it (what the end card shows)
    loaded = await uc.load_match(first)
    assert loaded.match is not None and loaded.match.accuracy == judged


async def test_stats_average_the_last_matches_and_keep_the_best(uc: UseCases) -> None:
    first = await resigned_match(uc)
    second = await resigned_match(uc)
    await uc.store_accuracy(first, [(20, 0.2), (10, 0.0)], "x")  # Alice 10.0
    await uc.store_accuracy(second, [(30, 0.1), (10, 0.05)], "x")  # Alice 3.3
    summary = await uc.accuracy_summary(ALICE, "portes")
    assert summary.matches == 2
    assert summary.average is not None and summary.best is not None
    # the decisions together: 0.3 lost over 50 decisions = 6.0 thousandths, PR 3.0
    assert round(summary.average.error_rate, 6) == 6.0
    assert round(summary.average.performance_rating, 6) == 3.0
    assert summary.best.match_id == second
    # head to head: Bob's figures in his matches against Alice
    against = await uc.accuracy_summary(BOB, "portes", ALICE)
    assert against.average is not None and round(against.average.error_rate, 6) == 2.5
    # another game: nothing yet
    assert (await uc.accuracy_summary(ALICE, "plakoto")).average is None


async def test_two_instances_storing_one_matchs_figures_at_once_store_them_once(
        uc: UseCases, db_url: str) -> None:
    """Two instances judge the same match at the same moment (both found it unjudged): the
    second store waits for the first and changes nothing, instead of failing on the key."""
    import asyncio

    for _ in range(8):
        match_id = await resigned_match(uc)
        stores = await asyncio.gather(*(
            uc.store_accuracy(match_id, [(20, 0.1), (10, 0.02)], f"instance {i}")
            for i in range(2)))
        assert sum(1 for keys in stores if keys) == 1, stores
        assert sql_rows(db_url, "SELECT count(*) FROM match_accuracy WHERE match_id = :m",
                        m=match_id) == [(2,)]
